import { useState } from 'preact/hooks';
import { t } from '../messages.ts';
import { Dialog, Field, FormActions, FormError, refusal } from './ui.tsx';

/**
 * A confirmation of an action that changes something for others (suspend a client, disable an account): what it
 * does in words, an optional reason kept in the audit log, and the API's refusal if it comes.
 */
export function Confirm(props: {
  title: string;
  text: string;
  action: string;
  danger?: boolean;
  onConfirm: (reason: string | undefined) => Promise<unknown>;
  onClose: (done: boolean) => void;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm(reason.trim() || undefined);
      props.onClose(true);
    } catch (failure) {
      setError(failure as Error);
      setBusy(false);
    }
  }
  const refused = refusal(error, ['reason']);
  return (
    <Dialog title={props.title} onClose={() => props.onClose(false)}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <p>{props.text}</p>
        <FormError error={refused.general} />
        <Field label={t.confirmReason} hint={t.confirmReasonHint} error={refused.field('reason')}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              rows={2}
              maxLength={500}
              aria-describedby={describedBy}
              value={reason}
              onInput={(e) => setReason(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormActions
          onCancel={() => props.onClose(false)}
          submit={props.action}
          danger={props.danger}
          disabled={busy}
        />
      </form>
    </Dialog>
  );
}
