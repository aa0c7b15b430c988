import type { Clock } from '../../platform/clock.ts';
import type { Queryable, Tx } from '../../platform/db/database.ts';
import type { StatementPart } from '../../platform/db/one-statement.ts';
import type { WalletObligation } from '../tables.ts';
import type { WalletAttempt } from '../delivery/client.ts';
import { confirmation, deliveryChange, noteOf, supersededDeliveryChange } from './delivery-table.ts';
import { moveGuarded } from './rows.ts';
import type { LockedBet } from './locks.ts';
import {
  checkTransition,
  isObsolete,
  LostRaceError,
  type HistoryActor,
  type HoldReason,
  type ObligationState,
} from '../states.ts';
import * as store from './store.ts';
import * as deliveryStore from '../delivery/store.ts';

/** What one delivery attempt of an owed movement proved, and when to try again if it proved nothing. */
export interface Delivery {
  obligation: WalletObligation;
  attempt: WalletAttempt;
  nextAttemptAt: Date;
}

/**
 * What betting does when a movement of a bet may count after all, having not counted before (an operator resolved
 * it, or the wallet confirmed it after a resettlement had superseded it), inside the transaction that records it, with
 * the bet locked: the bet owes what is due now (betting's Settlement.correctAfterLateCount).
 */
export type CountedLate = (bet: LockedBet, obligation: WalletObligation) => Promise<void>;

/** What recording a batch of attempts did: the new state of each obligation that moved, and the answers left over. */
export interface RecordedDeliveries {
  states: Map<string, ObligationState>;
  /** Attempts whose obligation changed meanwhile (a resettlement may have superseded it): see recordSuperseded. */
  lost: Delivery[];
}

const DELIVERY: HistoryActor = { type: 'system', id: 'delivery' };

type LedgerAttemptsDeps = {
  clock: Clock;
  lockBets: (tx: Tx, betIds: string[]) => Promise<Map<string, LockedBet>>;
  countedLate: () => CountedLate;
};

/** The ledger's half that records what attempts proved: a stake's one attempt, and the delivery engine's. */
export class LedgerAttempts {
  readonly #deps: LedgerAttemptsDeps;

  constructor(deps: LedgerAttemptsDeps) {
    this.#deps = deps;
  }

  /**
   * What the one attempt of a stake debit proved, with the call's log line, as parts of a statement (`name`; the
   * statement writes nothing if the stake moved first), written after the part `gate` (the bet's own move, so that
   * the bet's row is locked before its stake's) when there is one. A stake the transport never sent is refused like
   * one the wallet refused: nothing moved, so nothing is rolled back.
   */
  stakeOutcome(
    name: string,
    stake: WalletObligation,
    attempt: WalletAttempt,
    gate?: string,
  ): { recorded: WalletObligation; parts: StatementPart[] } {
    const now = this.#deps.clock.now();
    const to: ObligationState =
      attempt.outcome === 'applied' ? 'applied' : attempt.outcome === 'unknown' ? 'unknown' : 'refused';
    checkTransition(stake.status, to);
    const lastOutcome =
      attempt.outcome === 'applied' || attempt.outcome === 'refused' ? attempt.outcome : attempt.reason;
    const changes = {
      attempts: stake.attempts + 1,
      last_outcome: lastOutcome,
      ...(attempt.outcome === 'applied'
        ? confirmation(stake, attempt)
        : { operator_code: attempt.outcome === 'refused' ? attempt.code : null }),
      resolved_at: now,
      status: to,
    };
    const move = { id: stake.id, seen: { status: stake.status, attempts: stake.attempts }, changes };
    const why = {
      at: now,
      actor: { type: 'system', id: 'placement' } as const,
      cause: lastOutcome,
      note: noteOf(attempt),
    };
    const parts = store.moveObligationParts(name, move, deliveryStore.callOfObligation(stake, attempt, now), why, gate);
    return { recorded: { ...stake, ...changes }, parts };
  }

