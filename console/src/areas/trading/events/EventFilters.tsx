import { useState } from 'preact/hooks';
import type { ApiResponse } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { setQuery } from '../../../router.ts';
import { Field } from '../../../ui/ui.tsx';
import { EVENT_STATUSES } from '../EventStatus.tsx';

type Competition = ApiResponse<'listTradingCompetitions'>['competitions'][number];

/** The events' filters, kept in the address: competition, status and order at once, dates and search on Apply. */
export function EventFilters(props: {
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
            {EVENT_STATUSES.map((status) => (
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
