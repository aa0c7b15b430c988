import type { TenantService, TenantWallet } from '../../tenants/service.ts';
import type { WalletObligation } from '../tables.ts';

/**
 * How old a wallet's URL and secret may be when a movement that waited for a slot is sent: read again after that, so
 * that a change made while it waited (a rotated secret, a URL edited by hand) is seen, at one read per wallet per
 * quarter second however many movements resume.
 */
const TARGET_FRESH_MS = 250;

/** A wallet's URL, secret and currency, or why they cannot be read. */
export type Target = TenantWallet | Error;

/**
 * Where the delivery engine sends: each tenant's wallet, read from the tenant's row (never a cache of it) once per
 * claim, and again for a movement that waited for a slot.
 */
export class WalletTargets {
  readonly #tenants: TenantService;
  readonly #read = new Map<string, { target: Promise<Target>; at: number }>();

  constructor(tenants: TenantService) {
    this.#tenants = tenants;
  }

  /**
   * Each tenant's wallet, once per claim. A tenant whose wallet cannot be read (a secret that does not decrypt)
   * delays its own movements only: their claims expire and they are tried again.
   */
  async ofClaim(claimed: WalletObligation[]): Promise<Map<string, Target>> {
    const tenantIds = [...new Set(claimed.map((obligation) => obligation.tenant_id))];
    return new Map(await Promise.all(tenantIds.map(async (id) => [id, await this.#readNow(id)] as const)));
  }

  /** The tenant's wallet as it is now, for a movement that waited for a slot: read again unless just read. */
  now(tenantId: string): Promise<Target> {
    const last = this.#read.get(tenantId);
    if (last && performance.now() - last.at < TARGET_FRESH_MS) return last.target;
    return this.#readNow(tenantId);
  }

  #readNow(tenantId: string): Promise<Target> {
    const target = this.#tenants.walletTarget(tenantId).catch((error: Error) => error);
    this.#read.set(tenantId, { target, at: performance.now() });
    return target;
  }
}
