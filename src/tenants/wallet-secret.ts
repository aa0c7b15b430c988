import type { SecretBox } from '../platform/crypto.ts';
import type { Tenant } from './tables.ts';

/** The associated data binds a wallet secret to its tenant: a ciphertext copied to another tenant's row fails. */
const walletSecretContext = (tenantId: string) => `tenants.wallet_secret:${tenantId}`;

/** The wallet secret as stored: encrypted, since it must be used again to sign every wallet call. */
export function sealWalletSecret(secrets: SecretBox, tenantId: string, walletSecret: string): string {
  return secrets.encrypt(walletSecret, walletSecretContext(tenantId));
}

/** The wallet secret, decrypted for signing. */
export function openWalletSecret(secrets: SecretBox, tenant: Pick<Tenant, 'id' | 'wallet_secret_enc'>): string {
  return secrets.decrypt(tenant.wallet_secret_enc, walletSecretContext(tenant.id));
}
