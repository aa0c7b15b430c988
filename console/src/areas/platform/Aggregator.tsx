import { useState } from 'preact/hooks';
import { call, type ApiRequest, type ApiResponse } from '../../api.ts';
import { dateTime } from '../../format.ts';
import { t } from '../../messages.ts';
import { useLoad } from '../../ui/load.ts';
import { Table } from '../../ui/Table.tsx';
import {
  Badge,
  Dialog,
  Failure,
  Field,
  FormActions,
  FormError,
  Loading,
  OnceSecret,
  Page,
  refusal,
} from '../../ui/ui.tsx';
import { Confirm } from '../../ui/Confirm.tsx';
import { AuthorizationBadge } from './Aggregators.tsx';

type Aggregator = ApiResponse<'getAggregator'>['aggregator'];
type Authorization = NonNullable<Aggregator['authorization']>;
type AuthorizationBody = ApiRequest<'setAuthorization'>;
type Key = Aggregator['keys'][number];

const SCOPES = ['clients:read', 'clients:create', 'clients:activate', 'credentials:rotate'] as const;

export function AggregatorScreen(props: { id: string }) {
  const loaded = useLoad(
    (signal) => call('getAggregator', 'GET', `/api/v1/admin/aggregators/${encodeURIComponent(props.id)}`, { signal }),
    props.id,
  );
  if (loaded.state === 'failed' && !loaded.data) return <Failure error={loaded.error} retry={loaded.reload} />;
  if (!loaded.data) return <Loading />;
  const aggregator = loaded.data.aggregator;
  return (
    <Page title={aggregator.name} actions={<AuthorizationBadge aggregator={aggregator} />}>
      <AuthorizationForm aggregator={aggregator} saved={loaded.reload} />
      <Keys aggregator={aggregator} changed={loaded.reload} />
    </Page>
  );
}

const list = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);

/** One entry a line, blank lines left out; the API names an entry it refuses (allowedIps.N). */
const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

/** The form's text for each field of the policy (lists as text, the expiry as a local date-time). */
function formOf(authorization: Authorization | null) {
  const inYear = new Date(Date.now() + 365 * 24 * 3600 * 1000).toISOString();
  return {
    enabled: authorization?.enabled ?? true,
    clientQuota: String(authorization?.clientQuota ?? 10),
    currencies: authorization?.currencies.join(', ') ?? '',
    jurisdictions: authorization?.jurisdictions.join(', ') ?? '',
    territories: authorization?.territories.join(', ') ?? '',
    walletOrigins: authorization?.walletOrigins.join('\n') ?? '',
    allowedIps: authorization?.allowedIps.join('\n') ?? '',
    autoActivation: authorization?.autoActivation ?? false,
    agreementRef: authorization?.agreementRef ?? '',
    expiresAt: (authorization?.expiresAt ?? inYear).slice(0, 16),
  };
}

function bodyOf(form: ReturnType<typeof formOf>): AuthorizationBody {
  return {
    enabled: form.enabled,
    clientQuota: Number(form.clientQuota),
    // The API checks each code against what it supports, and names the one it refuses.
    currencies: list(form.currencies).map((code) => code.toUpperCase()) as AuthorizationBody['currencies'],
    jurisdictions: list(form.jurisdictions).map((code) => code.toUpperCase()) as AuthorizationBody['jurisdictions'],
    territories: list(form.territories).map((code) => code.toUpperCase()),
    walletOrigins: list(form.walletOrigins),
    allowedIps: lines(form.allowedIps),
    autoActivation: form.autoActivation,
    agreementRef: form.agreementRef.trim(),
    expiresAt: new Date(form.expiresAt).toISOString(),
  };
}

