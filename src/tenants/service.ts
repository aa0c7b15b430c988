import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex, type SecretBox } from '../platform/crypto.ts';
import { CommittedCache } from '../platform/db/committed-cache.ts';
import { inTransaction, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import type { Tenant } from './tables.ts';
import { notFound, platformErrors, validationError } from '../platform/errors.ts';
import { allows } from '../platform/http/auth.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import { checkedEmbedOrigins, checkedWalletUrl, type OriginRules } from '../platform/urls.ts';
import { tenantErrors } from './errors.ts';
import type { CreateTenantBody, Environment, TenantRecord, UpdateTenantBody } from './schemas.ts';
import * as store from './store.ts';

/** Changing any of these after the first money movement would send owed money somewhere else. */
const WALLET_IDENTITY = ['walletUrl', 'walletMode', 'currency'] as const;
/** Settings only the platform may change. */
/** Settings only the platform changes: an operator must not lift the checks on its own adjustments. */
const PLATFORM_ONLY = [...WALLET_IDENTITY, 'status', 'adjustments'] as const;

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

/** Where a tenant's wallet calls go, how they are signed, and in which currency. */
export interface TenantWallet {
  tenantId: string;
  walletUrl: string;
  secret: string;
  currency: string;
}

/** Told, inside the suspending transaction, which tenants were just suspended (their sessions end with it). */
export type SuspensionListener = (tx: Tx, tenantIds: string[]) => Promise<void>;

export const newTenantId = (): string => `tn_${randomBytes(8).toString('hex')}`;
const newIntegrationKeyId = (): string => `ik_${randomBytes(8).toString('hex')}`;
const walletSecretContext = (tenantId: string) => `tenants.wallet_secret:${tenantId}`;
/**
 * How long a tenant read from memory is trusted at most. Every change through this service drops the cached rows
 * (and again when its transaction ends), so this bound only matters for a change made by hand in the database.
 */
const CACHED_TENANT_MS = 5_000;
/** Far above the tenants one instance serves; the least recently used go first. */
const CACHED_TENANTS = 10_000;

interface CachedTenant {
  tenant: Tenant;
  /** Decrypted on first use. */
  walletSecret?: string;
  /** The hash of the integration key last found live for the tenant: a session opening need not look it up. */
  liveKeyHash?: string;
}

/**
 * Tenants (one per client environment) and their credentials: the integration key and the wallet secret. The
 * only way to the tenants and integration_keys tables: other domains ask here.
 */
export class TenantService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #secrets: SecretBox;
  readonly #audit: AuditLog;
  readonly #originRules: OriginRules;
  readonly #suspensionListeners: SuspensionListener[] = [];
  /** Tenants as last committed, for the paths every request takes (session checks, placement, wallet calls). */
  readonly #cached = new CommittedCache<CachedTenant>({ max: CACHED_TENANTS, ttlMs: CACHED_TENANT_MS });

  constructor(deps: { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog; originRules: OriginRules }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
    this.#audit = deps.audit;
    this.#originRules = deps.originRules;
  }

  whenSuspended(listener: SuspensionListener): void {
    this.#suspensionListeners.push(listener);
  }

  // ---- for other domains ----

  async get(tenantId: string, q: Queryable = this.#db): Promise<Tenant> {
    const tenant = await store.findTenant(q, tenantId);
    if (!tenant) throw notFound('Tenant');
    return tenant;
  }

  /**
   * The tenant as last committed, from memory when this process read it recently. Not for a transaction that
   * must see its own writes or lock the row: use get(tenantId, tx) there.
   */
  async current(tenantId: string): Promise<Tenant> {
    return (await this.#entry(tenantId)).tenant;
  }

  async #entry(tenantId: string): Promise<CachedTenant> {
    const hit = this.#cached.get(tenantId);
    if (hit) return hit;
    return (await this.#cached.read(tenantId, async () => ({ tenant: await this.get(tenantId) })))!;
  }

  /** Drops every cached tenant now and when the transaction of `q` ends, when others can first see the change. */
  #changed(q: Queryable): void {
    this.#cached.changed(q);
  }

  environmentsOfClient(clientId: string, q: Queryable = this.#db): Promise<Tenant[]> {
    return store.tenantsOfClient(q, clientId);
  }

  liveIntegrationKeys(tenantIds: string[], q: Queryable = this.#db) {
    return store.liveIntegrationKeys(q, tenantIds);
  }

  /** The wallet secret, decrypted for signing. */
  walletSecret(tenant: Pick<Tenant, 'id' | 'wallet_secret_enc'>): string {
    return this.#secrets.decrypt(tenant.wallet_secret_enc, walletSecretContext(tenant.id));
  }

  /**
   * Where the tenant's wallet calls go. `fromCache` for calls made at once on a player's request (a stake, a
   * balance): they go to the URL just recorded from the same cached row. The delivery engine reads the row, so an
   * obligation whose tenant changed wallet URL even by hand in the database is held, not sent.
   */
  async walletTarget(tenantId: string, options: { fromCache?: boolean } = {}): Promise<TenantWallet> {
    const entry: CachedTenant = options.fromCache ? await this.#entry(tenantId) : { tenant: await this.get(tenantId) };
    const secret = (entry.walletSecret ??= this.walletSecret(entry.tenant));
    return {
      tenantId,
      walletUrl: entry.tenant.wallet_url,
      secret,
      currency: entry.tenant.currency,
    };
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

  /** Both environments of a client change status together; a suspension ends their open sessions. */
  async setClientEnvironmentsStatus(tx: Tx, clientId: string, status: Tenant['status']): Promise<void> {
    const tenantIds = await store.setTenantStatusForClient(tx, clientId, status);
    this.#changed(tx);
    if (status === 'suspended') await this.#suspended(tx, tenantIds);
  }

  /** One key at a time: every earlier key of the tenant is revoked in the same transaction. */
  async issueIntegrationKey(tx: Tx, tenantId: string): Promise<IssuedIntegrationKey> {
    const now = this.#clock.now();
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

  /**
   * The tenant, when `key` is its one live integration key; compared by hash, never in plaintext. A key found live is remembered with the cached tenant, so
   * it is forgotten with it: at once when a key is issued or revoked here, within CACHED_TENANT_MS of a hand edit.
   */
  async authenticateIntegrationKey(tenantId: string, key: string): Promise<Tenant | undefined> {
    const keyHash = sha256Hex(key);
    const hit = this.#cached.get(tenantId);
    if (hit?.liveKeyHash === keyHash) return hit.tenant;
    const found = await this.#cached.read(tenantId, async () => {
      const tenant = await store.findTenantByLiveKey(this.#db, tenantId, keyHash);
      return tenant && { tenant, liveKeyHash: keyHash };
    });
    return found?.tenant;
  }

  revokeIntegrationKeys(q: Queryable, tenantIds: string[]): Promise<number> {
    this.#changed(q);
    return store.revokeIntegrationKeys(q, tenantIds, this.#clock.now());
  }

  /**
   * The tenant for a money movement, its wallet identity (URL, mode, currency) locked for good: the first one marks
   * it, in its own statement, which waits for any identity change in progress; the row is then read again, so the
   * movement goes to the identity that is now locked. Once marked, the cached row's identity can no longer change.
   */
  async forMoneyMovement(tenantId: string): Promise<Tenant> {
    const tenant = await this.current(tenantId);
    if (tenant.first_financial_at) return tenant;
    await store.markFinancialUse(this.#db, tenantId, this.#clock.now());
    this.#changed(this.#db);
    return this.current(tenantId);
  }

  // ---- administration (operator staff of the tenant, or a platform administrator naming it) ----

  /** A tenant for an operator that is not behind an aggregator: active at once, credentials returned once. */
  async createTenant(call: StaffCall, body: CreateTenantBody) {
    const walletUrl = checkedWalletUrl('walletUrl', body.walletUrl, this.#originRules);
    const embedOrigins = checkedEmbedOrigins(body.embedOrigins ?? [], this.#originRules);
    const tenantId = newTenantId();
    return inTransaction(this.#db, async (tx) => {
      const { walletSecret } = await this.createEnvironment(tx, {
        tenantId,
        clientId: null,
        environment: 'production',
        name: body.name,
        currency: body.currency,
        locale: body.locale,
        jurisdiction: body.jurisdiction,
        embedOrigins,
        walletUrl,
      });
      await store.updateTenant(tx, tenantId, { status: 'active' });
      const key = await this.issueIntegrationKey(tx, tenantId);
      await this.#record(tx, call, 'tenant.create', tenantId, { name: body.name, currency: body.currency, walletUrl });
      return { tenant: await this.#view(tx, tenantId), walletSecret, ...key };
    });
  }

  async tenant(tenantId: string): Promise<Static<typeof TenantRecord>> {
    return this.#view(this.#db, tenantId);
  }

  /** Ordinary settings; wallet URL, wallet mode and currency are platform-only and lock at first money movement. */
  async updateTenant(call: StaffCall, tenantId: string, body: UpdateTenantBody) {
    const platformOnly = PLATFORM_ONLY.filter((field) => body[field] !== undefined);
    if (platformOnly.length > 0 && !allows(call.staff, 'platform')) {
      throw platformErrors.forbidden(undefined, `Only the platform can change ${platformOnly.join(', ')}.`);
    }
    if (body.limits && (body.limits.minStake > body.limits.maxStake || body.limits.maxStake > body.limits.maxPayout)) {
      throw validationError('limits', 'Limits must satisfy minStake <= maxStake <= maxPayout.');
    }
    if (body.adjustments && body.adjustments.approvalAbove > body.adjustments.maxAmount) {
      throw validationError('adjustments.approvalAbove', 'The approval threshold is at most the maximum adjustment.');
    }
    const changes = this.#settingColumns(body);
    return inTransaction(this.#db, async (tx) => {
      const tenant = await store.findTenant(tx, tenantId, { lock: 'update' });
      if (!tenant) throw notFound('Tenant');
      const changed = WALLET_IDENTITY.filter(
        (field) => body[field] !== undefined && identityValue(tenant, field) !== changes[fieldColumn(field)],
      );
      if (tenant.first_financial_at && changed.length > 0) {
        throw tenantErrors.wallet_identity_locked(
          { reason: 'wallet_identity_locked', fields: changed },
          `The tenant has moved money; ${changed.join(', ')} can no longer change through settings.`,
        );
      }
      await store.updateTenant(tx, tenantId, changes);
      this.#changed(tx);
      if (body.status === 'suspended') await this.#suspended(tx, [tenantId]);
      const platformChanges = Object.fromEntries(
        platformOnly.map((field) => [field, { from: platformValue(tenant, field), to: body[field] }]),
      );
      await this.#record(tx, call, 'tenant.update', tenantId, { fields: Object.keys(body), changes: platformChanges });
      return this.#view(tx, tenantId);
    });
  }

  #settingColumns(body: UpdateTenantBody) {
    return {
      ...(body.embedOrigins !== undefined
        ? { embed_origins: JSON.stringify(checkedEmbedOrigins(body.embedOrigins, this.#originRules)) }
        : {}),
      ...(body.name !== undefined ? { name: body.name } : {}),
      ...(body.locale !== undefined ? { locale: body.locale } : {}),
      ...(body.walletUrl !== undefined
        ? { wallet_url: checkedWalletUrl('walletUrl', body.walletUrl, this.#originRules) }
        : {}),
      ...(body.walletMode !== undefined ? { wallet_mode: body.walletMode } : {}),
      ...(body.currency !== undefined ? { currency: body.currency } : {}),
      ...(body.status !== undefined ? { status: body.status } : {}),
      ...(body.limits !== undefined ? limitColumns(body.limits) : {}),
      ...(body.adjustments !== undefined
        ? {
            max_adjustment: body.adjustments.maxAmount,
            adjustment_approval_above: body.adjustments.approvalAbove,
          }
        : {}),
    };
  }

  /** New integration key returned once; the previous one stops at once. */
  async rotateApiKey(call: StaffCall, tenantId: string) {
    return inTransaction(this.#db, async (tx) => {
      await this.#locked(tx, tenantId);
      const key = await this.issueIntegrationKey(tx, tenantId);
      await this.#record(tx, call, 'tenant.api_key.rotate', tenantId, { keyId: key.keyId });
      return { tenantId, ...key };
    });
  }

  /** New wallet secret returned once; every later signature uses it. */
  async rotateWalletSecret(call: StaffCall, tenantId: string) {
    const walletSecret = newToken('walletSecret');
    await inTransaction(this.#db, async (tx) => {
      await this.#locked(tx, tenantId);
      const sealed = this.#secrets.encrypt(walletSecret, walletSecretContext(tenantId));
      await store.updateTenant(tx, tenantId, { wallet_secret_enc: sealed });
      this.#changed(tx);
      await this.#record(tx, call, 'tenant.wallet_secret.rotate', tenantId, {});
    });
    return { tenantId, walletSecret };
  }

  async #suspended(tx: Tx, tenantIds: string[]): Promise<void> {
    for (const listener of this.#suspensionListeners) await listener(tx, tenantIds);
  }

  /** Rotations lock the tenant row, so two at once run one after the other instead of colliding. */
  async #locked(tx: Tx, tenantId: string): Promise<Tenant> {
    const tenant = await store.findTenant(tx, tenantId, { lock: 'update' });
    if (!tenant) throw notFound('Tenant');
    return tenant;
  }

  async #view(q: Queryable, tenantId: string): Promise<Static<typeof TenantRecord>> {
    const tenant = await this.get(tenantId, q);
    const [key] = await store.liveIntegrationKeys(q, [tenantId]);
    return {
      id: tenant.id,
      clientId: tenant.client_id,
      environment: tenant.environment,
      name: tenant.name,
      currency: tenant.currency,
      locale: tenant.locale,
      jurisdiction: tenant.jurisdiction,
      embedOrigins: tenant.embed_origins,
      walletUrl: tenant.wallet_url,
      walletMode: tenant.wallet_mode,
      status: tenant.status,
      createdAt: tenant.created_at.toISOString(),
      firstFinancialAt: tenant.first_financial_at?.toISOString() ?? null,
      limits: {
        minStake: tenant.min_stake,
        maxStake: tenant.max_stake,
        maxPayout: tenant.max_payout,
        maxSelectionLiability: tenant.max_selection_liability,
        maxEventLiability: tenant.max_event_liability,
      },
      adjustments: { maxAmount: tenant.max_adjustment, approvalAbove: tenant.adjustment_approval_above },
      integrationKey: key ? { keyId: key.id, createdAt: key.created_at.toISOString() } : null,
    };
  }

  #record(tx: Tx, call: StaffCall, action: string, tenantId: string, details: Record<string, unknown>) {
    return this.#audit.record(tx, {
      actor: { type: 'staff', id: call.staff.id },
      action,
      target: { type: 'tenant', id: tenantId },
      outcome: 'success',
      ip: call.ip,
      details,
    });
  }
}

function limitColumns(limits: NonNullable<UpdateTenantBody['limits']>) {
  return {
    min_stake: limits.minStake,
    max_stake: limits.maxStake,
    max_payout: limits.maxPayout,
    max_selection_liability: limits.maxSelectionLiability,
    max_event_liability: limits.maxEventLiability,
  };
}

function fieldColumn(field: (typeof WALLET_IDENTITY)[number]): 'wallet_url' | 'wallet_mode' | 'currency' {
  return field === 'walletUrl' ? 'wallet_url' : field === 'walletMode' ? 'wallet_mode' : 'currency';
}

/** A platform-only setting as it was, for the audit trail. */
function platformValue(tenant: Tenant, field: (typeof PLATFORM_ONLY)[number]) {
  if (field === 'status') return tenant.status;
  if (field === 'adjustments') {
    return { maxAmount: tenant.max_adjustment, approvalAbove: tenant.adjustment_approval_above };
  }
  return identityValue(tenant, field);
}

function identityValue(tenant: Tenant, field: (typeof WALLET_IDENTITY)[number]): string {
  return tenant[fieldColumn(field)];
}
