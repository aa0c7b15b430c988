import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../../api.ts';
import { count } from '../../../format.ts';
import { t } from '../../../messages.ts';
import { Confirm } from '../../../ui/Confirm.tsx';
import { Field, FormError, refusal } from '../../../ui/ui.tsx';
import { bodyOf, formOf, type AuthorizationBody } from './authorization.ts';

type Aggregator = ApiResponse<'getAggregator'>['aggregator'];

/** The authorization policy, validated by the API; each refusal is shown beside the field it names. */
export function AuthorizationForm(props: { aggregator: Aggregator; saved: () => void }) {
  const [form, setForm] = useState(() => formOf(props.aggregator.authorization));
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState(false);
  const [busy, setBusy] = useState(false);
  const [switching, setSwitching] = useState(false);
  const set = (changes: Partial<typeof form>) => {
    setForm({ ...form, ...changes });
    setDone(false);
  };
  async function save(body: AuthorizationBody) {
    setBusy(true);
    setError(null);
    try {
      await call('setAuthorization', 'PUT', `/api/v1/admin/aggregators/${props.aggregator.id}/authorization`, { body });
      setDone(true);
      props.saved();
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setBusy(false);
    }
  }
  const refused = refusal(error, [
    'enabled',
    'clientQuota',
    'currencies',
    'jurisdictions',
    'territories',
    'walletOrigins',
    'allowedIps',
    'agreementRef',
    'expiresAt',
  ]);
  const fieldError = refused.field;
  const current = props.aggregator.authorization;
  const text = (
    name: 'clientQuota' | 'currencies' | 'jurisdictions' | 'territories' | 'agreementRef',
    label: string,
    hint?: string,
  ) => (
    <Field label={label} hint={hint} error={fieldError(name)}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          inputMode={name === 'clientQuota' ? 'numeric' : undefined}
          value={form[name]}
          onInput={(e) => set({ [name]: e.currentTarget.value })}
        />
      )}
    </Field>
  );
  return (
    <section class="panel" aria-labelledby="authorization-title">
      <div class="panel-head">
        <h2 id="authorization-title">{t.aggregator.authorization}</h2>
        {current && (
          <button
            type="button"
            class={`button ${current.enabled ? 'button-danger' : ''}`}
            disabled={busy}
            onClick={() => setSwitching(true)}
          >
            {current.enabled ? t.aggregator.disable : t.aggregator.enable}
          </button>
        )}
      </div>
      {switching && current && (
        <Confirm
          title={current.enabled ? t.aggregator.disable : t.aggregator.enable}
          text={current.enabled ? t.aggregator.disableText : t.aggregator.enableText}
          action={current.enabled ? t.aggregator.disable : t.aggregator.enable}
          danger={current.enabled}
          onConfirm={(reason) => {
            const action = current.enabled ? 'disable' : 'enable';
            const operation = current.enabled ? 'disableAggregator' : 'enableAggregator';
            return call(operation, 'POST', `/api/v1/admin/aggregators/${props.aggregator.id}/${action}`, {
              body: reason ? { reason } : {},
            });
          }}
          onClose={(done) => {
            setSwitching(false);
            if (done) {
              setForm({ ...form, enabled: !current.enabled });
              props.saved();
            }
          }}
        />
      )}
      <p class="muted">{t.aggregator.authorizationIntro}</p>
      <form
        class="form form-grid"
        onSubmit={(event) => {
          event.preventDefault();
          void save(bodyOf(form));
        }}
      >
        <FormError error={refused.general} />
        <label class="check">
          <input type="checkbox" checked={form.enabled} onChange={(e) => set({ enabled: e.currentTarget.checked })} />
          {t.aggregator.enabled}
        </label>
        {text('clientQuota', t.aggregator.clientQuota, t.aggregator.clientQuotaHint(count(10_000)))}
        {text('currencies', t.aggregator.currencies, t.aggregator.currenciesHint)}
        {text('jurisdictions', t.aggregator.jurisdictions, t.aggregator.jurisdictionsHint)}
        {text('territories', t.aggregator.territories, t.aggregator.territoriesHint)}
        <Field
          label={t.aggregator.walletOrigins}
          hint={t.aggregator.walletOriginsHint}
          error={fieldError('walletOrigins')}
        >
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              rows={3}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.walletOrigins}
              onInput={(e) => set({ walletOrigins: e.currentTarget.value })}
            />
          )}
        </Field>
        <Field label={t.aggregator.allowedIps} hint={t.aggregator.allowedIpsHint} error={fieldError('allowedIps')}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              rows={3}
              spellcheck={false}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.allowedIps}
              onInput={(e) => set({ allowedIps: e.currentTarget.value })}
            />
          )}
        </Field>
        <label class="check">
          <input
            type="checkbox"
            aria-describedby="auto-activation-hint"
            checked={form.autoActivation}
            onChange={(e) => set({ autoActivation: e.currentTarget.checked })}
          />
          {t.aggregator.autoActivation}
        </label>
        <p class="field-hint" id="auto-activation-hint">
          {t.aggregator.autoActivationHint}
        </p>
        {text('agreementRef', t.aggregator.agreementRef)}
        <Field label={t.aggregator.expiresAt} error={fieldError('expiresAt')}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              type="datetime-local"
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={form.expiresAt}
              onInput={(e) => set({ expiresAt: e.currentTarget.value })}
            />
          )}
        </Field>
        <div class="form-actions">
          <button type="submit" class="button button-primary" disabled={busy}>
            {t.save}
          </button>
          <span role="status" class="muted">
            {done ? t.saved : ''}
          </span>
        </div>
      </form>
    </section>
  );
}