/** The authorization policy, validated by the API; each refusal is shown beside the field it names. */
function AuthorizationForm(props: { aggregator: Aggregator; saved: () => void }) {
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
        {text('clientQuota', t.aggregator.clientQuota, t.aggregator.clientQuotaHint)}
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
            checked={form.autoActivation}
            onChange={(e) => set({ autoActivation: e.currentTarget.checked })}
          />
          {t.aggregator.autoActivation}
        </label>
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

function Keys(props: { aggregator: Aggregator; changed: () => void }) {
  const [issuing, setIssuing] = useState(false);
  const [revoking, setRevoking] = useState<Key | null>(null);
  const rows = props.aggregator.keys;
  return (
    <section class="panel" aria-labelledby="keys-title">
      <div class="panel-head">
        <h2 id="keys-title">{t.aggregator.keys}</h2>
        <button
          type="button"
          class="button button-primary"
          disabled={!props.aggregator.authorization}
          aria-describedby={props.aggregator.authorization ? undefined : 'keys-need-authorization'}
          onClick={() => setIssuing(true)}
        >
          {t.aggregator.issueKey}
        </button>
      </div>
      {!props.aggregator.authorization && (
        <p class="muted" id="keys-need-authorization">
          {t.aggregator.issueNeedsAuthorization}
        </p>
      )}
      <Table<Key>
        caption={t.aggregator.keysCaption}
        loaded={{ state: 'ready', data: { rows }, reload: props.changed }}
        rowKey={(key) => key.keyId}
        empty={t.aggregator.keysEmpty}
        columns={[
          { header: t.aggregator.keyId, cell: (key) => <code>{key.keyId}</code> },
          { header: t.aggregator.scopes, cell: (key) => key.scopes.join(', ') },
          { header: t.aggregator.expires, cell: (key) => dateTime(key.expiresAt) },
          {
            header: t.aggregator.lastUsed,
            cell: (key) => {
              return key.lastUsedAt ? dateTime(key.lastUsedAt) : t.aggregator.never;
            },
          },
          {
            header: t.aggregators.status,
            cell: (key) =>
              key.revokedAt ? (
                <Badge tone="bad">{t.aggregator.revoked}</Badge>
              ) : (
                <button
                  type="button"
                  class="button button-danger button-small"
                  aria-label={`${t.aggregator.revoke} ${key.keyId}`}
                  onClick={() => setRevoking(key)}
                >
                  {t.aggregator.revoke}
                </button>
              ),
          },
        ]}
      />
      {issuing && (
        <IssueKey
          aggregatorId={props.aggregator.id}
          onClose={() => {
            setIssuing(false);
            props.changed();
          }}
        />
      )}
      {revoking && (
        <RevokeKey
          aggregatorId={props.aggregator.id}
          keyId={revoking.keyId}
          onClose={() => {
            setRevoking(null);
            props.changed();
          }}
        />
      )}
    </section>
  );
}

function IssueKey(props: { aggregatorId: string; onClose: () => void }) {
  const [scopes, setScopes] = useState<string[]>(['clients:read', 'clients:create']);
  const [expiresAt, setExpiresAt] = useState('');
  const [issued, setIssued] = useState<ApiResponse<'issueAggregatorKey'> | null>(null);
  const [error, setError] = useState<Error | null>(null);
  async function submit(event: Event) {
    event.preventDefault();
    setError(null);
    try {
      const body = {
        scopes: scopes as ApiRequest<'issueAggregatorKey'>['scopes'],
        ...(expiresAt ? { expiresAt: new Date(expiresAt).toISOString() } : {}),
      };
      setIssued(
        await call('issueAggregatorKey', 'POST', `/api/v1/admin/aggregators/${props.aggregatorId}/keys`, { body }),
      );
    } catch (failure) {
      setError(failure as Error);
    }
  }
  if (issued) {
    return (
      <Dialog title={t.aggregator.issuedTitle} onClose={props.onClose}>
        <OnceSecret label={t.aggregator.theKey} value={issued.key} />
        <div class="form-actions">
          <button type="button" class="button button-primary" onClick={props.onClose}>
            {t.close}
          </button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title={t.aggregator.issueKey} onClose={props.onClose}>
      <form class="form" onSubmit={(event) => void submit(event)}>
        <FormError error={error} />
        <fieldset>
          <legend>{t.aggregator.scopes}</legend>
          {SCOPES.map((scope) => (
            <label class="check" key={scope}>
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(e) =>
                  setScopes(e.currentTarget.checked ? [...scopes, scope] : scopes.filter((item) => item !== scope))
                }
              />
              <code>{scope}</code>
            </label>
          ))}
        </fieldset>
        <Field label={t.aggregator.expires} hint={t.aggregator.keyExpiryHint}>
          {({ id, describedBy }) => (
            <input
              id={id}
              type="datetime-local"
              aria-describedby={describedBy}
              value={expiresAt}
              onInput={(e) => setExpiresAt(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormActions onCancel={props.onClose} submit={t.aggregator.issueKey} disabled={scopes.length === 0} />
      </form>
    </Dialog>
  );
}

function RevokeKey(props: { aggregatorId: string; keyId: string; onClose: () => void }) {
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
