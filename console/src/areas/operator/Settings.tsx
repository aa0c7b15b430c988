import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { call, type ApiRequest, type ApiResponse } from '../../api.ts';
import { dateTime, minorUnits } from '../../format.ts';
import { t } from '../../messages.ts';
import { session } from '../../session.ts';
import { useValue } from '../../store.ts';
import { useLoad } from '../../ui/load.ts';
import { Dialog, Failure, Field, FormError, Loading, messageOf, OnceSecret, Page, refusal } from '../../ui/ui.tsx';
import { TenantScope } from './TenantScope.tsx';
import { loadTenant, type Tenant } from './tenant.ts';

type Update = ApiRequest<'updateTenant'>;
const LIMITS = ['minStake', 'maxStake', 'maxPayout', 'maxSelectionLiability', 'maxEventLiability'] as const;

/** A tenant's settings: where it may be embedded, its wallet, its limits, and its two credentials. */
export function Settings() {
  return (
    <Page title={t.settings.title}>
      <TenantScope>{(tenantId) => <TenantSettings tenantId={tenantId} />}</TenantScope>
    </Page>
  );
}

function TenantSettings(props: { tenantId: string | undefined }) {
  const loaded = useLoad((signal) => loadTenant(props.tenantId, signal), props.tenantId ?? '');
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const tenant = loaded.data;
  return (
    <>
      <EmbedOrigins tenant={tenant} tenantId={props.tenantId} saved={loaded.reload} />
      <Wallet tenant={tenant} />
      <Limits tenant={tenant} tenantId={props.tenantId} saved={loaded.reload} />
      <Credentials tenant={tenant} tenantId={props.tenantId} rotated={loaded.reload} />
    </>
  );
}

/** One section of settings saved on its own, with the API's refusals next to the fields they name. */
function useSave(tenantId: string | undefined, saved: () => void) {
  const [error, setError] = useState<Error | null>(null);
  const [done, setDone] = useState(false);
  async function save(body: Update) {
    setError(null);
    setDone(false);
    try {
      await call('updateTenant', 'PUT', '/api/v1/admin/tenant', { query: { tenantId }, body });
      setDone(true);
      saved();
    } catch (failure) {
      setError(failure as Error);
    }
  }
  return { error, done, save };
}

