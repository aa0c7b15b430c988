import { useState } from 'preact/hooks';
import { call, type ApiRequest, type ApiResponse } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Dialog, Field, FormActions, FormError, OnceSecret } from '../../../ui/ui.tsx';

const SCOPES = ['clients:read', 'clients:create', 'clients:activate', 'credentials:rotate'] as const;

/** A new key with the scopes chosen and an expiry if one is given; the key is shown once. */
export function IssueKey(props: { aggregatorId: string; onClose: () => void }) {
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
