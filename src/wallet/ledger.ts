import type { Updateable } from 'kysely';
import type { Clock } from '../platform/clock.ts';
import type { Queryable, Tx } from '../platform/db/database.ts';
import type { StatementPart } from '../platform/db/one-statement.ts';
import type { WalletObligation, WalletObligationsTable } from './tables.ts';
import { requestMayHaveLeft } from './delivery-table.ts';
import { LedgerAttempts, type CountedLate } from './ledger-attempts.ts';
import {
  type BetAccount,
  type BetMovement,
  moveGuarded,
  obligationRow,
  rowsForBets,
  SETTLEMENT_KINDS,
  signed,
  type Stake,
} from './ledger-rows.ts';
import { isObsolete, type HistoryActor, type ObligationState } from './states.ts';
import * as store from './store.ts';

/** An operator's decision on a held obligation. */
export interface Review {
  staffId: string;
  reason: string | null;
}

const SETTLEMENT: HistoryActor = { type: 'system', id: 'settlement' };
/** The integration API, on the casino's request. */
const CASINO: HistoryActor = { type: 'system', id: 'integration' };

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
  #countedLate: CountedLate = { lockBets: async () => {}, reconcile: async () => {} };
  /** Records what attempts proved: a stake's one attempt, and the delivery engine's. */
  readonly attempts: LedgerAttempts;

  constructor(deps: { clock: Clock }) {
    this.#clock = deps.clock;
    this.attempts = new LedgerAttempts({ clock: deps.clock, countedLate: () => this.#countedLate });
  }

  /** Betting owes a bet its due when one of its movements counts late (see CountedLate). */
  whenCountedLate(hook: CountedLate): void {
    this.#countedLate = hook;
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
  async oweRollbackOfStake(tx: Tx, betId: string): Promise<WalletObligation> {
    const account = (await this.accountsOf(tx, [betId])).get(betId);
    if (!account) throw new Error(`bet ${betId} has no stake debit to roll back`);
    const stake = account.stake;
    const [row] = rowsForBets(this.#clock.now(), [
      {
        account,
        endpoint: 'rollback',
        movement: { txId: `rollback:bet:${betId}`, kind: 'rollback', amount: stake.amount, ref: stake.tx_id },
      },
    ]);
    await store.insertObligations(tx, [row!]);
    return row!;
  }

  /** The accounts of bets that have a stake debit. */
  async accountsOf(q: Queryable, betIds: string[]): Promise<Map<string, BetAccount>> {
    const stakes = await store.stakesOfBets(q, betIds);
    const totals = new Map((await store.settlementTotals(q, betIds)).map((row) => [row.bet_id, row]));
    return new Map(
      stakes.map((stake) => {
        const total = totals.get(stake.bet_id!);
        const account: BetAccount = {
          betId: stake.bet_id!,
          stake,
          lastSequence: total?.last_sequence ?? 1,
          corrections: total?.corrections ?? 0,
          settled: total?.settled ?? 0,
        };
        return [account.betId, account];
      }),
    );
  }

  /**
   * Movements owed on bets, in one go (a settlement owes thousands). Each gets the next sequence of its bet, so
   * postings of a bet go out in the order they were owed; the accounts are kept current.
   */
  async oweOnBets(tx: Tx, items: Array<{ account: BetAccount; movement: BetMovement }>): Promise<WalletObligation[]> {
    const rows = rowsForBets(
      this.#clock.now(),
      items.map(({ account, movement }) => ({ account, endpoint: movement.endpoint, movement })),
    );
    await store.insertObligations(tx, rows);
    for (const { account, movement } of items) {
      if (movement.kind === 'resettle') account.corrections += 1;
      if ((SETTLEMENT_KINDS as readonly string[]).includes(movement.kind)) {
        account.settled += movement.endpoint === 'credit' ? movement.amount : -movement.amount;
      }
    }
    return rows;
  }

  /**
   * A resettlement (`by`: `result:<marketId>:<version>`) supersedes the bet's settlement postings that are not
   * settled yet: they stop, held for review (obsolete credit or debit), and no longer count in the account; the
   * correction is owed against what does. A claim in flight is kept: the attempt's answer is still recorded, and
   * decides (ledger.recordDeliveries). Confirmed cash-outs are never touched.
   */
  async supersede(tx: Tx, account: BetAccount, by: string): Promise<WalletObligation[]> {
    const unresolved = await store.unresolvedSettlementPostings(tx, account.betId);
    for (const posting of unresolved) {
      const reason =
        posting.endpoint === 'credit' ? 'obsolete_credit_requires_review' : 'obsolete_debit_requires_review';
      if (posting.hold_reason === reason) continue;
      const sent = requestMayHaveLeft(posting) ? 'it may have reached the wallet' : 'no request for it ever left';
      await this.#move(
        tx,
        posting,
        'held',
        { hold_reason: reason, last_outcome: 'superseded', superseded_by: by },
        { actor: SETTLEMENT, cause: 'superseded', note: `superseded by ${by}; ${sent}` },
      );
      if (!isObsolete(posting.hold_reason)) {
        account.settled -= signed(posting);
      }
    }
    return unresolved;
  }

  /**
   * The bet's settlement postings owed on a premise that no longer holds and never sent (no claim, no attempt)
   * are cancelled, so that one exact correction replaces them: nothing of them can have reached the wallet. One
   * that a claim reaches first is left, and still counts.
   */
  async cancelUnsent(tx: Tx, account: BetAccount, why: string): Promise<void> {
    for (const posting of await store.unsentSettlementPostings(tx, account.betId)) {
      const cancelled = await store.moveObligation(
        tx,
        posting.id,
        { status: 'pending', attempts: 0, claims: 0 },
        { status: 'cancelled', resolved_at: this.#clock.now(), last_outcome: 'replaced', claimed_until: null },
        { at: this.#clock.now(), actor: SETTLEMENT, cause: 'replaced', note: why },
      );
      if (cancelled) account.settled -= signed(posting);
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

  // ---- an operator's decisions on held obligations ----

  /** Delivery resumes with the same txId and body, to the same wallet, now. */
  async retry(q: Queryable, obligation: WalletObligation, review: Review): Promise<void> {
    const changes = { hold_reason: null, next_attempt_at: this.#clock.now(), ...reviewed(review) };
    await this.#move(q, obligation, 'pending', changes, byStaff('retry', review));
  }

  /** The movement was done outside the service (the casino confirms it): it counts as applied. */
  async resolve(tx: Tx, obligation: WalletObligation, review: Review): Promise<void> {
    if (obligation.bet_id) await this.#countedLate.lockBets(tx, [obligation.bet_id]);
    const changes = { resolved_at: this.#clock.now(), ...reviewed(review) };
    const resolved = await this.#move(tx, obligation, 'resolved', changes, byStaff('resolve', review));
    await this.#countedLate.reconcile(tx, resolved);
  }

  /** The movement is not owed and never happened: it counts for nothing, and nothing replaces it. */
  async cancel(q: Queryable, obligation: WalletObligation, review: Review): Promise<void> {
    const changes = { resolved_at: this.#clock.now(), ...reviewed(review) };
    await this.#move(q, obligation, 'cancelled', changes, byStaff('cancel', review));
  }

  // ---- the casino's redelivery (integration API) ----

  /**
   * The casino asks for a movement now: the same row, so the same txId, body and wallet. An owed one becomes due at
   * once (its attempts, schedule and any live claim kept); a failed one (held: the wallet or its address refused it)
   * is owed again and due at once, its hold reason cleared, as an operator's retry does. The caller checks the retry
   * rule (retry-rule.ts) and that no attempt is on its way.
   */
  async redeliverNow(q: Queryable, obligation: WalletObligation): Promise<WalletObligation> {
    const now = this.#clock.now();
    const why = { actor: CASINO, cause: 'redelivery', note: "asked by the casino's server (integration API)" };
    if (obligation.status === 'held') {
      return this.#move(
        q,
        obligation,
        'pending',
        { hold_reason: null, next_attempt_at: now, claimed_until: null },
        why,
      );
    }
    return this.#move(q, obligation, 'pending', { next_attempt_at: now }, why);
  }

  // ---- the delivery engine's claims ----

  claimDue(q: Queryable, slots: store.ClaimSlots): Promise<WalletObligation[]> {
    return store.claimDue(q, slots);
  }

  releaseClaims(q: Queryable): Promise<void> {
    return store.releaseClaims(q);
  }

  giveBackClaim(q: Queryable, obligation: WalletObligation): Promise<void> {
    return store.giveBackClaim(q, obligation);
  }

  // ---- reading, for the other domains ----

  find(q: Queryable, id: string): Promise<WalletObligation | undefined> {
    return store.findObligation(q, id);
  }

  /** The wallet postings of bets, in delivery order. */
  postingsOfBets(q: Queryable, betIds: string[]): Promise<WalletObligation[]> {
    return store.obligationsOfBets(q, betIds);
  }

  confirmedTotals(q: Queryable, tenantId: string, from: Date, to: Date) {
    return store.confirmedTotals(q, tenantId, from, to);
  }

  #move(
    q: Queryable,
    obligation: WalletObligation,
    to: ObligationState,
    changes: Omit<Updateable<WalletObligationsTable>, 'status'>,
    why: Omit<store.Change, 'at'>,
  ): Promise<WalletObligation> {
    return moveGuarded(q, this.#clock.now(), obligation, to, changes, why);
  }
}

function byStaff(action: string, review: Review): Omit<store.Change, 'at'> {
  return { actor: { type: 'staff', id: review.staffId }, cause: action, note: review.reason };
}

function reviewed(review: Review) {
  return { reviewed_by: review.staffId, review_reason: review.reason, claimed_until: null };
}
