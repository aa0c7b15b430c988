import { useState } from 'preact/hooks';
import { call } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Dialog, FormError } from '../../../ui/ui.tsx';

export function RevokeKey(props: { aggregatorId: string; keyId: string; onClose: () => void }) {
  const [error, setError] = useState<Error | null>(null);
  async function revoke() {
    try {
      await call(
        'revokeAggregatorKey',
        'DELETE',
        `/api/v1/admin/aggregators/${props.aggregatorId}/keys/${props.keyId}`,
      );
      props.onClose();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  return (
    <Dialog title={t.aggregator.revokeTitle} onClose={props.onClose}>
      <p>{t.aggregator.revokeText(props.keyId)}</p>
      <FormError error={error} />
      <div class="form-actions">
        <button type="button" class="button" onClick={props.onClose}>
          {t.cancel}
        </button>
        <button type="button" class="button button-danger" onClick={() => void revoke()}>
          {t.aggregator.revoke}
        </button>
      </div>
    </Dialog>
  );
}
