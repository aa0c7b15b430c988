import { useEffect, useState } from 'preact/hooks';
import { ApiError, call } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Badge, Field, messageOf } from '../../../ui/ui.tsx';
import type { Market } from './event.ts';

/**
 * One selection's odds, set on their own; a settled market's are shown but not changed. The field follows the
 * server's price (a feed's, another trader's) until the trader edits it; an edit is kept, and the price it would
 * replace is shown beside it. The feed's price kept while a trader controls the market is shown too.
 */
export function OddsForm(props: { selection: Market['selections'][number]; disabled: boolean; saved: () => void }) {
  const { selection } = props;
  const [odds, setOdds] = useState(selection.odds);
  const [shown, setShown] = useState(selection.odds);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => {
    if (odds === shown) setOdds(selection.odds);
    setShown(selection.odds);
    // only a new price from the server moves the field
  }, [selection.odds]);
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
      {odds !== shown && <span class="muted">{t.trading.nowAt(selection.odds)}</span>}
      {selection.fedOdds && <span class="muted">{t.trading.fedOdds(selection.fedOdds)}</span>}
      {selection.result && <Badge>{t.trading.results[selection.result]}</Badge>}
      {!props.disabled && (
        <button type="submit" class="button button-small" disabled={odds === selection.odds}>
          {t.trading.setOdds}
        </button>
      )}
    </form>
  );
}
