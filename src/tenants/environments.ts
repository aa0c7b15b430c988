import { randomBytes } from 'node:crypto';
import type { Clock } from '../platform/clock.ts';
import { newToken, type SecretBox } from '../platform/crypto.ts';
import type { Db, Queryable, Tx } from '../platform/db/database.ts';
import type { Environment } from './schemas.ts';
import type { TenantService } from './service.ts';
import type { Tenant } from './tables.ts';
import * as store from './store.ts';
import { sealWalletSecret } from './wallet-secret.ts';

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

export const newTenantId = (): string => `tn_${randomBytes(8).toString('hex')}`;

type TenantEnvironmentsDeps = { db: Db; clock: Clock; secrets: SecretBox; tenants: TenantService };

/**
 * A tenant is one environment of a casino: created here, suspended, with a fresh wallet secret (by the aggregator
 * API for a client's production and sandbox, or directly by the platform); a client's environments are read and
 * change status together.
 */
export class TenantEnvironments {
  readonly #deps: TenantEnvironmentsDeps;

  constructor(deps: TenantEnvironmentsDeps) {
    this.#deps = deps;
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
      wallet_secret_enc: sealWalletSecret(this.#deps.secrets, input.tenantId, walletSecret),
      status: 'suspended',
      created_at: this.#deps.clock.now(),
    });
    return { walletSecret };
  }

  environmentsOfClient(clientId: string, q: Queryable = this.#deps.db): Promise<Tenant[]> {
    return store.tenantsOfClient(q, clientId);
  }

  /** Both environments of a client change status together; a suspension ends their open sessions. */
  async setClientEnvironmentsStatus(tx: Tx, clientId: string, status: Tenant['status']): Promise<void> {
    const tenantIds = await store.setTenantStatusForClient(tx, clientId, status);
    this.#deps.tenants.changed(tx);
    if (status === 'suspended') await this.#deps.tenants.suspended(tx, tenantIds);
  }
}
