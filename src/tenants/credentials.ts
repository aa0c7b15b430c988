import { randomBytes } from 'node:crypto';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex, type SecretBox } from '../platform/crypto.ts';
import { inTransaction, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import { notFound } from '../platform/errors.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import { recordTenantChange } from './audit.ts';
import type { TenantService } from './service.ts';
import type { Tenant } from './tables.ts';
import * as store from './store.ts';
import { sealWalletSecret } from './wallet-secret.ts';

export interface IssuedIntegrationKey {
  keyId: string;
  integrationApiKey: string;
}

const newIntegrationKeyId = (): string => `ik_${randomBytes(8).toString('hex')}`;

type TenantCredentialsDeps = { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog; tenants: TenantService };

/**
 * A tenant's credentials: its integration key (stored hashed, one live at a time) issued, revoked and rotated, and
 * its wallet secret (stored encrypted) rotated. Every change is reported to TenantService, which caches live keys.
 */
export class TenantCredentials {
  readonly #deps: TenantCredentialsDeps;

  constructor(deps: TenantCredentialsDeps) {
    this.#deps = deps;
  }

  /** One key at a time: every earlier key of the tenant is revoked in the same transaction. */
  async issueIntegrationKey(tx: Tx, tenantId: string): Promise<IssuedIntegrationKey> {
    const now = this.#deps.clock.now();
    await this.revokeIntegrationKeys(tx, [tenantId]);
    const keyId = newIntegrationKeyId();
    const integrationApiKey = newToken('integrationKey');
    await store.insertIntegrationKey(tx, {
      id: keyId,
      tenantId,
      keyHash: sha256Hex(integrationApiKey),
      createdAt: now,
    });
    return { keyId, integrationApiKey };
  }

  revokeIntegrationKeys(q: Queryable, tenantIds: string[]): Promise<number> {
    this.#deps.tenants.changed(q);
    return store.revokeIntegrationKeys(q, tenantIds, this.#deps.clock.now());
  }

  liveIntegrationKeys(tenantIds: string[], q: Queryable = this.#deps.db) {
    return store.liveIntegrationKeys(q, tenantIds);
  }

  /** New integration key returned once; the previous one stops at once. */
  async rotateApiKey(call: StaffCall, tenantId: string) {
    return inTransaction(this.#deps.db, async (tx) => {
      await this.#locked(tx, tenantId);
      const key = await this.issueIntegrationKey(tx, tenantId);
      await recordTenantChange(this.#deps.audit, tx, call, 'tenant.api_key.rotate', tenantId, { keyId: key.keyId });
      return { tenantId, ...key };
    });
  }

  /** New wallet secret returned once; every later signature uses it. */
  async rotateWalletSecret(call: StaffCall, tenantId: string) {
    const walletSecret = newToken('walletSecret');
    await inTransaction(this.#deps.db, async (tx) => {
      await this.#locked(tx, tenantId);
      const sealed = sealWalletSecret(this.#deps.secrets, tenantId, walletSecret);
      await store.updateTenant(tx, tenantId, { wallet_secret_enc: sealed });
      this.#deps.tenants.changed(tx);
      await recordTenantChange(this.#deps.audit, tx, call, 'tenant.wallet_secret.rotate', tenantId, {});
    });
    return { tenantId, walletSecret };
  }

  /** Rotations lock the tenant row, so two at once run one after the other instead of colliding. */
  async #locked(tx: Tx, tenantId: string): Promise<Tenant> {
    const tenant = await store.findTenant(tx, tenantId, { lock: 'update' });
    if (!tenant) throw notFound('Tenant');
    return tenant;
  }
}
