import { useEffect, useState } from 'preact/hooks';
import { ApiError, call, type ApiRequest, type ApiResponse } from '../../api.ts';
import { count, dateTime, localInput, matchClock, money, percent } from '../../format.ts';
import { t } from '../../messages.ts';
import { useLoad } from '../../ui/load.ts';
import {
  Badge,
  Dialog,
  Failure,
  Field,
  FormActions,
  FormError,
  Loading,
  messageOf,
  Page,
  refusal,
} from '../../ui/ui.tsx';
import { EventStatus } from './Events.tsx';

type TradingEvent = ApiResponse<'getTradingEvent'>['event'];
type Market = TradingEvent['markets'][number];
type Preview = ApiResponse<'previewSettleMarket'>;
type Results = ApiRequest<'settleMarket'>['results'];
type Result = Results[number]['result'];

const EVENT_STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;
const RESULTS: Result[] = ['won', 'lost', 'void', 'half_won', 'half_lost'];

/** The book's margin at a market's odds: Σ 1/odds − 1 (an overround of 5% shows as 5%). */
function margin(market: Pick<Market, 'selections'>): number {
  return market.selections.reduce((sum, selection) => sum + 1 / Number(selection.odds), 0) - 1;
}

/** An event on the trading desk: its status and score, its markets, their odds, and their settlement. */
export function EventPage(props: { id: string }) {
  const [saved, setSaved] = useState(false);
  const loaded = useLoad(
    (signal) =>
      call('getTradingEvent', 'GET', `/api/v1/admin/trading/events/${encodeURIComponent(props.id)}`, { signal }),
    props.id,
  );
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const event = loaded.data.event;
  return (
    <Page title={`${event.home} – ${event.away}`} actions={<EventStatus status={event.status} />}>
      <p class="muted">
        {event.sport.name} · {event.competition.name} · {dateTime(event.startsAt)}
      </p>
      <LiveState event={event} />
      <EventForm
        event={event}
        saved={() => {
          setSaved(true);
          loaded.reload();
        }}
        justSaved={saved}
        key={JSON.stringify([event.startsAt, event.status, event.score, event.period, event.clock])}
      />
      <div class="form-actions">
        <NewMarket eventId={event.id} event={event} created={loaded.reload} />
      </div>
      {event.markets.length === 0 && <p class="state state-empty">{t.trading.noMarkets}</p>}
      {event.markets.map((market) => (
        <MarketPanel market={market} changed={loaded.reload} key={market.id} />
      ))}
    </Page>
  );
}

type Period = NonNullable<TradingEvent['period']>;
const PERIODS = Object.keys(t.trading.periods) as Period[];
const CLOCK_TEXT = /^(\d{1,4}):([0-5]\d)$/;

/** "67:30" → 4050 seconds; null for anything else. */
function clockText(text: string): number | null {
  const match = CLOCK_TEXT.exec(text.trim());
  return match ? Number(match[1]) * 60 + Number(match[2]) : null;
}

/** The event's live state as it stands: score, period and a clock that ticks while it runs. */
function LiveState(props: { event: TradingEvent }) {
  const { score, period, clock } = props.event;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!clock?.running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [clock]);
  const parts = [
    score ? `${score.home} – ${score.away}` : '',
    period ? t.trading.periods[period] : '',
    matchClock(clock, now),
  ].filter(Boolean);
  return parts.length ? <p class="live-state">{parts.join(' · ')}</p> : null;
}

