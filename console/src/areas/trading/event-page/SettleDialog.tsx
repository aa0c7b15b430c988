import { useState } from 'preact/hooks';
import { call, type ApiRequest, type ApiResponse } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormError, Problem } from '../../../ui/ui.tsx';
import type { Market, TradingEvent } from './event.ts';
import { PreviewSummary, type Preview } from './PreviewSummary.tsx';

type Results = ApiRequest<'settleMarket'>['results'];
type Result = Results[number]['result'];

const RESULTS: Result[] = ['won', 'lost', 'void', 'half_won', 'half_lost'];

/** What the market panel opens the dialog for: settle or resettle, choosing results or voiding every one. */
export type Settling = { action: 'settle' | 'resettle'; voiding: boolean };

/**
 * Settle, void or resettle: choose each selection's result, see what the same rules would do (a dry run: bets by
 * result, money owed per currency), then confirm. Nothing is chosen for the trader (a settlement is never one click
 * from a default), the event's status and score are in view, and an event that has not finished is said so.
 */
export function SettleDialog(props: {
  market: Market;
  event: Pick<TradingEvent, 'status' | 'score'>;
  settling: Settling;
  /** The settlement's report when it was made; null when the dialog closed without it. */
  onClose: (done: ApiResponse<'settleMarket'> | null) => void;
}) {
  const { market, event, settling } = props;
  const [results, setResults] = useState<Record<string, Result | ''>>(() =>
    Object.fromEntries(
      market.selections.map((selection) => [selection.id, settling.voiding ? 'void' : (selection.result ?? '')]),
    ),
  );
  const [preview, setPreview] = useState<Preview | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const chosen = market.selections.every((selection) => results[selection.id] !== '');
  const body = {
    results: market.selections.map((selection) => ({
      selectionId: selection.id,
      result: results[selection.id] as Result,
    })),
  };
  const path = `/api/v1/admin/trading/markets/${market.id}/${settling.action}`;
  async function showPreview(submitted: Event) {
    submitted.preventDefault();
    if (!chosen) {
      setError(new Problem(t.trading.chooseEveryResult));
      return;
    }
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
      props.onClose(
        await call(settling.action === 'settle' ? 'settleMarket' : 'resettleMarket', 'POST', path, { body }),
      );
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  }
  // the name says the line (Total over/under 2.5): market-rules.ts
  const title = settling.voiding
    ? t.trading.voidTitle(market.name)
    : settling.action === 'settle'
      ? t.trading.settleTitle(market.name)
      : t.trading.resettleTitle(market.name);
  return (
    <Dialog title={title} onClose={() => props.onClose(null)}>
      <form class="form" onSubmit={(submitted) => void showPreview(submitted)}>
        <p class="muted">{t.trading.eventNow(t.trading.statuses[event.status]!, event.score)}</p>
        {event.status !== 'finished' && !settling.voiding && (
          <p class="notice" role="note">
            {t.trading.notFinished}
          </p>
        )}
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
                <option value="" disabled>
                  {t.trading.chooseResult}
                </option>
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
          <button type="button" class="button" onClick={() => props.onClose(null)}>
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
