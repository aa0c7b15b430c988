import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { applyMarkets } from '../betslip/slip.ts';
import { isNotFound } from '../catalog.ts';
import { ErrorState, PageHeader, Skeleton } from '../components/common.tsx';
import { EventTime } from '../components/Events.tsx';
import { Icon } from '../components/icons.tsx';
import { OddsButton } from '../components/OddsButton.tsx';
import { t } from '../i18n/index.ts';
import { eventName, marketLabel } from '../labels.ts';
import { usePoll } from '../poll.ts';
import { go, setPageTitle } from '../router.ts';
import type { EventDetail, Market, MarketType } from '../types.ts';
import './Event.css';

const TYPE_ORDER: MarketType[] = [
  'match_result',
  'moneyline',
  'totals',
  'handicap',
  'both_teams_to_score',
  'correct_score',
];

/** Markets grouped by type, in a familiar order (several lines of a total are one group). */
function groups(markets: Market[]): Array<{ type: MarketType; markets: Market[] }> {
  const byType = new Map<MarketType, Market[]>();
  for (const market of markets) byType.set(market.type, [...(byType.get(market.type) ?? []), market]);
  return [...byType.entries()]
    .sort(([a], [b]) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b))
    .map(([type, list]) => ({ type, markets: list }));
}

function columns(market: Market): number {
  if (market.type === 'correct_score') return 3;
  return Math.min(Math.max(market.selections.length, 1), 3);
}

function MarketGroup({ event, type, markets }: { event: EventDetail; type: MarketType; markets: Market[] }) {
  const [open, setOpen] = useState(true);
  const id = `group-${type}`;
  const suspended = markets.every((market) => market.status !== 'open');
  return (
    <section class="card market-group" aria-labelledby={`${id}-title`}>
      <h2 class="card-head" id={`${id}-title`}>
        <button
          type="button"
          class="group-toggle"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          <span class="card-title">{marketLabel(type, markets.length === 1 ? markets[0]!.line : null)}</span>
          {suspended && <span class="badge muted">{t('suspended')}</span>}
          <span class={`chevron${open ? ' open' : ''}`}>
            <Icon name="chevron" size={16} />
          </span>
        </button>
      </h2>
      <div id={id} hidden={!open} class="markets">
        {markets.map((market) => (
          <div class="market" key={market.id}>
            {markets.length > 1 && (
              <h3 class="market-line">
                {marketLabel(market.type, market.line)}
                {market.status === 'suspended' && !suspended && <span class="badge muted">{t('suspended')}</span>}
              </h3>
            )}
            <div class={`selections cols-${columns(market)}`}>
              {market.selections.map((selection) => (
                <OddsButton key={selection.id} selection={selection} market={market} event={event} />
              ))}
            </div>
          </div>
        ))}
      </div>
    </section>
  );
}

/** An event with all its markets (/event/{eventId}). */
export function EventPage({ eventId }: { eventId: string }) {
  const { data, error, reload } = usePoll(async (signal) => {
    const { event } = await api.event(eventId, signal);
    applyMarkets(event, event.markets, true);
    return event;
  }, `event:${eventId}`);
  const name = data ? eventName(data.home, data.away) : '';
  useEffect(() => {
    if (data) setPageTitle(name);
  });

  return (
    <div class="page">
      <PageHeader
        title={name || '\u00a0'}
        subtitle={
          data && (
            <button
              type="button"
              class="title-link"
              onClick={() => go({ page: 'competition', competitionId: data.competition.id })}
            >
              {data.sport.name} · {data.competition.name}
            </button>
          )
        }
      />
      {data === undefined && error !== undefined && (
        <ErrorState
          onRetry={isNotFound(error) ? undefined : reload}
          message={isNotFound(error) ? t('notFound') : undefined}
        />
      )}
      {data === undefined && error === undefined && <Skeleton rows={6} />}
      {data && (
        <>
          <section class={`scoreboard${data.status === 'live' ? ' is-live' : ''}`} aria-label={name}>
            <span class="sb-team">{data.home}</span>
            <span class="sb-middle">
              {data.status === 'live' ? (
                <>
                  {data.score && (
                    <span class="sb-score" aria-label={t('score', { home: data.score.home, away: data.score.away })}>
                      {data.score.home} – {data.score.away}
                    </span>
                  )}
                  <span class="badge live">{t('liveBadge')}</span>
                </>
              ) : (
                <EventTime event={data} />
              )}
            </span>
            <span class="sb-team">{data.away}</span>
          </section>
          {data.markets.length === 0 ? (
            <section class="card">
              <p class="empty">{t('noMarkets')}</p>
            </section>
          ) : (
            groups(data.markets).map((group) => (
              <MarketGroup key={group.type} event={data} type={group.type} markets={group.markets} />
            ))
          )}
        </>
      )}
    </div>
  );
}