/** The event's own fields; it is drawn anew from the saved event, so `justSaved` comes from the page. */
function EventForm(props: { event: TradingEvent; saved: () => void; justSaved: boolean }) {
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

type Settling = { action: 'settle' | 'resettle'; voiding: boolean };

function MarketPanel(props: { market: Market; changed: () => void }) {
  const { market } = props;
  const [settling, setSettling] = useState<Settling | null>(null);
  const [error, setError] = useState<Error | null>(null);
  async function setStatus(status: 'open' | 'suspended' | 'closed') {
    setError(null);
    try {
      await call('setMarketStatus', 'PATCH', `/api/v1/admin/trading/markets/${market.id}`, { body: { status } });
      props.changed();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const settled = market.status === 'settled';
  const headingId = `market-${market.id}`;
  return (
    <section class="panel" aria-labelledby={headingId}>
      <div class="panel-head">
        <h2 id={headingId}>
          {market.name}
          {market.line ? ` ${market.line}` : ''}
        </h2>
        <Badge tone={market.status === 'open' ? 'good' : market.status === 'suspended' ? 'warn' : 'neutral'}>
          {t.trading.marketStatuses[market.status]}
        </Badge>
      </div>
      <p class="muted" title={t.trading.marginHint}>
        {t.trading.margin}: {percent(margin(market))}
      </p>
      <FormError error={error} />
      <ul class="selections">
        {market.selections.map((selection) => (
          <li key={selection.id}>
            <OddsForm selection={selection} disabled={settled} saved={props.changed} />
          </li>
        ))}
      </ul>
      <div class="form-actions">
        {market.status === 'open' && (
          <button type="button" class="button" onClick={() => void setStatus('suspended')}>
            {t.trading.suspend}
          </button>
        )}
        {market.status === 'suspended' && (
          <button type="button" class="button" onClick={() => void setStatus('open')}>
            {t.trading.reopen}
          </button>
        )}
        {!settled && market.status !== 'closed' && (
          <button type="button" class="button" onClick={() => void setStatus('closed')}>
            {t.trading.close}
          </button>
        )}
        <button
          type="button"
          class="button"
          onClick={() => setSettling({ action: settled ? 'resettle' : 'settle', voiding: true })}
        >
          {t.trading.voidMarket}
        </button>
        <button
          type="button"
          class="button button-primary"
          onClick={() => setSettling({ action: settled ? 'resettle' : 'settle', voiding: false })}
        >
          {settled ? t.trading.resettle : t.trading.settle}
        </button>
      </div>
      {settling && (
        <SettleDialog
          market={market}
          settling={settling}
          onClose={(done) => {
            setSettling(null);
            if (done) props.changed();
          }}
        />
      )}
    </section>
  );
}

function OddsForm(props: { selection: Market['selections'][number]; disabled: boolean; saved: () => void }) {
  const { selection } = props;
  const [odds, setOdds] = useState(selection.odds);
  const [error, setError] = useState<string | undefined>();
  async function save(submitted: Event) {
    submitted.preventDefault();
    setError(undefined);
    try {
      await call('setOdds', 'PUT', `/api/v1/admin/trading/selections/${selection.id}/odds`, {
        body: { odds: odds.trim() },
      });
      props.saved();
    } catch (failure) {
      setError(failure instanceof ApiError ? failure.message : messageOf(failure));
    }
  }
  return (
    <form class="odds-form" onSubmit={(submitted) => void save(submitted)}>
      <Field label={t.trading.oddsFor(selection.name)} error={error}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            inputMode="decimal"
            maxLength={10}
            disabled={props.disabled}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            value={odds}
            onInput={(e) => setOdds(e.currentTarget.value)}
          />
        )}
      </Field>
      {selection.result && <Badge>{t.trading.results[selection.result]}</Badge>}
      {!props.disabled && (
        <button type="submit" class="button button-small" disabled={odds === selection.odds}>
          {t.trading.setOdds}
        </button>
      )}
    </form>
  );
}

/**
 * Settle, void or resettle: choose each selection's result, see what the same rules would do (a dry run: bets by
 * result, money owed per currency), then confirm.
 */
function SettleDialog(props: { market: Market; settling: Settling; onClose: (done: boolean) => void }) {
  const { market, settling } = props;
  const [results, setResults] = useState<Record<string, Result>>(() =>
    Object.fromEntries(
      market.selections.map((selection, index) => [
        selection.id,
        settling.voiding ? 'void' : (selection.result ?? (index === 0 ? 'won' : 'lost')),
      ]),
    ),
  );
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const body = {
    results: market.selections.map((selection) => ({ selectionId: selection.id, result: results[selection.id]! })),
  };
  const path = `/api/v1/admin/trading/markets/${market.id}/${settling.action}`;
  async function showPreview(submitted: Event) {
    submitted.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const operation = settling.action === 'settle' ? 'previewSettleMarket' : 'previewResettleMarket';
      setPreview(await call(operation, 'POST', `${path}/preview`, { body }));
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  }
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      await call(settling.action === 'settle' ? 'settleMarket' : 'resettleMarket', 'POST', path, { body });
      props.onClose(true);
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  }
  const name = `${market.name}${market.line ? ` ${market.line}` : ''}`;
  const title = settling.voiding
    ? t.trading.voidTitle(name)
    : settling.action === 'settle'
      ? t.trading.settleTitle(name)
      : t.trading.resettleTitle(name);
  return (
    <Dialog title={title} onClose={() => props.onClose(false)}>
      <form class="form" onSubmit={(submitted) => void showPreview(submitted)}>
        {market.selections.map((selection) => (
          <Field label={t.trading.resultFor(selection.name)} key={selection.id}>
            {({ id }) => (
              <select
                id={id}
                value={results[selection.id]}
                onChange={(e) => {
                  setResults({ ...results, [selection.id]: e.currentTarget.value as Result });
                  setPreview(null);
                }}
              >
                {RESULTS.map((result) => (
                  <option value={result} key={result}>
                    {t.trading.results[result]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        ))}
        <FormError error={error} />
        {preview && <PreviewSummary preview={preview} />}
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose(false)}>
            {t.cancel}
          </button>
          {preview ? (
            <button
              type="button"
              class="button button-danger"
              disabled={busy || !preview.resultsChanged}
              onClick={() => void confirm()}
            >
              {settling.action === 'settle' ? t.trading.confirmSettle : t.trading.confirmResettle}
            </button>
          ) : (
            <button type="submit" class="button button-primary" disabled={busy}>
              {t.trading.preview}
            </button>
          )}
        </div>
      </form>
    </Dialog>
  );
}

function PreviewSummary(props: { preview: Preview }) {
  const { preview } = props;
  return (
    <div class="preview" role="status">
      <p class="muted">{t.trading.previewIntro}</p>
      {!preview.resultsChanged && <p class="notice">{t.trading.previewNothing}</p>}
      <p>
        <strong>{t.trading.previewBets(preview.bets, count(preview.bets))}</strong>
      </p>
      <h3>{t.trading.previewResult}</h3>
      <ul>
        {Object.entries(preview.byResult)
          .filter(([, value]) => value > 0)
          .map(([result, value]) => (
            <li key={result}>
              {t.trading.results[result]}: {count(value)}
            </li>
          ))}
      </ul>
      <h3>{t.trading.previewOwed}</h3>
      {preview.owed.length === 0 ? (
        <p>{t.trading.noMoney}</p>
      ) : (
        <ul>
          {preview.owed.map((owed) => (
            <li key={owed.currency}>
              {t.trading.credits(
                owed.credits.count,
                count(owed.credits.count),
                money(owed.credits.amount, owed.currency),
              )}
              {owed.debits.count > 0 &&
                ` · ${t.trading.debits(owed.debits.count, count(owed.debits.count), money(owed.debits.amount, owed.currency))}`}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

const MARKET_TYPES = [
  'match_result',
  'moneyline',
  'totals',
  'handicap',
  'both_teams_to_score',
  'correct_score',
  'double_chance',
  'draw_no_bet',
  'half_time_result',
  'first_half_moneyline',
  'set_betting',
  'first_set_winner',
] as const;

/** "name, outcome, odds" per line, as the trader typed them. */
function selectionsOf(text: string) {
  return text
    .split('\n')
    .map((line) => line.split(',').map((part) => part.trim()))
    .filter((parts) => parts.some(Boolean))
    .map(([name = '', outcome = '', odds = '']) => ({ name, outcome, odds }));
}

function NewMarket(props: { eventId: string; event: TradingEvent; created: () => void }) {
  const [open, setOpen] = useState(false);
  const [type, setType] = useState<(typeof MARKET_TYPES)[number]>('match_result');
  const [line, setLine] = useState('');
  const [selections, setSelections] = useState(
    `${props.event.home}, home, 2.10\nDraw, draw, 3.30\n${props.event.away}, away, 3.40`,
  );
  const [error, setError] = useState<Error | null>(null);
  async function submit(submitted: Event) {
    submitted.preventDefault();
    setError(null);
    try {
      await call('createMarket', 'POST', `/api/v1/admin/trading/events/${props.eventId}/markets`, {
        body: { type, ...(line.trim() ? { line: line.trim() } : {}), selections: selectionsOf(selections) },
      });
      setOpen(false);
      props.created();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['type', 'line', 'selections']);
  const fieldError = refused.field;
  return (
    <>
      <button type="button" class="button" onClick={() => setOpen(true)}>
        {t.trading.newMarket}
      </button>
      {open && (
        <Dialog title={t.trading.newMarket} onClose={() => setOpen(false)}>
          <form class="form" onSubmit={(submitted) => void submit(submitted)}>
            <FormError error={refused.general} />
            <Field label={t.trading.marketType} error={fieldError('type')}>
              {({ id }) => (
                <select id={id} value={type} onChange={(e) => setType(e.currentTarget.value as typeof type)}>
                  {MARKET_TYPES.map((value) => (
                    <option value={value} key={value}>
                      {value.replaceAll('_', ' ')}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t.trading.line} hint={t.trading.lineHint} error={fieldError('line')}>
              {({ id, describedBy }) => (
                <input
                  id={id}
                  aria-describedby={describedBy}
                  maxLength={10}
                  value={line}
                  onInput={(e) => setLine(e.currentTarget.value)}
                />
              )}
            </Field>
            <Field label={t.trading.selections} hint={t.trading.selectionsHint} error={fieldError('selections')}>
              {({ id, describedBy }) => (
                <textarea
                  id={id}
                  rows={4}
                  aria-describedby={describedBy}
                  value={selections}
                  onInput={(e) => setSelections(e.currentTarget.value)}
                />
              )}
            </Field>
            <FormActions onCancel={() => setOpen(false)} submit={t.trading.create} />
          </form>
        </Dialog>
      )}
    </>
  );
}
