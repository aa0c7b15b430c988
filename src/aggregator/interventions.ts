import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { AppError, notFound } from '../platform/errors.ts';
import { cursorAfter, keysetPage } from '../platform/http/cursor.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TenantCredentials } from '../tenants/credentials.ts';
import type { TenantEnvironments } from '../tenants/environments.ts';
import type { TenantService } from '../tenants/service.ts';
import { recordStaffAction } from './calls.ts';
import { aggregatorErrors } from './errors.ts';
import { clientRecord } from './records.ts';
import { CLIENT_HISTORY_ENTRIES, CLIENTS_PAGE, type AdminClientsQuery } from './schemas.ts';
import type { Client } from './tables.ts';
import * as store from './store.ts';

/** A tenant id as newTenantId makes them: the production one, or its sandbox. */
const TENANT_ID = /^tn_[0-9a-f]{16}(-sandbox)?$/;

type ClientInterventionsDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  environments: TenantEnvironments;
  credentials: TenantCredentials;
  tenants: TenantService;
};

/**
 * The platform's interventions on an aggregator's client: read it, suspend it, lift its holds, revoke its
 * credentials. What the platform holds, the aggregator cannot lift through its API.
 */
export class ClientInterventions {
  readonly #deps: ClientInterventionsDeps;

  constructor(deps: ClientInterventionsDeps) {
    this.#deps = deps;
  }

  /** The client with its aggregator and its history (creation, activation attempts, the platform's interventions). */
  async client(clientId: string) {
    const client = await store.findClient(this.#deps.db, clientId);
    if (!client) throw notFound('Client');
    const record = await clientRecord(this.#deps.environments, this.#deps.credentials, client);
    const targets = [
      { type: 'client', ids: [client.id] },
      { type: 'tenant', ids: [record.production.tenantId, record.sandbox.tenantId] },
    ];
    const rows = await this.#deps.audit.about(
      this.#deps.db,
      { targets, actionPrefix: 'client.' },
      CLIENT_HISTORY_ENTRIES,
    );
    return {
      client: record,
      aggregatorId: client.aggregator_id,
      history: rows.map((row) => ({
        at: row.occurred_at.toISOString(),
        action: row.action,
        outcome: row.outcome as 'success' | 'failure' | 'denied',
        actor: { type: row.actor_type, id: row.actor_id },
        details: row.details,
      })),
    };
  }

  /**
   * Clients of every aggregator, newest first: by part of the name, or exactly their id, externalId or the id of
   * one of their tenants; by aggregator and status. Each with both environments, as the aggregator API shows them.
   */
  async listClients(query: AdminClientsQuery) {
    const limit = query.limit ?? CLIENTS_PAGE;
    const text = query.q?.trim() || undefined;
    const rows = await store.listAllClients(this.#deps.db, {
      text,
      alsoIds: text ? await this.#clientOfTenant(text) : undefined,
      aggregatorId: query.aggregatorId,
      status: query.status,
      after: cursorAfter(query.cursor),
      order: query.order,
      limit,
    });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.created_at, id: row.id }));
    const names = new Map(
      (await store.aggregatorNames(this.#deps.db, [...new Set(page.map((row) => row.aggregator_id))])).map((row) => [
        row.id,
        row.name,
      ]),
    );
    const clients = [];
    for (const client of page) {
      clients.push({
        ...(await clientRecord(this.#deps.environments, this.#deps.credentials, client)),
        aggregatorId: client.aggregator_id,
        aggregatorName: names.get(client.aggregator_id) ?? '',
      });
    }
    return { clients, nextCursor };
  }

  /** The client a tenant id belongs to, when the text is one. */
  async #clientOfTenant(text: string): Promise<string[]> {
    if (!TENANT_ID.test(text)) return [];
    try {
      const tenant = await this.#deps.tenants.get(text);
      return tenant.client_id ? [tenant.client_id] : [];
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return [];
      throw error;
    }
  }

  /** Suspends the client and both environments; the aggregator cannot lift it through its API. */
  suspendClient(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.suspend', reason, async (tx, client) => {
      await store.updateClient(tx, client.id, { status: 'suspended', platform_suspended_at: this.#deps.clock.now() });
      await this.#deps.environments.setClientEnvironmentsStatus(tx, client.id, 'suspended');
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
      await this.#deps.environments.setClientEnvironmentsStatus(tx, client.id, status);
    });
  }

  /** Revokes the integration keys of both environments and holds them revoked until resume; wallet secrets stay. */
  revokeClientCredentials(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.credentials.revoke', reason, async (tx, client) => {
      const tenants = await this.#deps.environments.environmentsOfClient(client.id, tx);
      await this.#deps.credentials.revokeIntegrationKeys(
        tx,
        tenants.map((tenant) => tenant.id),
      );
      await store.updateClient(tx, client.id, { credentials_revoked_at: this.#deps.clock.now() });
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
    await inTransaction(this.#deps.db, async (tx) => {
      const client = await store.findClient(tx, clientId, { lock: true });
      if (!client) throw notFound('Client');
      await change(tx, client);
      await recordStaffAction(this.#deps.audit, tx, call, action, { type: 'client', id: clientId }, { reason });
    });
    return this.client(clientId);
  }
}
