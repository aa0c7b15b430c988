import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import type { StakeDecisions } from './stake-decision.ts';
import * as betStore from './store/bets.ts';

/**
 * How long a bet may stay pending before the service decides its stake is lost: the wallet's 5 s per attempt, and
 * a wide margin for a slow database. A placement that is still alive decides long before; one that lost its
 * database (a restart, a failover) never will.
 */
export const STALE_PENDING_MS = 30_000;

type RecoveryDeps = { db: Db; clock: Clock; decisions: StakeDecisions };

/**
 * Bets left pending, their stake debit's outcome unknowable: refused and rolled back. At start-up every pending bet
 * (the process that placed it is gone); while running, those pending for longer than STALE_PENDING_MS.
 */
export class Recovery {
  readonly #deps: RecoveryDeps;

  constructor(deps: RecoveryDeps) {
    this.#deps = deps;
  }

  /** Before the server listens: the process stopped between recording stakes and learning their outcomes. */
  async recoverPendingBets(): Promise<number> {
    return this.#resolve(await betStore.pendingBets(this.#deps.db), 'interrupted');
  }

  /** The running service's sweep (a periodic job): placements that lost their database mid-way. */
  async resolveStalePendingBets(): Promise<number> {
    const before = new Date(this.#deps.clock.now().getTime() - STALE_PENDING_MS);
    return this.#resolve(await betStore.pendingBets(this.#deps.db, before), 'stale');
  }

  async #resolve(bets: Awaited<ReturnType<typeof betStore.pendingBets>>, reason: string): Promise<number> {
    let resolved = 0;
    for (const bet of bets) if (await this.#deps.decisions.treatAsUnknown(bet, reason)) resolved += 1;
    return resolved;
  }
}
