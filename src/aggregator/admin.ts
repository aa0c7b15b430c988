import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex } from '../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import { checkedWalletOrigin, type OriginRules } from '../platform/urls.ts';
import type { TenantService } from '../tenants/service.ts';
import { aggregatorErrors } from './errors.ts';
import { authorizationRecord, clientRecord } from './records.ts';
import {
  MAX_AUTHORIZATION_YEARS,
  MAX_KEY_DAYS,
  type AggregatorRecord,
  type AuthorizationBody,
  type IssueKeyBody,
} from './schemas.ts';
import * as store from './store.ts';

const DAY_MS = 86_400_000;
const newAggregatorId = (): string => `ag_${randomBytes(8).toString('hex')}`;
const newKeyId = (): string => `ak_${randomBytes(8).toString('hex')}`;

/** Platform administration of aggregators: registration, authorization policy, keys, and client interventions. */
export class AggregatorAdminService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #audit: AuditLog;
  readonly #tenants: TenantService;
  readonly #originRules: OriginRules;

  constructor(deps: { db: Db; clock: Clock; audit: AuditLog; tenants: TenantService; originRules: OriginRules }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
    this.#tenants = deps.tenants;
    this.#originRules = deps.originRules;
  }

  async createAggregator(call: StaffCall, name: string): Promise<Static<typeof AggregatorRecord>> {
    const id = newAggregatorId();
    await inTransaction(this.#db, async (tx) => {
      await store.insertAggregator(tx, { id, name, createdAt: this.#clock.now(), createdBy: call.staff.id });
      await this.#record(tx, call, 'aggregator.create', id, { name });
    });
    return this.aggregator(id);
  }

  async listAggregators(): Promise<Static<typeof AggregatorRecord>[]> {
    const rows = await store.listAggregators(this.#db);
    return Promise.all(rows.map((row) => this.aggregator(row.id)));
  }

  async aggregator(id: string): Promise<Static<typeof AggregatorRecord>> {
    const row = await store.findAggregator(this.#db, id);
    if (!row) throw notFound('Aggregator');
    const authorization = await store.findAuthorization(this.#db, id);
    const keys = await store.keysOf(this.#db, id);
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at.toISOString(),
      authorization: authorization ? authorizationRecord(authorization) : null,
      keys: keys.map(keyRecord),
      clientCount: await store.countClients(this.#db, id),
    };
  }

  /** Replaces the whole policy; the version goes up by one on every change. */
  async setAuthorization(call: StaffCall, aggregatorId: string, body: AuthorizationBody) {
    const walletOrigins = body.walletOrigins.map((origin, index) =>
      checkedWalletOrigin(`walletOrigins.${index}`, origin, this.#originRules),
    );
    const now = this.#clock.now();
    const expiresAt = new Date(body.expiresAt);
    const latest = new Date(now);
    latest.setUTCFullYear(latest.getUTCFullYear() + MAX_AUTHORIZATION_YEARS);
    if (expiresAt <= now || expiresAt > latest) {
      throw validationError(
        'expiresAt',
        `expiresAt must be in the future and at most ${MAX_AUTHORIZATION_YEARS} years out (${latest.toISOString()}).`,
      );
    }
    return inTransaction(this.#db, async (tx) => {
      if (!(await store.findAggregator(tx, aggregatorId))) throw notFound('Aggregator');
      const saved = await store.saveAuthorization(tx, {
        aggregator_id: aggregatorId,
        enabled: body.enabled,
        client_quota: body.clientQuota,
        currencies: JSON.stringify(body.currencies),
        jurisdictions: JSON.stringify(body.jurisdictions),
        territories: JSON.stringify(body.territories),
        wallet_origins: JSON.stringify(walletOrigins),
        auto_activation: body.autoActivation,
        agreement_ref: body.agreementRef,
        expires_at: expiresAt,
        updated_at: now,
        updated_by: call.staff.id,
      });
      const record = authorizationRecord(saved);
      await this.#record(tx, call, 'aggregator.authorization.set', aggregatorId, record);
      return record;
    });
  }

  /** The key is returned this once; only its hash is kept. */
  async issueKey(call: StaffCall, aggregatorId: string, body: IssueKeyBody) {
    const now = this.#clock.now();
    return inTransaction(this.#db, async (tx) => {
      if (!(await store.findAggregator(tx, aggregatorId))) throw notFound('Aggregator');
      const authorization = await store.findAuthorization(tx, aggregatorId);
      if (!authorization) throw aggregatorErrors.authorization_missing();
      if (authorization.expires_at <= now) throw aggregatorErrors.authorization_expired();
      const expiresAt = keyExpiry(body.expiresAt, now, authorization.expires_at);
      const keyId = newKeyId();
      const key = newToken('aggregatorKey');
      await store.insertKey(tx, {
        id: keyId,
        aggregatorId,
        keyHash: sha256Hex(key),
        scopes: body.scopes,
        expiresAt,
        createdAt: now,
        createdBy: call.staff.id,
      });
      await this.#record(tx, call, 'aggregator.key.issue', aggregatorId, {
        keyId,
        scopes: body.scopes,
        expiresAt: expiresAt.toISOString(),
      });
      return { keyId, key, scopes: body.scopes, expiresAt: expiresAt.toISOString() };
    });
  }

  async revokeKey(call: StaffCall, aggregatorId: string, keyId: string) {
    return inTransaction(this.#db, async (tx) => {
      if (!(await store.findKey(tx, aggregatorId, keyId, { lock: true }))) throw notFound('Key');
      const revoked = await store.revokeKey(tx, keyId, this.#clock.now());
      await this.#record(tx, call, 'aggregator.key.revoke', aggregatorId, { keyId });
      return keyRecord(revoked);
    });
  }

  // ---- interventions on a client ----

  async client(clientId: string) {
    const client = await store.findClient(this.#db, clientId);
    if (!client) throw notFound('Client');
    return { client: await clientRecord(this.#tenants, client), aggregatorId: client.aggregator_id };
  }

  /** Suspends the client and both environments; the aggregator cannot lift it through its API. */
  suspendClient(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.suspend', reason, async (tx, client) => {
      await store.updateClient(tx, client.id, { status: 'suspended', platform_suspended_at: this.#clock.now() });
      await this.#tenants.setClientEnvironmentsStatus(tx, client.id, 'suspended');
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
      await this.#tenants.setClientEnvironmentsStatus(tx, client.id, status);
    });
  }

  /** Revokes the integration keys of both environments and holds them revoked until resume; wallet secrets stay. */
  revokeClientCredentials(call: StaffCall, clientId: string, reason: string | undefined) {
    return this.#changeClient(call, clientId, 'client.credentials.revoke', reason, async (tx, client) => {
      const tenants = await this.#tenants.environmentsOfClient(client.id, tx);
      await this.#tenants.revokeIntegrationKeys(
        tx,
        tenants.map((tenant) => tenant.id),
      );
      await store.updateClient(tx, client.id, { credentials_revoked_at: this.#clock.now() });
    });
  }

  async #changeClient(
    call: StaffCall,
    clientId: string,
    action: string,
    reason: string | undefined,
    change: (tx: Tx, client: NonNullable<Awaited<ReturnType<typeof store.findClient>>>) => Promise<void>,
  ) {
    await inTransaction(this.#db, async (tx) => {
      const client = await store.findClient(tx, clientId, { lock: true });
      if (!client) throw notFound('Client');
      await change(tx, client);
      await this.#record(tx, call, action, { type: 'client', id: clientId }, { reason });
    });
    return this.client(clientId);
  }

  #record(
    tx: Tx,
    call: StaffCall,
    action: string,
    target: string | { type: string; id: string },
    details: Record<string, unknown>,
  ) {
    return this.#audit.record(tx, {
      actor: { type: 'staff', id: call.staff.id },
      action,
      target: typeof target === 'string' ? { type: 'aggregator', id: target } : target,
      outcome: 'success',
      ip: call.ip,
      details,
    });
  }
}

/** At most a year, never after the authorization, never in the past; the default is the latest allowed. */
function keyExpiry(requested: string | undefined, now: Date, authorizationExpiry: Date): Date {
  const yearOut = new Date(now.getTime() + MAX_KEY_DAYS * DAY_MS);
  const latest = yearOut < authorizationExpiry ? yearOut : authorizationExpiry;
  if (requested === undefined) return latest;
  const expiresAt = new Date(requested);
  if (expiresAt <= now || expiresAt > latest) {
    throw validationError(
      'expiresAt',
      `expiresAt must be in the future, within ${MAX_KEY_DAYS} days and not after the authorization expiry (latest ${latest.toISOString()}).`,
    );
  }
  return expiresAt;
}

function keyRecord(row: { id: string; scopes: string[]; expires_at: Date; revoked_at: Date | null; created_at: Date }) {
  return {
    keyId: row.id,
    scopes: row.scopes,
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
  };
}
