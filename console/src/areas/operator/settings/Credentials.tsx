import { useState } from 'preact/hooks';
import { call, type ApiResponse } from '../../../api.ts';
import { t } from '../../../messages.ts';
import { Dialog, FormError, OnceSecret } from '../../../ui/ui.tsx';
import type { Tenant } from '../tenant.ts';
import { Section } from './section.tsx';

type Rotation = 'key' | 'secret';

/** The integration API key and the wallet secret, each rotated after a confirmation and the new one shown once. */
export function Credentials(props: { tenant: Tenant; tenantId: string | undefined; rotated: () => void }) {
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
