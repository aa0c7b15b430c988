import { useState } from 'preact/hooks';
import { call, type ApiRequest, type ApiResponse } from '../../../api.ts';
import { count } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormError, Problem } from '../../../ui/ui.tsx';
import type { TradingEvent } from './event.ts';

type Score = ApiRequest<'applyEventResult'>['score'];
type Planned = ApiResponse<'previewEventResult'>['markets'][number];
type Applied = ApiResponse<'applyEventResult'>['markets'][number];
/** "6-4 3-6 7-5": each set's games, home first. */
const SETS_TEXT = /^\s*(\d{1,2}-\d{1,2}(\s+\d{1,2}-\d{1,2})*)?\s*$/;

/**
 * The event's final score, and every market settled from it by its type's rule: the score first, then what each
 * market's results would be and what settling them would do (a dry run), then confirm. Markets the score cannot
 * settle (no half-time score given, say) are listed as skipped, to settle by hand or with a fuller score.
 */
export function ResultDialog(props: { event: TradingEvent; onClose: (done: boolean) => void }) {
  const { event } = props;
  const [home, setHome] = useState(String(event.score?.home ?? 0));
  const [away, setAway] = useState(String(event.score?.away ?? 0));
  const [halfHome, setHalfHome] = useState('');
  const [halfAway, setHalfAway] = useState('');
  const [sets, setSets] = useState('');
  const [planned, setPlanned] = useState<Planned[] | null>(null);
  const [applied, setApplied] = useState<Applied[] | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const path = `/api/v1/admin/trading/events/${event.id}/result`;

  function score(): Score | null {
    if (!SETS_TEXT.test(sets)) return null;
    const given: Score = { home: Number(home), away: Number(away) };
    if (halfHome !== '' || halfAway !== '') given.halfTime = { home: Number(halfHome), away: Number(halfAway) };
    const games = sets.trim().split(/\s+/).filter(Boolean);
    if (games.length > 0) {
      given.sets = games.map((set) => {
        const [h, a] = set.split('-').map(Number);
        return { home: h!, away: a! };
      });
    }
    return given;
  }
  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setError(null);
    try {
      return await action();
    } catch (failure) {
      setError(failure as Error);
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  async function preview(submitted: Event) {
    submitted.preventDefault();
    const body = score();
    if (!body) {
      setError(new Problem(t.trading.setsInvalid));
      return;
    }
    const answer = await run(() => call('previewEventResult', 'POST', `${path}/preview`, { body: { score: body } }));
    if (answer) setPlanned(answer.markets);
  }
  async function confirm() {
    const answer = await run(() => call('applyEventResult', 'POST', path, { body: { score: score()! } }));
    if (!answer) return;
    if (answer.markets.every((market) => !market.error)) props.onClose(true);
    else setApplied(answer.markets);
  }
  const edited = (set: (value: string) => void) => (e: { currentTarget: HTMLInputElement }) => {
    set(e.currentTarget.value);
    setPlanned(null);
  };
  const number = (label: string, value: string, set: (value: string) => void, required = true) => (
    <Field label={label}>
      {({ id }) => (
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={0}
          max={999}
          required={required}
          value={value}
          onInput={edited(set)}
        />
      )}
    </Field>
  );
  return (
    <Dialog title={t.trading.resultTitle(`${event.home} – ${event.away}`)} onClose={() => props.onClose(false)}>
      <form class="form" onSubmit={(submitted) => void preview(submitted)}>
        <p class="muted">{t.trading.resultIntro}</p>
        <div class="score-pair">
          {number(t.trading.finalScore(event.home), home, setHome)}
          {number(t.trading.finalScore(event.away), away, setAway)}
        </div>
        <div class="score-pair">
          {number(t.trading.halfTimeScore(event.home), halfHome, setHalfHome, halfAway !== '')}
          {number(t.trading.halfTimeScore(event.away), halfAway, setHalfAway, halfHome !== '')}
        </div>
        <Field label={t.trading.setsScore} hint={t.trading.setsHint}>
          {({ id, describedBy }) => (
            <input id={id} aria-describedby={describedBy} value={sets} onInput={edited(setSets)} />
          )}
        </Field>
        <FormError error={error} />
        {(applied ?? planned) && <MarketsByRule markets={applied ?? planned!} />}
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose(applied !== null)}>
            {applied ? t.close : t.cancel}
          </button>
          {planned && !applied ? (
            <button type="button" class="button button-danger" disabled={busy} onClick={() => void confirm()}>
              {t.trading.confirmResult(settling(planned), count(settling(planned)))}
            </button>
          ) : (
            !applied && (
              <button type="submit" class="button button-primary" disabled={busy}>
                {t.trading.preview}
              </button>
            )
          )}
        </div>
      </form>
    </Dialog>
  );
}

/** How many markets applying would settle or resettle. */
const settling = (markets: Planned[]) =>
  markets.filter((market) => market.action === 'settle' || market.action === 'resettle').length;

/** Each market: what the rule makes of it, its selections' results, and (applied) why one was not settled. */
function MarketsByRule(props: { markets: Array<Planned | Applied> }) {
  return (
    <div class="preview" role="status">
      <ul class="by-rule">
        {props.markets.map((market) => (
          <li key={market.marketId}>
            <strong>{market.name}</strong> · {t.trading.ruleActions[market.action]}
            {market.reason && ` (${t.trading.ruleReasons[market.reason]})`}
            {market.results && (
              <span class="muted">
                {' '}
                —{' '}
                {market.results
                  .map((selection) => `${selection.name}: ${t.trading.results[selection.result]}`)
                  .join(' · ')}
              </span>
            )}
            {'preview' in market && market.preview && (
              <span class="muted"> · {t.trading.previewBets(market.preview.bets, count(market.preview.bets))}</span>
            )}
            {'error' in market && market.error && <p class="field-error">{market.error.message}</p>}
          </li>
        ))}
      </ul>
    </div>
  );
}
