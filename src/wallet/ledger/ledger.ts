import type { Clock } from '../../platform/clock.ts';
import type { Queryable, Tx } from '../../platform/db/database.ts';
import type { StatementPart } from '../../platform/db/one-statement.ts';
import type { WalletObligation } from '../tables.ts';
import { requestMayHaveLeft } from './delivery-table.ts';
import { LedgerAttempts, type CountedLate } from './attempts.ts';
import { LedgerDecisions } from './decisions.ts';
import {
  type BetMovement,
  countsAsSettled,
  obligationRow,
  postingRow,
  SETTLEMENT_KINDS,
  worthAt,
  type Stake,
} from './rows.ts';
import {
  lockBets,
  lockObligation,
  movePosting,
  type BetRowLock,
  type LockedBet,
  type LockedObligation,
} from './locks.ts';
import type { HistoryActor } from '../states.ts';
import * as store from './store.ts';
import * as deliveryStore from '../delivery/store.ts';

const SETTLEMENT: HistoryActor = { type: 'system', id: 'settlement' };

/**
 * The ledger of obligations: money owed to or by a wallet. With `attempts` (ledger-attempts.ts, what attempts
 * proved), the only writer of wallet_obligations. Obligations are created inside the caller's transaction or
 * statement, before any call (row first, call second), and every change of state goes through a guarded move
 * (ledger-rows.ts moveGuarded): it must be in OBLIGATION_TRANSITIONS (states.ts), and the row must still be what the
 * writer read, state and attempt count both, or the move throws LostRaceError (IncompleteStatementError for a move
 * made as a part of a statement, which then writes nothing).
 */
export class Ledger {
  readonly #clock: Clock;
  #countedLate: CountedLate = async () => {};
  #lockRows: BetRowLock = () => Promise.reject(new Error('the ledger was not told how to lock bets'));
  /** Records what attempts proved: a stake's one attempt, and the delivery engine's. */
  readonly attempts: LedgerAttempts;
  /** A person's decisions on a movement: an operator's retry, resolve and cancel, a casino's redelivery. */
  readonly decisions: LedgerDecisions;

