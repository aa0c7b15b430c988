import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { notFound } from '../platform/errors.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TenantCredentials } from '../tenants/credentials.ts';
import type { TenantEnvironments } from '../tenants/environments.ts';
import { recordStaffAction } from './calls.ts';
import { aggregatorErrors } from './errors.ts';
import { clientRecord } from './records.ts';
import type { Client } from './tables.ts';
import * as store from './store.ts';

/**
 * The platform's interventions on an aggregator's client: read it, suspend it, lift its holds, revoke its
 * credentials. What the platform holds, the aggregator cannot lift through its API.
 */
export class ClientInterventions {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #audit: AuditLog;
  readonly #environments: TenantEnvironments;
  readonly #credentials: TenantCredentials;

  constructor(deps: {
    db: Db;
    clock: Clock;
    audit: AuditLog;
    environments: TenantEnvironments;
    credentials: TenantCredentials;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
    this.#environments = deps.environments;
    this.#credentials = deps.credentials;
  }

  async client(clientId: string) {
    const client = await store.findClient(this.#db, clientId);
    if (!client) throw notFound('Client');
    return {
      client: await clientRecord(this.#environments, this.#credentials, client),
      aggregatorId: client.aggregator_id,
    };
  }

  /** Suspends the client and both environments; the aggregator cannot lift it through its API. */
  suspendClient(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.suspend', reason, async (tx, client) => {
      await store.updateClient(tx, client.id, { status: 'suspended', platform_suspended_at: this.#clock.now() });
      await this.#environments.setClientEnvironmentsStatus(tx, client.id, 'suspended');
    });
  }

  /**
   * Lifts the platform's holds (suspension and credential revocation): back to active if the client had been
   * activated, else to suspended. After a revocation the aggregator then rotates to get new keys.
   */
  resumeClient(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.resume', reason, async (tx, client) => {
      if (!client.platform_suspended_at && !client.credentials_revoked_at) {
        throw aggregatorErrors.not_suspended();
      }
      const status = client.activated_at ? 'active' : 'suspended';
      await store.updateClient(tx, client.id, { status, platform_suspended_at: null, credentials_revoked_at: null });
      await this.#environments.setClientEnvironmentsStatus(tx, client.id, status);
    });
  }

  /** Revokes the integration keys of both environments and holds them revoked until resume; wallet secrets stay. */
  revokeClientCredentials(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.credentials.revoke', reason, async (tx, client) => {
      const tenants = await this.#environments.environmentsOfClient(client.id, tx);
      await this.#credentials.revokeIntegrationKeys(
        tx,
        tenants.map((tenant) => tenant.id),
      );
      await store.updateClient(tx, client.id, { credentials_revoked_at: this.#clock.now() });
    });
  }

  /** Each intervention locks the client row, changes it, audits it, and answers with the client as it now is. */
  async #changeClient(
    call: StaffCall,
    clientId: string,
    action: string,
    reason: string | undefined,
    change: (tx: Tx, client: Client) => Promise<void>,
  ) {
    await inTransaction(this.#db, async (tx) => {
      const client = await store.findClient(tx, clientId, { lock: true });
      if (!client) throw notFound('Client');
      await change(tx, client);
      await recordStaffAction(this.#audit, tx, call, action, { type: 'client', id: clientId }, { reason });
    });
    return this.client(clientId);
  }
}
