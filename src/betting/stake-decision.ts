import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { writeTogether } from '../platform/db/one-statement.ts';
import type { WalletObligation } from '../wallet/tables.ts';
import type { Bet } from './tables.ts';
import type { WalletAttempt } from '../wallet/delivery/client.ts';
import type { DeliveryEngine } from '../wallet/delivery/engine.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import type { LockedBet } from '../wallet/ledger/locks.ts';
import { releaseExposure } from './exposure.ts';
import { stakeRefusal, type Refusal } from './refusals.ts';
import { moveBet, moveBetPart } from './moves.ts';
import * as betStore from './store/bets.ts';

export type BetRef = Pick<Bet, 'id' | 'tenant_id' | 'player_id' | 'stake'>;

/** The stake debit as now recorded, and when the bet was decided: accepted with the balance after, or refused. */
export type Decision = { stake: WalletObligation; decidedAt: Date } & (
  { refusal?: undefined; balance: { balance: number; currency: string } } | { refusal: Refusal; balance?: undefined }
);

type StakeDecisionsDeps = { db: Db; clock: Clock; ledger: Ledger; delivery: DeliveryEngine };

/**
 * A pending bet's fate, decided by its one stake debit: accepted when the wallet took the stake; refused, with its
 * exposure released, when it refused or never got it; refused and rolled back when nobody can know. Placement and
 * recovery both decide through here, each move guarded, so only one of them ever decides a bet.
 */
export class StakeDecisions {
  readonly #deps: StakeDecisionsDeps;

  constructor(deps: StakeDecisionsDeps) {
    this.#deps = deps;
  }

  /**
   * Records what the stake debit proved, with its wallet call log line, and says what the player is told. An
   * accepted bet is one statement without a transaction (the stake applied, its log line, the bet accepted: all
   * or nothing); a refusal also releases the exposure, in one transaction. Throws when another writer decided the
   * bet first (IncompleteStatementError, BetRaceError): the caller then answers from the bet's state.
   */
  async decide(bet: BetRef, stake: WalletObligation, attempt: WalletAttempt): Promise<Decision> {
    const now = this.#deps.clock.now();
    const pending = { id: bet.id, status: 'pending' as const };
    if (attempt.outcome === 'applied') {
      // The bet's row first, then its stake (the lock order): the stake's parts wait for the bet's.
      const accept = { bet: pending, to: 'accepted' as const, changes: { decided_at: now } };
      const outcome = this.#deps.ledger.attempts.stakeOutcome('stake', stake, attempt, 'accepted');
      await writeTogether(this.#deps.db, [moveBetPart('accepted', accept), ...outcome.parts]);
      const balance = { balance: attempt.balance, currency: attempt.currency };
      return { balance, stake: outcome.recorded, decidedAt: now };
    }
    const refusal = stakeRefusal(attempt);
    const { recorded, rollbackId } = await inTransaction(this.#deps.db, async (tx) => {
      const locked = (await this.#deps.ledger.lockBets(tx, [bet.id])).get(bet.id)!;
      const outcome = this.#deps.ledger.attempts.stakeOutcome('stake', stake, attempt);
      await writeTogether(tx, outcome.parts);
      locked.wrote(outcome.recorded);
      return {
        recorded: outcome.recorded,
        rollbackId: await this.#refuse(locked, bet, refusal, attempt.outcome === 'unknown'),
      };
    });
    if (rollbackId) this.#deps.delivery.wake();
    return { refusal, stake: recorded, decidedAt: now };
  }

  /**
   * The stake's outcome cannot be known (a crash, a lost database, a placement that never finished): if the bet is
   * still pending, refuse it and roll the stake back. Returns whether it did.
   */
  async treatAsUnknown(bet: BetRef, reason: string): Promise<boolean> {
    const rollbackId = await inTransaction(this.#deps.db, async (tx) => {
      const locked = (await this.#deps.ledger.lockBets(tx, [bet.id])).get(bet.id);
      const current = locked && (await betStore.findBet(tx, bet.id));
      if (!locked || current?.status !== 'pending') return undefined;
      await this.#deps.ledger.attempts.markStakeInterrupted(locked, reason);
      return this.#refuse(locked, bet, { code: 'wallet_unavailable' }, true);
    });
    if (rollbackId) this.#deps.delivery.wake();
    return rollbackId !== undefined;
  }

  /**
   * Another writer decided the bet while its debit was in flight and left the stake on its attempt: the service's
   * own writers move both together, a hand edit may not. What the attempt proved is recorded all the same, with its
   * log line, and a refused bet whose stake may have been taken owes its rollback: money never stays with a bet that
   * does not stand. Answers false, writing nothing, while the bet is still pending (the caller's path decides it).
   */
  async settleLeftStake(bet: BetRef, stake: WalletObligation, attempt: WalletAttempt): Promise<boolean> {
    const settled = await inTransaction(this.#deps.db, async (tx) => {
      const locked = (await this.#deps.ledger.lockBets(tx, [bet.id])).get(bet.id);
      const current = locked && (await betStore.findBet(tx, bet.id));
      if (!locked || !current || current.status === 'pending') return false;
      // Recorded already by whoever decided the bet (the recovery of an interrupted placement does).
      if (locked.stake.status !== 'sending') return false;
      const outcome = this.#deps.ledger.attempts.stakeOutcome('stake', stake, attempt);
      await writeTogether(tx, outcome.parts);
      locked.wrote(outcome.recorded);
      const mayHaveMoved = attempt.outcome === 'applied' || attempt.outcome === 'unknown';
      if (current.status === 'refused' && mayHaveMoved) await this.#deps.ledger.oweRollbackOfStake(locked);
      return true;
    });
    if (settled) this.#deps.delivery.wake();
    return settled;
  }

  /** Refuses the bet and releases its exposure; after an unknown stake, records the rollback that settles it. */
  async #refuse(locked: LockedBet, bet: BetRef, refusal: Refusal, stakeUnknown: boolean): Promise<string | undefined> {
    const tx = locked.tx;
    const now = this.#deps.clock.now();
    await moveBet(tx, { id: bet.id, status: 'pending' }, 'refused', {
      refusal: JSON.stringify(refusal),
      decided_at: now,
    });
    await releaseExposure(tx, [bet], now);
    if (!stakeUnknown) return undefined;
    return (await this.#deps.ledger.oweRollbackOfStake(locked)).id;
  }
}
