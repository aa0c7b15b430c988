import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex, TOKEN_PREFIX } from '../platform/crypto.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import { checkedWalletOrigin, type OriginRules } from '../platform/urls.ts';
import { aggregatorErrors } from './errors.ts';
import { normalisedAllowedIps } from './allowed-ips.ts';
import { recordStaffAction } from './calls.ts';
import { authorizationRecord, keyRecord } from './records.ts';
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
/** What is kept of a key to tell it apart: its kind and 6 of its 43 random characters (36 of 256 bits). */
const keyPrefix = (key: string): string => key.slice(0, TOKEN_PREFIX.aggregatorKey.length + 6);

type AggregatorAdminServiceDeps = { db: Db; clock: Clock; audit: AuditLog; originRules: OriginRules };

/**
 * Platform administration of aggregators: registration, authorization policy, keys. The platform's interventions on
 * their clients are in interventions.ts.
 */
export class AggregatorAdminService {
  readonly #deps: AggregatorAdminServiceDeps;

  constructor(deps: AggregatorAdminServiceDeps) {
    this.#deps = deps;
  }

  async createAggregator(call: StaffCall, name: string): Promise<Static<typeof AggregatorRecord>> {
    const id = newAggregatorId();
    await inTransaction(this.#deps.db, async (tx) => {
      await store.insertAggregator(tx, { id, name, createdAt: this.#deps.clock.now(), createdBy: call.staff.id });
      await recordStaffAction(this.#deps.audit, tx, call, 'aggregator.create', { type: 'aggregator', id }, { name });
    });
    return this.aggregator(id);
  }

  async listAggregators(): Promise<Static<typeof AggregatorRecord>[]> {
    const rows = await store.listAggregators(this.#deps.db);
    return Promise.all(rows.map((row) => this.aggregator(row.id)));
  }

  async aggregator(id: string): Promise<Static<typeof AggregatorRecord>> {
    const row = await store.findAggregator(this.#deps.db, id);
    if (!row) throw notFound('Aggregator');
    const authorization = await store.findAuthorization(this.#deps.db, id);
    const keys = await store.keysOf(this.#deps.db, id);
    return {
      id: row.id,
      name: row.name,
      createdAt: row.created_at.toISOString(),
      authorization: authorization ? authorizationRecord(authorization) : null,
      keys: keys.map((key) => keyRecord(key, this.#deps.clock.now())),
      clientCount: await store.countClients(this.#deps.db, id),
    };
  }

  /** Replaces the whole policy; the version goes up by one on every change. */
  async setAuthorization(call: StaffCall, aggregatorId: string, body: AuthorizationBody) {
    const walletOrigins = body.walletOrigins.map((origin, index) =>
      checkedWalletOrigin(`walletOrigins.${index}`, origin, this.#deps.originRules),
    );
    const allowedIps = normalisedAllowedIps(body.allowedIps ?? []);
    const now = this.#deps.clock.now();
    const expiresAt = new Date(body.expiresAt);
    const latest = new Date(now);
    latest.setUTCFullYear(latest.getUTCFullYear() + MAX_AUTHORIZATION_YEARS);
    if (expiresAt <= now || expiresAt > latest) {
      throw validationError(
        'expiresAt',
        `expiresAt must be in the future and at most ${MAX_AUTHORIZATION_YEARS} years out (${latest.toISOString()}).`,
      );
    }
    return inTransaction(this.#deps.db, async (tx) => {
      if (!(await store.findAggregator(tx, aggregatorId))) throw notFound('Aggregator');
      const saved = await store.saveAuthorization(tx, {
        aggregator_id: aggregatorId,
        enabled: body.enabled,
        client_quota: body.clientQuota,
        currencies: JSON.stringify(body.currencies),
        jurisdictions: JSON.stringify(body.jurisdictions),
        territories: JSON.stringify(body.territories),
        wallet_origins: JSON.stringify(walletOrigins),
        allowed_ips: JSON.stringify(allowedIps),
        auto_activation: body.autoActivation,
        agreement_ref: body.agreementRef,
        expires_at: expiresAt,
        updated_at: now,
        updated_by: call.staff.id,
      });
      const record = authorizationRecord(saved);
      await recordStaffAction(
        this.#deps.audit,
        tx,
        call,
        'aggregator.authorization.set',
        { type: 'aggregator', id: aggregatorId },
        record,
      );
      return record;
    });
  }

  /** The key is returned this once; only its hash is kept. */
  async issueKey(call: StaffCall, aggregatorId: string, body: IssueKeyBody) {
    const now = this.#deps.clock.now();
    return inTransaction(this.#deps.db, async (tx) => {
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
        keyPrefix: keyPrefix(key),
        scopes: body.scopes,
        expiresAt,
        createdAt: now,
        createdBy: call.staff.id,
      });
      await recordStaffAction(
        this.#deps.audit,
        tx,
        call,
        'aggregator.key.issue',
        { type: 'aggregator', id: aggregatorId },
        {
          keyId,
          scopes: body.scopes,
          expiresAt: expiresAt.toISOString(),
        },
      );
      return { keyId, key, prefix: keyPrefix(key), scopes: body.scopes, expiresAt: expiresAt.toISOString() };
    });
  }

  async revokeKey(call: StaffCall, aggregatorId: string, keyId: string) {
    return inTransaction(this.#deps.db, async (tx) => {
      if (!(await store.findKey(tx, aggregatorId, keyId, { lock: true }))) throw notFound('Key');
      const revoked = await store.revokeKey(tx, keyId, this.#deps.clock.now());
      await recordStaffAction(
        this.#deps.audit,
        tx,
        call,
        'aggregator.key.revoke',
        { type: 'aggregator', id: aggregatorId },
        { keyId },
      );
      return keyRecord(revoked, this.#deps.clock.now());
    });
  }

  /** The aggregator's keys, newest first, with their last use; never a key or its hash. */
  async listKeys(aggregatorId: string) {
    if (!(await store.findAggregator(this.#deps.db, aggregatorId))) throw notFound('Aggregator');
    const now = this.#deps.clock.now();
    return (await store.keysOf(this.#deps.db, aggregatorId)).reverse().map((key) => keyRecord(key, now));
  }

  /**
   * Disables or enables the aggregator's API access (its authorization's `enabled`, a new version): its clients'
   * integrations and the wallet movements owed to them go on. Nothing changes (and nothing is audited) when it is
   * already so.
   */
  async setEnabled(call: StaffCall, aggregatorId: string, enabled: boolean, reason: string | undefined) {
    await inTransaction(this.#deps.db, async (tx) => {
      if (!(await store.findAggregator(tx, aggregatorId))) throw notFound('Aggregator');
      const current = await store.findAuthorization(tx, aggregatorId, { lock: true });
      if (!current) throw aggregatorErrors.authorization_missing();
      if (current.enabled === enabled) return;
      const saved = await store.setAuthorizationEnabled(tx, aggregatorId, {
        enabled,
        at: this.#deps.clock.now(),
        by: call.staff.id,
      });
      await recordStaffAction(
        this.#deps.audit,
        tx,
        call,
        enabled ? 'aggregator.enable' : 'aggregator.disable',
        { type: 'aggregator', id: aggregatorId },
        { reason, version: saved!.version },
      );
    });
    return this.aggregator(aggregatorId);
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