  constructor(deps: { clock: Clock }) {
    this.#clock = deps.clock;
    this.attempts = new LedgerAttempts({
      clock: deps.clock,
      lockBets: (tx, betIds) => this.lockBets(tx, betIds),
      countedLate: () => this.#countedLate,
    });
    this.decisions = new LedgerDecisions({ clock: deps.clock, countedLate: () => this.#countedLate });
  }

  /** Betting locks its bets' rows, the first step of the lock order (locks.ts). */
  lockBetsWith(lock: BetRowLock): void {
    this.#lockRows = lock;
  }

  /** Betting owes a bet its due when one of its movements counts late (see CountedLate). */
  whenCountedLate(hook: CountedLate): void {
    this.#countedLate = hook;
  }

  // ---- the lock order: every decision on a bet's money starts here ----

  /**
   * Locks bets for a decision on their money: each bet's row (in id order), then its obligations FOR UPDATE. Only a
   * bet that exists is in the answer.
   */
  lockBets(tx: Tx, betIds: string[]): Promise<Map<string, LockedBet>> {
    return lockBets(tx, betIds, this.#lockRows);
  }

  /** Locks one obligation for a decision on it, its bet first (lockBets). Undefined when there is none. */
  lockObligation(tx: Tx, id: string): Promise<LockedObligation | undefined> {
    return lockObligation(tx, id, this.#lockRows);
  }

  // ---- owing ----

  /**
   * The stake debit, recorded with the pending bet as a part of the placement's statement (`name`, written only if
   * the part `gate` wrote the bet); the placement sends it once (state `sending`).
   */
  oweStake(name: string, stake: Stake, gate: string): { obligation: WalletObligation; part: StatementPart } {
    const row = obligationRow(this.#clock.now(), {
      tenantId: stake.tenantId,
      walletUrl: stake.walletUrl,
      playerId: stake.playerId,
      betId: stake.betId,
      sequence: 1,
      endpoint: 'debit',
      status: 'sending',
      movement: {
        txId: `bet:${stake.betId}`,
        playerId: stake.externalPlayerId,
        amount: stake.amount,
        currency: stake.currency,
        kind: 'bet',
        betId: stake.betId,
      },
    });
    return { obligation: row, part: store.insertObligationsPart(name, [row], gate) };
  }

  /**
   * The rollback of a bet's stake (`rollback:bet:<betId>`, ref `bet:<betId>`): the same amount, player, currency
   * and wallet as the stake. Delivered by the engine after the caller commits.
   */
  async oweRollbackOfStake(bet: LockedBet): Promise<WalletObligation> {
    const stake = bet.stake;
    const row = postingRow(this.#clock.now(), bet, 'rollback', {
      txId: `rollback:bet:${bet.betId}`,
      kind: 'rollback',
      amount: stake.amount,
      ref: stake.tx_id,
    });
    await store.insertObligations(bet.tx, [row]);
    bet.wrote(row);
    return row;
  }

  /**
   * Movements owed on locked bets, in one go (a settlement owes thousands) in their decision's transaction. Each gets
   * the next sequence of its bet, so postings of a bet go out in the order they were owed; the bets' accounts count
   * them at once.
   */
  async oweOnBets(items: Array<{ bet: LockedBet; movement: BetMovement }>): Promise<WalletObligation[]> {
    if (items.length === 0) return [];
    const tx = items[0]!.bet.tx;
    const now = this.#clock.now();
    const rows = items.map(({ bet, movement }) => {
      if (bet.tx !== tx) throw new Error('movements owed together belong to one decision: one transaction');
      const row = postingRow(now, bet, movement.endpoint, movement);
      bet.wrote(row);
      return row;
    });
    await store.insertObligations(tx, rows);
    return rows;
  }

  /**
   * A resettlement (`by`: `result:<marketId>:<version>`) supersedes the bet's settlement postings that are not
   * settled yet, which then no longer count in its account; the correction is owed against what does. Confirmed
   * cash-outs are never touched. What the rules know of each decides what becomes of it:
   *
   * - every answer the wallet gave it was a refusal (which it keeps under the txId, and every repeat gets), and no
   *   claim on it is alive or unanswered: nothing moved or ever will, so it is cancelled by rule;
   * - otherwise it stops, held for review (obsolete credit or debit). A claim in flight is kept: the attempt's answer
   *   is still recorded, and decides (LedgerAttempts.recordSuperseded).
   */
  async supersede(bet: LockedBet, by: string): Promise<WalletObligation[]> {
    const now = this.#clock.now();
    const unresolved = bet.postings.filter(
      (posting) =>
        (SETTLEMENT_KINDS as readonly string[]).includes(posting.kind) &&
        (posting.status === 'pending' || posting.status === 'held'),
    );
    const refused = await this.#refusedForGood(bet.tx, unresolved, now);
    for (const posting of unresolved) {
      if (refused.has(posting.id)) {
        await movePosting(
          bet,
          now,
          posting,
          'cancelled',
          { resolved_at: now, superseded_by: by, claimed_until: null },
          {
            actor: SETTLEMENT,
            cause: 'superseded',
            note: `superseded by ${by}; the wallet refused it and keeps that refusal under its txId: nothing moved`,
          },
        );
        continue;
      }
      const reason =
        posting.endpoint === 'credit' ? 'obsolete_credit_requires_review' : 'obsolete_debit_requires_review';
      if (posting.hold_reason === reason) continue;
      const sent = requestMayHaveLeft(posting) ? 'it may have reached the wallet' : 'no request for it ever left';
      await movePosting(
        bet,
        now,
        posting,
        'held',
        { hold_reason: reason, last_outcome: 'superseded', superseded_by: by },
        { actor: SETTLEMENT, cause: 'superseded', note: `superseded by ${by}; ${sent}` },
      );
    }
    return unresolved;
  }

  /**
   * The bet's settlement postings owed on a premise that no longer holds and never sent (no claim, no attempt)
   * are cancelled, so that one exact correction replaces them: nothing of them can have reached the wallet. One
   * that a claim reached first is left, and still counts (the claim's lock is ours, so none can start meanwhile).
   */
  async cancelUnsent(bet: LockedBet, why: string): Promise<void> {
    const now = this.#clock.now();
    const unsent = bet.postings.filter(
      (posting) =>
        (SETTLEMENT_KINDS as readonly string[]).includes(posting.kind) &&
        posting.status === 'pending' &&
        !requestMayHaveLeft(posting),
    );
    for (const posting of unsent) {
      await movePosting(
        bet,
        now,
        posting,
        'cancelled',
        { resolved_at: now, last_outcome: 'replaced', claimed_until: null },
        { actor: SETTLEMENT, cause: 'replaced', note: why },
      );
    }
  }

  /** An operator's manual credit or debit (`adjustment:<id>`), following the debit rules like a correction. */
  async oweAdjustment(
    tx: Tx,
    adjustment: {
      id: string;
      tenantId: string;
      walletUrl: string;
      currency: string;
      playerId: string;
      externalPlayerId: string;
      direction: 'credit' | 'debit';
      amount: number;
    },
  ): Promise<WalletObligation> {
    const row = obligationRow(this.#clock.now(), {
      tenantId: adjustment.tenantId,
      walletUrl: adjustment.walletUrl,
      playerId: adjustment.playerId,
      betId: null,
      sequence: 1,
      endpoint: adjustment.direction,
      status: 'pending',
      movement: {
        txId: `adjustment:${adjustment.id}`,
        playerId: adjustment.externalPlayerId,
        amount: adjustment.amount,
        currency: adjustment.currency,
        kind: 'adjustment',
      },
    });
    await store.insertObligations(tx, [row]);
    return row;
  }

  // ---- the delivery engine's claims ----

  claimDue(q: Queryable, slots: deliveryStore.ClaimSlots): Promise<WalletObligation[]> {
    return deliveryStore.claimDue(q, slots);
  }

  releaseClaims(q: Queryable): Promise<void> {
    return deliveryStore.releaseClaims(q);
  }

  giveBackClaim(q: Queryable, obligation: WalletObligation): Promise<void> {
    return deliveryStore.giveBackClaim(q, obligation);
  }

  // ---- reading, for the other domains ----

  find(q: Queryable, id: string): Promise<WalletObligation | undefined> {
    return store.findObligation(q, id);
  }

  /**
   * What each bet's settlement postings that count add up to as its next settlement would count them (a locked bet's
   * `settledFor` a later version), read without a lock: for offers and views, never for a decision.
   */
  async settledSums(q: Queryable, betIds: string[]): Promise<Map<string, number>> {
    const sums = new Map<string, number>();
    for (const posting of await store.obligationsOfBets(q, betIds)) {
      const worth = countsAsSettled(posting) ? worthAt(posting, Number.POSITIVE_INFINITY) : 0;
      const sum = (sums.get(posting.bet_id!) ?? 0) + worth;
      sums.set(posting.bet_id!, sum);
    }
    return sums;
  }

  /** The wallet postings of bets, in delivery order. */
  postingsOfBets(q: Queryable, betIds: string[]): Promise<WalletObligation[]> {
    return store.obligationsOfBets(q, betIds);
  }

  /**
   * The postings that never moved and never will: the wallet refused them, and that proves it. By the contract a
   * wallet keeps a refusal under the txId and answers every repeat with it; but a refusal given before the txId was
   * looked at (a bad signature, say) proves nothing of an earlier attempt that may have applied. So: its last answer
   * a refusal, no claim on it alive, every claim of it answered (none whose request may have left unrecorded), and
   * every answer of its call log a refusal (or nothing sent).
   */
  async #refusedForGood(tx: Tx, postings: WalletObligation[], now: Date): Promise<Set<string>> {
    const candidates = postings.filter((posting) => {
      const claimAlive = posting.claimed_until !== null && posting.claimed_until > now;
      return posting.last_outcome === 'refused' && !claimAlive && posting.claims <= posting.attempts;
    });
    if (candidates.length === 0) return new Set();
    const unproven = await deliveryStore.withAnswersOtherThanRefusal(
      tx,
      candidates.map((posting) => posting.id),
    );
    return new Set(candidates.filter((posting) => !unproven.has(posting.id)).map((posting) => posting.id));
  }
}
