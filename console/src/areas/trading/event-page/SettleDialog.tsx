import { useState } from 'preact/hooks';
import { call, type ApiRequest } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormError } from '../../../ui/ui.tsx';
import type { Market } from './event.ts';
import { PreviewSummary, type Preview } from './PreviewSummary.tsx';

type Results = ApiRequest<'settleMarket'>['results'];
type Result = Results[number]['result'];

const RESULTS: Result[] = ['won', 'lost', 'void', 'half_won', 'half_lost'];

/** What the market panel opens the dialog for: settle or resettle, choosing results or voiding every one. */
export type Settling = { action: 'settle' | 'resettle'; voiding: boolean };

/**
 * Settle, void or resettle: choose each selection's result, see what the same rules would do (a dry run: bets by
 * result, money owed per currency), then confirm.
 */
export function SettleDialog(props: { market: Market; settling: Settling; onClose: (done: boolean) => void }) {
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
