/**
 * The dialog in which a second staff member approves or rejects someone else's proposed adjustment (four eyes; the
 * adjustments page, Adjustments.tsx), with a reason (required to reject). Apart from the page's list because it is a
 * form of its own, with its own state and call; the list only opens it and reloads once it is done.
 */
import { useState } from 'preact/hooks';
import { call } from '../../../api.ts';
import { money } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormError } from '../../../ui/ui.tsx';
import type { Adjustment } from './adjustment.ts';

export function DecideDialog(props: {
  adjustment: Adjustment;
  action: 'approve' | 'reject';
  onClose: (done: boolean) => void;
}) {
  const { adjustment, action } = props;
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const label = action === 'approve' ? t.adjustments.approve : t.adjustments.reject;
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const path = `/api/v1/admin/adjustments/${adjustment.id}/${action}`;
      if (action === 'approve') {
        await call('approveAdjustment', 'POST', path, { body: reason.trim() ? { reason: reason.trim() } : {} });
      } else {
        await call('rejectAdjustment', 'POST', path, { body: { reason: reason.trim() } });
      }
      props.onClose(true);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  return (
    <Dialog title={t.adjustments.decide(label)} onClose={() => props.onClose(false)}>
      <p>
        {adjustment.direction === 'debit' ? '−' : ''}
        {money(adjustment.amount, adjustment.currency)} · <code>{adjustment.externalPlayerId}</code> (
        {adjustment.playerId}) · {adjustment.reason}
      </p>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={error} />
        <Field label={t.adjustments.decisionReason} hint={t.adjustments.decisionReasonHint}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              rows={2}
              maxLength={500}
              required={action === 'reject'}
              aria-describedby={describedBy}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="form-actions">
          <button type="button" class="button" onClick={() => props.onClose(false)}>
            {t.cancel}
          </button>
          <button type="submit" class={`button ${action === 'approve' ? 'button-primary' : 'button-danger'}`}>
            {label}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