function Section(props: { id: string; title: string; children: ComponentChildren }) {
  return (
    <section class="panel" aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** "Saved.", or the refusal that names no field of the section. */
function Saved(props: { general: Error | null; done: boolean }) {
  return (
    <span role="status" class={props.general ? 'form-error' : 'muted'}>
      {props.general ? messageOf(props.general) : props.done ? t.saved : ''}
    </span>
  );
}

function EmbedOrigins(props: { tenant: Tenant; tenantId: string | undefined; saved: () => void }) {
  const [origins, setOrigins] = useState(props.tenant.embedOrigins.join('\n'));
  const state = useSave(props.tenantId, props.saved);
  const refused = refusal(state.error, ['embedOrigins']);
  return (
    <Section id="embed-title" title={t.settings.general}>
      <form
        class="form"
        onSubmit={(event) => {
          event.preventDefault();
          void state.save({ embedOrigins: origins.split(/\s+/).filter(Boolean) });
        }}
      >
        <Field label={t.settings.embedOrigins} hint={t.settings.embedOriginsHint} error={refused.field('embedOrigins')}>
          {({ id, describedBy, invalid }) => (
            <textarea
              id={id}
              rows={3}
              aria-describedby={describedBy}
              aria-invalid={invalid}
              value={origins}
              onInput={(e) => setOrigins(e.currentTarget.value)}
            />
          )}
        </Field>
        <div class="form-actions">
          <Saved general={refused.general} done={state.done} />
          <button type="submit" class="button button-primary">
            {t.save}
          </button>
        </div>
      </form>
    </Section>
  );
}

function Wallet(props: { tenant: Tenant }) {
  const { tenant } = props;
  return (
    <Section id="wallet-title" title={t.settings.wallet}>
      <dl class="facts">
        <dt>{t.settings.walletUrl}</dt>
        <dd>
          <code>{tenant.walletUrl}</code>
        </dd>
        <dt>{t.settings.walletMode}</dt>
        <dd>{tenant.walletMode}</dd>
        <dt>{t.settings.currency}</dt>
        <dd>{tenant.currency}</dd>
      </dl>
      <p class="notice">
        {tenant.firstFinancialAt
          ? t.settings.identityLocked(dateTime(tenant.firstFinancialAt))
          : t.settings.identityOpen}
      </p>
    </Section>
  );
}

function Limits(props: { tenant: Tenant; tenantId: string | undefined; saved: () => void }) {
  const { tenant } = props;
  const platform = useValue(session)!.staff.role === 'platform_admin';
  const digits = (minor: number) =>
    (minor / 10 ** fractionDigits(tenant.currency)).toFixed(fractionDigits(tenant.currency));
  const [limits, setLimits] = useState(Object.fromEntries(LIMITS.map((name) => [name, digits(tenant.limits[name])])));
  const [policy, setPolicy] = useState({
    maxAmount: digits(tenant.adjustments.maxAmount),
    approvalAbove: digits(tenant.adjustments.approvalAbove),
  });
  const [typo, setTypo] = useState<string | undefined>();
  const state = useSave(props.tenantId, props.saved);
  function submit(event: Event) {
    event.preventDefault();
    const minor = (text: string) => minorUnits(text, tenant.currency);
    const parsed = Object.fromEntries(LIMITS.map((name) => [name, minor(limits[name]!)]));
    const adjustments = { maxAmount: minor(policy.maxAmount), approvalAbove: minor(policy.approvalAbove) };
    const wrong = [...Object.entries(parsed), ...(platform ? Object.entries(adjustments) : [])].find(
      ([, value]) => value === null,
    );
    setTypo(wrong?.[0]);
    if (wrong) return;
    void state.save({
      limits: parsed as Update['limits'],
      ...(platform ? { adjustments: adjustments as Update['adjustments'] } : {}),
    });
  }
  // A rule between limits (minStake <= maxStake) names `limits` itself: it is said under the section, not a field.
  const refused = refusal(state.error, [
    ...LIMITS.map((name) => `limits.${name}`),
    'adjustments.maxAmount',
    'adjustments.approvalAbove',
  ]);
  const error = (name: string) =>
    typo === name
      ? t.adjustments.amountInvalid
      : (refused.field(`limits.${name}`) ?? refused.field(`adjustments.${name}`));
  return (
    <Section id="limits-title" title={t.settings.limits}>
      <p class="muted">
        {t.settings.limitsHint} ({tenant.currency})
      </p>
      <form class="form form-grid" onSubmit={submit}>
        {LIMITS.map((name) => (
          <Field label={t.settings[name]} error={error(name)} key={name}>
            {({ id, invalid }) => (
              <input
                id={id}
                inputMode="decimal"
                aria-invalid={invalid}
                value={limits[name]}
                onInput={(e) => setLimits({ ...limits, [name]: e.currentTarget.value })}
              />
            )}
          </Field>
        ))}
        {platform && (
          <>
            <Field label={t.settings.maxAdjustment} error={error('maxAmount')}>
              {({ id, invalid }) => (
                <input
                  id={id}
                  inputMode="decimal"
                  aria-invalid={invalid}
                  value={policy.maxAmount}
                  onInput={(e) => setPolicy({ ...policy, maxAmount: e.currentTarget.value })}
                />
              )}
            </Field>
            <Field label={t.settings.approvalAbove} error={error('approvalAbove')}>
              {({ id, invalid }) => (
                <input
                  id={id}
                  inputMode="decimal"
                  aria-invalid={invalid}
                  value={policy.approvalAbove}
                  onInput={(e) => setPolicy({ ...policy, approvalAbove: e.currentTarget.value })}
                />
              )}
            </Field>
          </>
        )}
        <div class="form-actions">
          <Saved general={refused.general} done={state.done} />
          <button type="submit" class="button button-primary">
            {t.save}
          </button>
        </div>
      </form>
    </Section>
  );
}

function fractionDigits(currency: string): number {
  return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
}

type Rotation = 'key' | 'secret';

function Credentials(props: { tenant: Tenant; tenantId: string | undefined; rotated: () => void }) {
  const [confirming, setConfirming] = useState<Rotation | null>(null);
  const [shown, setShown] = useState<{ label: string; value: string } | null>(null);
  const [error, setError] = useState<Error | null>(null);
  async function rotate(which: Rotation) {
    setError(null);
    try {
      const query = { tenantId: props.tenantId };
      if (which === 'key') {
        const answer: ApiResponse<'rotateIntegrationKey'> = await call(
          'rotateIntegrationKey',
          'POST',
          '/api/v1/admin/integration/api-key',
          { query },
        );
        setShown({ label: t.settings.newKey, value: answer.integrationApiKey });
      } else {
        const answer: ApiResponse<'rotateWalletSecret'> = await call(
          'rotateWalletSecret',
          'POST',
          '/api/v1/admin/integration/wallet-secret',
          { query },
        );
        setShown({ label: t.settings.newSecret, value: answer.walletSecret });
      }
      props.rotated();
    } catch (failure) {
      setError(failure as Error);
    } finally {
      setConfirming(null);
    }
  }
  return (
    <Section id="credentials-title" title={t.settings.credentials}>
      <p class="muted">{t.settings.credentialsIntro}</p>
      {props.tenant.integrationKey && <p>{t.settings.keyId(props.tenant.integrationKey.keyId)}</p>}
      <FormError error={error} />
      <div class="form-actions">
        <button type="button" class="button button-danger" onClick={() => setConfirming('key')}>
          {t.settings.rotateKey}
        </button>
        <button type="button" class="button button-danger" onClick={() => setConfirming('secret')}>
          {t.settings.rotateSecret}
        </button>
      </div>
      {confirming && (
        <Dialog
          title={confirming === 'key' ? t.settings.rotateKey : t.settings.rotateSecret}
          onClose={() => setConfirming(null)}
        >
          <p>{confirming === 'key' ? t.settings.rotateKeyConfirm : t.settings.rotateSecretConfirm}</p>
          <div class="form-actions">
            <button type="button" class="button" onClick={() => setConfirming(null)}>
              {t.cancel}
            </button>
            <button type="button" class="button button-danger" onClick={() => void rotate(confirming)}>
              {t.settings.rotate}
            </button>
          </div>
        </Dialog>
      )}
      {shown && (
        <Dialog title={shown.label} onClose={() => setShown(null)}>
          <OnceSecret label={shown.label} value={shown.value} />
          <div class="form-actions">
            <button type="button" class="button button-primary" onClick={() => setShown(null)}>
              {t.close}
            </button>
          </div>
        </Dialog>
      )}
    </Section>
  );
}
