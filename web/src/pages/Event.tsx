import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.ts';
import { applyMarkets } from '../betslip/slip.ts';
import { isNotFound } from '../catalog.ts';
import { ErrorState, PageHeader, Same, shownWith, Skeleton, TabPanel, Tabs } from '../components/common.tsx';
import { EventTime } from '../components/Events.tsx';
import { FavouriteButton } from '../components/FavouriteButton.tsx';
import { Icon } from '../components/icons.tsx';
import { OddsButton } from '../components/OddsButton.tsx';
import { t } from '../i18n/index.ts';
import { eventName, marketLabel, sportName } from '../labels.ts';
import { useLive } from '../live-data.ts';
import { go, setPageTitle } from '../router.ts';
import { marketGroups, tabsWithMarkets, type MarketTab } from '../market-groups.ts';
import type { EventDetail, Market, MarketType } from '../types.ts';
import './Event.css';

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

/** The teams, the score, and where a live event stands; the clock ticks on the page. */
function Scoreboard({ event, name }: { event: EventDetail; name: string }) {
  const live = event.status === 'live';
  return (
    <section class={`scoreboard${live ? ' is-live' : ''}`} aria-label={name}>
      <span class="sb-team">{event.home}</span>
      <span class="sb-middle">
        {live && event.score && (
          <span class="sb-score">
            <span class="visually-hidden">{t('score', { home: event.score.home, away: event.score.away })}</span>
            <span aria-hidden="true">
              {event.score.home} – {event.score.away}
            </span>
          </span>
        )}
        <EventTime event={event} />
      </span>
      <span class="sb-team">{event.away}</span>
    </section>
  );
}

function tabLabel(tab: MarketTab, sportId: string): string {
  if (tab === 'periods') return t(sportId === 'tennis' ? 'tab_sets' : 'tab_halves');
  return t(`tab_${tab}`);
}

/** The event's markets under tabs (all, main, totals, ...); the chosen tab stays while the odds refresh. */
/** The event without its markets: what each market group shows of it (the teams, whether it takes bets). */
const eventHeader = (event: EventDetail) => ({ ...event, markets: undefined });

function Markets({ event }: { event: EventDetail }) {
  const [chosen, setChosen] = useState<MarketTab>('all');
  const tabs = tabsWithMarkets(event.markets);
  const current = tabs.includes(chosen) ? chosen : 'all';
  return (
    <>
      {tabs.length > 2 && (
        <Tabs
          label={t('marketTabs')}
          idPrefix="markets"
          scroll
          tabs={tabs.map((tab) => ({ id: tab, label: tabLabel(tab, event.sport.id) }))}
          current={current}
          onChange={setChosen}
        />
      )}
      <TabPanel idPrefix="markets" current={current}>
        {marketGroups(event.markets, current).map((group) => (
          // a price that moved renders its market's group again, not the page's other groups
          <Same
            key={group.type}
            shows={shownWith(eventHeader(event), group.type, group.markets)}
            view={() => <MarketGroup event={event} type={group.type} markets={group.markets} />}
          />
        ))}
      </TabPanel>
    </>
  );
}

/** An event with all its markets (/event/{eventId}). */
export function EventPage({ eventId }: { eventId: string }) {
  const { data, error, reload } = useLive({
    key: `event:${eventId}`,
    topics: [`event:${eventId}`],
    async read(signal) {
      const { event } = await api.event(eventId, signal);
      applyMarkets(event, event.markets, true);
      return event;
    },
    view([body]) {
      const { event } = body as { event: EventDetail };
      applyMarkets(event, event.markets, true);
      return event;
    },
  });
  const name = data ? eventName(data.home, data.away) : '';
  useEffect(() => {
    if (data) setPageTitle(name);
  });

  return (
    <div class="page">
      <PageHeader
        title={name || '\u00a0'}
        action={data && <FavouriteButton kind="events" id={data.id} name={name} />}
        subtitle={
          data && (
            <button
              type="button"
              class="title-link"
              onClick={() => go({ page: 'competition', competitionId: data.competition.id })}
            >
              {sportName(data.sport)} · {data.competition.name}
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
          <Scoreboard event={data} name={name} />
          {data.markets.length === 0 ? (
            <section class="card">
              <p class="empty">{t('noMarkets')}</p>
            </section>
          ) : (
            <Markets event={data} />
          )}
        </>
      )}
    </div>
  );
}
