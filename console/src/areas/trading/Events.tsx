import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../api.ts';
import { count, dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { href, navigate, place, setQuery } from '../../router.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { Table } from '../../ui/Table.tsx';
import { Badge, Dialog, Field, FormActions, FormError, Page, refusal } from '../../ui/ui.tsx';

type EventRow = ApiResponse<'listTradingEvents'>['events'][number];
type Sport = ApiResponse<'listTradingSports'>['sports'][number];
type Competition = ApiResponse<'listTradingCompetitions'>['competitions'][number];

const STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;

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
    status: query.getAll('status').filter((status) => (STATUSES as readonly string[]).includes(status)),
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

export function EventStatus(props: { status: string }) {
  const tone = props.status === 'live' ? 'good' : props.status === 'cancelled' ? 'bad' : 'neutral';
  return <Badge tone={tone}>{t.trading.statuses[props.status] ?? props.status}</Badge>;
}

function EventFilters(props: {
  filter: {
    competitionId?: string;
    status: string[];
    startsFrom: string | null;
    startsTo: string | null;
    q?: string;
    sort: string;
  };
  competitions: Competition[];
}) {
  const [q, setQ] = useState(props.filter.q ?? '');
  const [from, setFrom] = useState(props.filter.startsFrom ?? '');
  const [to, setTo] = useState(props.filter.startsTo ?? '');
  return (
    <form
      class="filters"
      onSubmit={(event) => {
        event.preventDefault();
        setQuery({ q: q.trim() || undefined, from: from || undefined, to: to || undefined });
      }}
    >
      <Field label={t.trading.competition}>
        {({ id }) => (
          <select
            id={id}
            value={props.filter.competitionId ?? ''}
            onChange={(e) => setQuery({ competition: e.currentTarget.value || undefined })}
          >
            <option value="">{t.trading.allCompetitions}</option>
            {props.competitions.map((competition) => (
              <option value={competition.id} key={competition.id}>
                {competition.name} ({competition.sport.name})
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.trading.status}>
        {({ id }) => (
          <select
            id={id}
            value={props.filter.status[0] ?? ''}
            onChange={(e) => setQuery({ status: e.currentTarget.value || undefined })}
          >
            <option value="">{t.trading.anyStatus}</option>
            {STATUSES.map((status) => (
              <option value={status} key={status}>
                {t.trading.statuses[status]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.trading.startsFrom}>
        {({ id }) => (
          <input id={id} type="datetime-local" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
        )}
      </Field>
      <Field label={t.trading.startsTo}>
        {({ id }) => <input id={id} type="datetime-local" value={to} onInput={(e) => setTo(e.currentTarget.value)} />}
      </Field>
      <Field label={t.trading.search} hint={t.trading.searchHint}>
        {({ id, describedBy }) => (
          <input
            id={id}
            type="search"
            maxLength={100}
            aria-describedby={describedBy}
            value={q}
            onInput={(e) => setQ(e.currentTarget.value)}
          />
        )}
      </Field>
      <Field label={t.trading.sort}>
        {({ id }) => (
          <select
            id={id}
            value={props.filter.sort}
            onChange={(e) => setQuery({ sort: e.currentTarget.value === '-startsAt' ? '-startsAt' : undefined })}
          >
            <option value="startsAt">{t.trading.soonest}</option>
            <option value="-startsAt">{t.trading.latest}</option>
          </select>
        )}
      </Field>
      <button type="submit" class="button">
        {t.apply}
      </button>
    </form>
  );
}

function CreateEvent(props: { competitions: Competition[]; onClose: () => void }) {
  const [form, setForm] = useState({
    competitionId: props.competitions[0]?.id ?? '',
    home: '',
    away: '',
    startsAt: '',
  });
  const [error, setError] = useState<Error | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const created = await call('createEvent', 'POST', '/api/v1/admin/trading/events', {
        body: {
          ...form,
          home: form.home.trim(),
          away: form.away.trim(),
          startsAt: new Date(form.startsAt).toISOString(),
        },
      });
      props.onClose();
      navigate(href(`/trading/events/${created.event.id}`));
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['competitionId', 'home', 'away', 'startsAt']);
  const fieldError = refused.field;
  return (
    <Dialog title={t.trading.newEvent} onClose={props.onClose}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={refused.general} />
        <Field label={t.trading.competition} error={fieldError('competitionId')}>
          {({ id }) => (
            <select
              id={id}
              required
              value={form.competitionId}
              onChange={(e) => setForm({ ...form, competitionId: e.currentTarget.value })}
            >
              {props.competitions.map((competition) => (
                <option value={competition.id} key={competition.id}>
                  {competition.name} ({competition.sport.name})
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t.trading.home} error={fieldError('home')}>
          {({ id }) => (
            <input
              id={id}
              required
              maxLength={100}
              value={form.home}
              onInput={(e) => setForm({ ...form, home: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.trading.away} error={fieldError('away')}>
          {({ id }) => (
            <input
              id={id}
              required
              maxLength={100}
              value={form.away}
              onInput={(e) => setForm({ ...form, away: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.trading.startsAt} error={fieldError('startsAt')}>
          {({ id }) => (
            <input
              id={id}
              type="datetime-local"
              required
              value={form.startsAt}
              onInput={(e) => setForm({ ...form, startsAt: e.currentTarget.value })}
            />
          )}
        </Field>
        <FormActions onCancel={props.onClose} submit={t.trading.create} />
      </form>
    </Dialog>
  );
}
