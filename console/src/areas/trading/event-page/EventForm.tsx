import { useState } from 'preact/hooks';
import { call, type ApiRequest } from '../../../api.ts';
import { localInput, matchClock } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Field, messageOf } from '../../../ui/ui.tsx';
import { EVENT_STATUSES } from '../EventStatus.tsx';
import type { TradingEvent } from './event.ts';

type Period = NonNullable<TradingEvent['period']>;
const PERIODS = Object.keys(t.trading.periods) as Period[];
const CLOCK_TEXT = /^(\d{1,4}):([0-5]\d)$/;

/** "67:30" → 4050 seconds; null for anything else. */
function clockText(text: string): number | null {
  const match = CLOCK_TEXT.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The event's own fields; it is drawn anew from the saved event, so `justSaved` comes from the page. */
export function EventForm(props: { event: TradingEvent; saved: () => void; justSaved: boolean }) {
  const { event } = props;
  // The clock as the form first showed it: a running clock is only sent again when the trader changed it.
  const [shownClock] = useState(() => matchClock(event.clock, Date.now()));
  const [status, setStatus] = useState<string>(event.status);
  const [startsAt, setStartsAt] = useState(localInput(event.startsAt));
  const [home, setHome] = useState(String(event.score?.home ?? 0));
  const [away, setAway] = useState(String(event.score?.away ?? 0));
  const [period, setPeriod] = useState<string>(event.period ?? '');
  const [clock, setClock] = useState(shownClock);
  const [running, setRunning] = useState(event.clock?.running ?? false);
  const [down, setDown] = useState(event.clock?.direction === 'down');
  const [clockError, setClockError] = useState<string | undefined>(undefined);
  const [error, setError] = useState<Error | null>(null);
  const clockChanged =
    clock !== shownClock || running !== (event.clock?.running ?? false) || down !== (event.clock?.direction === 'down');
  async function save(submitted: Event) {
    submitted.preventDefault();
    setError(null);
    const seconds = clock.trim() === '' ? null : clockText(clock);
    if (clock.trim() !== '' && seconds === null) {
      setClockError(t.trading.clockInvalid);
      return;
    }
    setClockError(undefined);
    const body: ApiRequest<'updateEvent'> = { status: status as (typeof EVENT_STATUSES)[number] };
    if (startsAt && startsAt !== localInput(event.startsAt)) body.startsAt = new Date(startsAt).toISOString();
    if (status === 'live' || event.score) body.score = { home: Number(home), away: Number(away) };
    if (period !== (event.period ?? '')) body.period = period === '' ? null : (period as Period);
    if (clockChanged) body.clock = seconds === null ? null : { seconds, running, direction: down ? 'down' : 'up' };
    try {
      await call('updateEvent', 'PATCH', `/api/v1/admin/trading/events/${event.id}`, { body });
      props.saved();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const score = (label: string, value: string, set: (value: string) => void) => (
    <Field label={`${t.trading.setScore}: ${label}`}>
      {({ id }) => (
        <input id={id} type="number" min={0} max={999} value={value} onInput={(e) => set(e.currentTarget.value)} />
      )}
    </Field>
  );
  return (
    <form class="panel filters" onSubmit={(submitted) => void save(submitted)}>
      <Field label={t.trading.setStatus}>
        {({ id }) => (
          <select id={id} value={status} onChange={(e) => setStatus(e.currentTarget.value)}>
            {EVENT_STATUSES.map((value) => (
              <option value={value} key={value}>
                {t.trading.statuses[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.trading.startsAt}>
        {({ id }) => (
          <input
            id={id}
            type="datetime-local"
            required
            value={startsAt}
            onInput={(e) => setStartsAt(e.currentTarget.value)}
          />
        )}
      </Field>
      {score(t.trading.homeScore, home, setHome)}
      {score(t.trading.awayScore, away, setAway)}
      <Field label={t.trading.period}>
        {({ id }) => (
          <select id={id} value={period} onChange={(e) => setPeriod(e.currentTarget.value)}>
            <option value="">{t.trading.noPeriod}</option>
            {PERIODS.map((value) => (
              <option value={value} key={value}>
                {t.trading.periods[value]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.trading.clock} hint={t.trading.clockHint} error={clockError}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            inputMode="numeric"
            autoComplete="off"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={clock}
            onInput={(e) => setClock(e.currentTarget.value)}
          />
        )}
      </Field>
      <label class="check">
        <input type="checkbox" checked={running} onChange={(e) => setRunning(e.currentTarget.checked)} />
        {t.trading.clockRuns}
      </label>
      <label class="check">
        <input type="checkbox" checked={down} onChange={(e) => setDown(e.currentTarget.checked)} />
        {t.trading.clockCountsDown}
      </label>
      <button type="submit" class="button button-primary">
        {t.trading.saveEvent}
      </button>
      <span role="status" class={error ? 'form-error' : 'muted'}>
        {error ? messageOf(error) : props.justSaved ? t.trading.eventSaved : ''}
      </span>
    </form>
  );
}
