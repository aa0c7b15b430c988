import type { Clock } from '../platform/clock.ts';
import { sha256Hex, type SecretBox } from '../platform/crypto.ts';
import { CommittedCache } from '../platform/db/committed-cache.ts';
import type { Db, Queryable, Tx } from '../platform/db/database.ts';
import type { Tenant } from './tables.ts';
import { notFound } from '../platform/errors.ts';
import * as store from './store.ts';
import { openWalletSecret } from './wallet-secret.ts';

/** Where a tenant's wallet calls go, how they are signed, and in which currency. */
export interface TenantWallet {
  tenantId: string;
  walletUrl: string;
  secret: string;
  currency: string;
}

/** Told, inside the suspending transaction, which tenants were just suspended (their sessions end with it). */
export type SuspensionListener = (tx: Tx, tenantIds: string[]) => Promise<void>;

/**
 * How long a tenant read from memory is trusted at most. Every change through this domain drops the cached rows
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

type TenantServiceDeps = { db: Db; clock: Clock; secrets: SecretBox };

/**
 * What other domains ask of tenants: the tenant (as last committed, from memory, on the paths every request
 * takes), its wallet target, its wallet identity locked for money movement, the integration key check, and the
 * suspension listeners. The only way to the tenants and integration_keys tables from outside this folder. This
 * domain's writers (settings.ts, credentials.ts, environments.ts) report every change here (`changed`), so that the
 * cache never answers with a row they replaced.
 */
export class TenantService {
  readonly #deps: TenantServiceDeps;
  readonly #suspensionListeners: SuspensionListener[] = [];
  /** Tenants as last committed, for the paths every request takes (session checks, placement, wallet calls). */
  readonly #cached = new CommittedCache<CachedTenant>({ max: CACHED_TENANTS, ttlMs: CACHED_TENANT_MS });

  constructor(deps: TenantServiceDeps) {
    this.#deps = deps;
  }

  whenSuspended(listener: SuspensionListener): void {
    this.#suspensionListeners.push(listener);
  }

  /**
   * For this domain's writers, after every change to a tenant or its keys: drops every cached tenant now and when
   * the transaction of `q` ends, when others can first see the change.
   */
  changed(q: Queryable): void {
    this.#cached.changed(q);
  }

  /** For this domain's writers, inside the suspending transaction: tells the listeners (see whenSuspended). */
  async suspended(tx: Tx, tenantIds: string[]): Promise<void> {
    for (const listener of this.#suspensionListeners) await listener(tx, tenantIds);
  }

  async get(tenantId: string, q: Queryable = this.#deps.db): Promise<Tenant> {
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

  /** The wallet secret, decrypted for signing. */
  walletSecret(tenant: Pick<Tenant, 'id' | 'wallet_secret_enc'>): string {
    return openWalletSecret(this.#deps.secrets, tenant);
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

  /**
   * The tenant, when `key` is its one live integration key; compared by hash, never in plaintext. A key found live
   * is remembered with the cached tenant, so it is forgotten with it: at once when a key is issued or revoked
   * (credentials.ts reports it), within CACHED_TENANT_MS of a hand edit.
   */
  async authenticateIntegrationKey(tenantId: string, key: string): Promise<Tenant | undefined> {
    const keyHash = sha256Hex(key);
    const hit = this.#cached.get(tenantId);
    if (hit?.liveKeyHash === keyHash) return hit.tenant;
    const found = await this.#cached.read(tenantId, async () => {
      const tenant = await store.findTenantByLiveKey(this.#deps.db, tenantId, keyHash);
      return tenant && { tenant, liveKeyHash: keyHash };
    });
    return found?.tenant;
  }

  /**
   * The tenant for a money movement, its wallet identity (URL, mode, currency) locked for good: the first one marks
   * it, in its own statement, which waits for any identity change in progress; the row is then read again, so the
   * movement goes to the identity that is now locked. Once marked, the cached row's identity can no longer change.
   */
  async forMoneyMovement(tenantId: string): Promise<Tenant> {
    const tenant = await this.current(tenantId);
    if (tenant.first_financial_at) return tenant;
    await store.markFinancialUse(this.#deps.db, tenantId, this.#deps.clock.now());
    this.changed(this.#deps.db);
    return this.current(tenantId);
  }
}
