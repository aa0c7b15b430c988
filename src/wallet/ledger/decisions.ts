import type { Clock } from '../../platform/clock.ts';
import type { HistoryActor } from '../states.ts';
import type { WalletObligation } from '../tables.ts';
import type { CountedLate } from './attempts.ts';
import { movePosting, type LockedObligation } from './locks.ts';
import type { Change } from './store.ts';

/** An operator's decision on a held obligation. */
export interface Review {
  staffId: string;
  reason: string | null;
}

/** The integration API, on the casino's request. */
const CASINO: HistoryActor = { type: 'system', id: 'integration' };

type LedgerDecisionsDeps = { clock: Clock; countedLate: () => CountedLate };

/**
 * A person's decisions on one movement, each on a movement locked under the lock order (Ledger.lockObligation): an
 * operator's retry, resolve and cancel of a held one, and a casino's redelivery. The callers check what may be decided
 * (the workspace, the casino's view, the retry rule); this writes it, guarded like every move.
 */
export class LedgerDecisions {
  readonly #deps: LedgerDecisionsDeps;

  constructor(deps: LedgerDecisionsDeps) {
    this.#deps = deps;
  }

  /** Delivery resumes with the same txId and body, to the same wallet, now. */
  async retry(locked: LockedObligation, review: Review): Promise<void> {
    const changes = { hold_reason: null, next_attempt_at: this.#deps.clock.now(), ...reviewed(review) };
    await this.#move(locked, 'pending', changes, byStaff('retry', review));
  }

  /**
   * The movement was done outside the service (the casino confirms it): it counts as applied, and its bet owes what
   * is due now (CountedLate). A debit may have been collected in part (`writtenOff`, the rest): the bet's account
   * still counts all of it, since writing the rest off ends the debt; the money reports count what was collected.
   */
  async resolve(locked: LockedObligation, review: Review, writtenOff: number | null = null): Promise<void> {
    const changes = { resolved_at: this.#deps.clock.now(), written_off: writtenOff, ...reviewed(review) };
    const resolved = await this.#move(locked, 'resolved', changes, byStaff('resolve', review));
    if (locked.bet) await this.#deps.countedLate()(locked.bet, resolved);
  }

  /** The movement is not owed and never happened: it counts for nothing, and nothing replaces it. */
  async cancel(locked: LockedObligation, review: Review): Promise<void> {
    const changes = { resolved_at: this.#deps.clock.now(), ...reviewed(review) };
    await this.#move(locked, 'cancelled', changes, byStaff('cancel', review));
  }

  /**
   * The casino asks for a movement now: the same row, so the same txId, body and wallet. An owed one becomes due at
   * once (its attempts and schedule kept); a failed one (held: the wallet or its address refused it) is owed again and
   * due at once, its hold reason cleared, as an operator's retry does. The caller checks the retry rule
   * (retry-rule.ts) and that no attempt is on its way.
   */
  redeliverNow(locked: LockedObligation): Promise<WalletObligation> {
    const now = this.#deps.clock.now();
    const why = { actor: CASINO, cause: 'redelivery', note: "asked by the casino's server (integration API)" };
    if (locked.obligation.status === 'held') {
      return this.#move(locked, 'pending', { hold_reason: null, next_attempt_at: now, claimed_until: null }, why);
    }
    return this.#move(locked, 'pending', { next_attempt_at: now }, why);
  }

  #move(
    locked: LockedObligation,
    to: Parameters<typeof movePosting>[3],
    changes: Parameters<typeof movePosting>[4],
    why: Omit<Change, 'at'>,
  ): Promise<WalletObligation> {
    return movePosting(locked, this.#deps.clock.now(), locked.obligation, to, changes, why);
  }
}

function byStaff(action: string, review: Review): Omit<Change, 'at'> {
  return { actor: { type: 'staff', id: review.staffId }, cause: action, note: review.reason };
}

function reviewed(review: Review) {
  return { reviewed_by: review.staffId, review_reason: review.reason, claimed_until: null };
}
