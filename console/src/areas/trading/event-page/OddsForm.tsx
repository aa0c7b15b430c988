import { useState } from 'preact/hooks';
import { ApiError, call } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Badge, Field, messageOf } from '../../../ui/ui.tsx';
import type { Market } from './event.ts';

/** One selection's odds, set on their own; a settled market's are shown but not changed. */
export function OddsForm(props: { selection: Market['selections'][number]; disabled: boolean; saved: () => void }) {
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
