import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { count, dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { href, place } from '../../router.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { Table } from '../../ui/Table.tsx';
import { Page } from '../../ui/ui.tsx';
import { CreateEvent } from './events/CreateEvent.tsx';
import { EventFilters } from './events/EventFilters.tsx';
import { EVENT_STATUSES, EventStatus } from './EventStatus.tsx';

type EventRow = ApiResponse<'listTradingEvents'>['events'][number];
type Sport = ApiResponse<'listTradingSports'>['sports'][number];

/** A local date-time input's value as an instant, or undefined. */
const instant = (local: string | null) => (local ? new Date(local).toISOString() : undefined);

/**
 * The catalog as a tree: sports (with their event counts), a sport's competitions, their events (filtered by
 * status, start time and a search, paged on the server), each event's markets on its own page.
 */
export function Events() {
  const { query } = useValue(place);
  const [creating, setCreating] = useState(false);
  const filter = {
    sportId: query.get('sport') ?? undefined,
    competitionId: query.get('competition') ?? undefined,
    status: query.getAll('status').filter((status) => (EVENT_STATUSES as readonly string[]).includes(status)),
    startsFrom: query.get('from'),
    startsTo: query.get('to'),
    q: query.get('q') ?? undefined,
    sort: query.get('sort') === '-startsAt' ? ('-startsAt' as const) : ('startsAt' as const),
    cursor: query.get('cursor') ?? undefined,
  };
  const sports = useLoad(
    (signal) => call('listTradingSports', 'GET', '/api/v1/admin/trading/sports', { signal }),
    'sports',
  );
  const competitions = useLoad(
    (signal) =>
      call('listTradingCompetitions', 'GET', '/api/v1/admin/trading/competitions', {
        query: { sportId: filter.sportId, limit: 100 },
        signal,
      }),
    filter.sportId ?? '',
  );
  const events = useLoad(async (signal) => {
    const page = await call('listTradingEvents', 'GET', '/api/v1/admin/trading/events', {
      query: {
        sportId: filter.sportId,
        competitionId: filter.competitionId,
        status: filter.status,
        startsFrom: instant(filter.startsFrom),
        startsTo: instant(filter.startsTo),
        q: filter.q,
        sort: filter.sort,
        cursor: filter.cursor,
      },
      signal,
    });
    return { rows: page.events, nextCursor: page.nextCursor || undefined };
  }, query.toString());
  return (
    <Page
      title={t.trading.title}
      actions={
        <button type="button" class="button button-primary" onClick={() => setCreating(true)}>
          {t.trading.newEvent}
        </button>
      }
    >
      <div class="tree">
        <nav class="tree-sports" aria-label={t.trading.sports}>
          <ul>
            <li>
              <a href={href('/trading/events')} aria-current={filter.sportId ? undefined : 'page'}>
                {t.trading.allSports}
              </a>
            </li>
            {(sports.data?.sports ?? []).map((sport: Sport) => (
              <li key={sport.id}>
                <a
                  href={href('/trading/events', { sport: sport.id })}
                  aria-current={filter.sportId === sport.id ? 'page' : undefined}
                >
                  {sport.name} <span class="muted">{count(sport.events.live + sport.events.scheduled)}</span>
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="tree-events">
          <EventFilters filter={filter} competitions={competitions.data?.competitions ?? []} />
          <Table<EventRow>
            caption={t.trading.caption}
            loaded={events}
            rowKey={(row) => row.id}
            empty={t.trading.empty}
            columns={[
              {
                header: t.trading.event,
                cell: (row) => (
                  <span>
                    <a href={href(`/trading/events/${row.id}`)}>{row.name}</a>
                    <br />
                    <span class="muted">
                      {row.sport.name} · {row.competition.name}
                    </span>
                  </span>
                ),
              },
              { header: t.trading.startsAt, cell: (row) => dateTime(row.startsAt) },
              { header: t.trading.status, cell: (row) => <EventStatus status={row.status} /> },
              {
                header: t.trading.score,
                cell: (row) =>
                  [row.score && `${row.score.home} – ${row.score.away}`, row.period && t.trading.periods[row.period]]
                    .filter(Boolean)
                    .join(' · '),
              },
              {
                header: t.trading.markets,
                cell: (row) => t.trading.marketCounts(row.markets.open, row.markets.suspended, row.markets.settled),
              },
            ]}
          />
        </div>
      </div>
      {creating && (
        <CreateEvent competitions={competitions.data?.competitions ?? []} onClose={() => setCreating(false)} />
      )}
    </Page>
  );
}
