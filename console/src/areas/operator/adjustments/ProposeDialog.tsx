/**
 * The dialog in which a staff member proposes a credit or debit on a player (the adjustments page, Adjustments.tsx):
 * the player by the casino's id or ours, the direction, the amount in the tenant's currency, and a reason. Apart from
 * the page's list because it is a form of its own, with its own state and call; the list only opens it and hears
 * what the proposal became.
 */
import { useMemo, useState } from 'preact/hooks';
import { call } from '../../../api.ts';
import { amountInput, minorUnits } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormActions, FormError, refusal } from '../../../ui/ui.tsx';
import type { Adjustment } from './adjustment.ts';

export function ProposeDialog(props: {
  tenantId: string;
  currency: string;
  onClose: (made: Adjustment | null) => void;
}) {
  const [form, setForm] = useState({
    player: '',
    by: 'external' as 'external' | 'ours',
    direction: 'credit' as 'credit' | 'debit',
    amount: '',
    reason: '',
  });
  const [error, setError] = useState<Error | null>(null);
  // an amount the console cannot read: said beside the field in the language shown then
  const [amountUnreadable, setAmountUnreadable] = useState(false);
  const example = amountInput(2500, props.currency);
  // One key per dialog: a double click or a retry after a lost answer is the same adjustment.
  const idempotencyKey = useMemo(() => `console-${crypto.randomUUID()}`, []);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    const amount = minorUnits(form.amount, props.currency);
    setAmountUnreadable(amount === null || amount < 1);
    if (amount === null || amount < 1) return;
    try {
      const answer = await call('createAdjustment', 'POST', '/api/v1/admin/adjustments', {
        headers: { 'idempotency-key': idempotencyKey },
        body: {
          // the casino's id, as its staff know the player, in the tenant on screen; or ours
          ...(form.by === 'external'
            ? { externalPlayerId: form.player.trim(), tenantId: props.tenantId }
            : { playerId: form.player.trim() }),
          direction: form.direction,
          amount,
          reason: form.reason.trim(),
        },
      });
      props.onClose(answer.adjustment);
    } catch (failure) {
      setError(failure as Error);
    }
  }
  const refused = refusal(error, ['playerId', 'externalPlayerId', 'amount', 'reason']);
  const fieldError = refused.field;
  return (
    <Dialog title={t.adjustments.propose} onClose={() => props.onClose(null)}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={refused.general} />
        <fieldset>
          <legend>{t.adjustments.findBy}</legend>
          {(['external', 'ours'] as const).map((by) => (
            <label class="check" key={by}>
              <input type="radio" name="by" checked={form.by === by} onChange={() => setForm({ ...form, by })} />
              {t.adjustments.by_[by]}
            </label>
          ))}
        </fieldset>
        <Field
          label={form.by === 'external' ? t.adjustments.externalPlayer : t.adjustments.player}
          error={fieldError(form.by === 'external' ? 'externalPlayerId' : 'playerId') ?? fieldError('playerId')}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              required
              maxLength={form.by === 'external' ? 128 : 64}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.player}
              onInput={(e) => setForm({ ...form, player: e.currentTarget.value })}
            />
          )}
        </Field>
        <fieldset>
          <legend>{t.adjustments.direction}</legend>
          {(['credit', 'debit'] as const).map((direction) => (
            <label class="check" key={direction}>
              <input
                type="radio"
                name="direction"
                checked={form.direction === direction}
                onChange={() => setForm({ ...form, direction })}
              />
              {t.adjustments[direction]}
            </label>
          ))}
        </fieldset>
        <Field
          label={t.adjustments.amount}
          hint={t.adjustments.amountHint(props.currency, example)}
          error={amountUnreadable ? t.adjustments.amountInvalid(example) : fieldError('amount')}
        >
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              required
              inputMode="decimal"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.amount}
              onInput={(e) => setForm({ ...form, amount: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.adjustments.reason} hint={t.adjustments.reasonHint} error={fieldError('reason')}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              required
              rows={2}
              maxLength={500}
              aria-describedby={describedBy}
              value={form.reason}
              onInput={(e) => setForm({ ...form, reason: e.currentTarget.value })}
            />
          )}
        </Field>
        <FormActions onCancel={() => props.onClose(null)} submit={t.adjustments.submit} />
      </form>
    </Dialog>
  );
}
