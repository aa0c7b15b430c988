import { randomBytes } from 'node:crypto';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex, type SecretBox } from '../platform/crypto.ts';
import type { Queryable, Tx } from '../platform/db/database.ts';
import type { Tenant } from '../platform/db/schema.ts';
import type { Environment } from './schemas.ts';
import * as store from './store.ts';

export interface NewEnvironment {
  tenantId: string;
  clientId: string | null;
  environment: Environment;
  name: string;
  currency: string;
  locale: string;
  jurisdiction: string;
  embedOrigins: string[];
  walletUrl: string;
}

export interface IssuedIntegrationKey {
  keyId: string;
  integrationApiKey: string;
}

export const newTenantId = (): string => `tn_${randomBytes(8).toString('hex')}`;
const newIntegrationKeyId = (): string => `ik_${randomBytes(8).toString('hex')}`;
const walletSecretContext = (tenantId: string) => `tenants.wallet_secret:${tenantId}`;

/** Tenants (one per client environment) and their credentials: the integration key and the wallet secret. */
export class TenantService {
  readonly #clock: Clock;
  readonly #secrets: SecretBox;

  constructor(deps: { clock: Clock; secrets: SecretBox }) {
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
  }

  /** Creates a suspended tenant with a fresh wallet secret; the secret is returned this once. */
  async createEnvironment(tx: Tx, input: NewEnvironment): Promise<{ walletSecret: string }> {
    const walletSecret = newToken('walletSecret');
    await store.insertTenant(tx, {
      id: input.tenantId,
      client_id: input.clientId,
      environment: input.environment,
      name: input.name,
      currency: input.currency,
      locale: input.locale,
      jurisdiction: input.jurisdiction,
      embed_origins: JSON.stringify(input.embedOrigins),
      wallet_url: input.walletUrl,
      wallet_secret_enc: this.#secrets.encrypt(walletSecret, walletSecretContext(input.tenantId)),
      status: 'suspended',
      created_at: this.#clock.now(),
    });
    return { walletSecret };
  }

  walletSecret(tenant: Pick<Tenant, 'id' | 'wallet_secret_enc'>): string {
    return this.#secrets.decrypt(tenant.wallet_secret_enc, walletSecretContext(tenant.id));
  }

  /** One key at a time: every earlier key of the tenant is revoked in the same transaction. */
  async issueIntegrationKey(tx: Tx, tenantId: string): Promise<IssuedIntegrationKey> {
    const now = this.#clock.now();
    await store.revokeIntegrationKeys(tx, [tenantId], now);
    const keyId = newIntegrationKeyId();
    const integrationApiKey = newToken('integrationKey');
    await store.insertIntegrationKey(tx, { id: keyId, tenantId, keyHash: sha256Hex(integrationApiKey), createdAt: now });
    return { keyId, integrationApiKey };
  }

  /** The tenant, when `key` is its one live integration key; compared by hash, never in plaintext. */
  async authenticateIntegrationKey(q: Queryable, tenantId: string, key: string): Promise<Tenant | undefined> {
    return store.findTenantByLiveKey(q, tenantId, sha256Hex(key));
  }

  revokeIntegrationKeys(q: Queryable, tenantIds: string[]): Promise<number> {
    return store.revokeIntegrationKeys(q, tenantIds, this.#clock.now());
  }
}