  /** A stake whose attempt was interrupted (crash, lost database) has an unknown outcome. */
  async markStakeInterrupted(bet: LockedBet, reason: string): Promise<void> {
    const moved = await moveGuarded(
      bet.tx,
      this.#deps.clock.now(),
      bet.stake,
      'unknown',
      { last_outcome: reason, resolved_at: this.#deps.clock.now() },
      { actor: { type: 'system', id: 'recovery' }, cause: reason, note: 'its one attempt was interrupted' },
    );
    bet.wrote(moved);
  }

  /**
   * What delivery attempts of owed movements proved, recorded together: applied (with what the wallet answered);
   * held for review when the wallet refused (a correction debit refused for insufficient funds stops its bet's
   * delivery) or the transport refuses the destination; otherwise owed still, due again at `nextAttemptAt`. An
   * obligation superseded while its attempt was in flight is decided by that attempt (supersededDeliveryChange).
   * Each is guarded like every move; the answer maps each obligation that moved to its new state (one that lost a
   * race is absent).
   */
  async recordDeliveries(tx: Tx, deliveries: Delivery[]): Promise<RecordedDeliveries> {
    const now = this.#deps.clock.now();
    const changes = deliveries.map(({ obligation, attempt, nextAttemptAt }) => {
      const change = deliveryChange(obligation, attempt, now, nextAttemptAt);
      checkTransition(obligation.status, change.status);
      return change;
    });
    const moved = await store.recordDeliveries(tx, changes, now);
    return {
      states: new Map(changes.filter((change) => moved.has(change.id)).map((change) => [change.id, change.status])),
      lost: deliveries.filter(({ obligation }) => !moved.has(obligation.id)),
    };
  }

  /**
   * Attempts whose obligation changed while they were in flight, in a transaction of their own, under the lock order
   * (their bets, then the bets' obligations). One that a resettlement superseded keeps what the wallet answered all
   * the same: applied, it counts, and the bet owes the difference at once; refused, nothing moved and it is no longer
   * owed; anything else leaves it held, with the attempt on its count. Any other change (another writer recorded an
   * attempt) wins, and the answer is not recorded: the map holds only those recorded.
   */
  async recordSuperseded(tx: Tx, lost: Delivery[]): Promise<Map<string, ObligationState>> {
    const now = this.#deps.clock.now();
    const betIds = lost.flatMap(({ obligation }) => (obligation.bet_id ? [obligation.bet_id] : []));
    const bets = await this.#deps.lockBets(tx, betIds);
    const current = new Map(
      [...bets.values()].flatMap((bet) => bet.postings.map((posting) => [posting.id, posting] as const)),
    );
    const superseded = lost.flatMap(({ obligation, attempt }) => {
      const row = current.get(obligation.id);
      const stillSuperseded =
        row?.status === 'held' && isObsolete(row.hold_reason) && row.attempts === obligation.attempts;
      return stillSuperseded ? [{ row, change: supersededDeliveryChange(row, attempt, now) }] : [];
    });
    const changes = superseded.map(({ change }) => change);
    const moved = changes.length > 0 ? await store.recordDeliveries(tx, changes, now) : new Set<string>();
    const states = new Map<string, ObligationState>();
    for (const { row, change } of superseded) {
      if (!moved.has(row.id)) continue;
      states.set(row.id, change.status);
      const bet = bets.get(row.bet_id!)!;
      bet.wrote({ ...row, status: change.status, attempts: row.attempts + 1 });
      if (change.status === 'applied') await this.#deps.countedLate()(bet, { ...row, status: 'applied' });
    }
    return states;
  }

  /**
   * Stops automatic delivery of a claimed obligation that this claim did not send: it waits for an operator, and its
   * claim is given back whole (its claims count as before it), since nothing left under it. If the obligation changed
   * meanwhile (a resettlement superseded it), only the claim is given back.
   */
  async holdUnsent(q: Queryable, obligation: WalletObligation, reason: HoldReason): Promise<void> {
    try {
      await moveGuarded(
        q,
        this.#deps.clock.now(),
        obligation,
        'held',
        { hold_reason: reason, last_outcome: reason, claimed_until: null, claims: obligation.claims - 1 },
        { actor: DELIVERY, cause: reason, note: 'not sent: never to a wallet other than the one it was owed to' },
      );
    } catch (error) {
      if (!(error instanceof LostRaceError)) throw error;
      await deliveryStore.giveBackClaim(q, obligation);
    }
  }
}
