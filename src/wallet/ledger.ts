import { randomBytes } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Clock } from '../platform/clock.ts';
import type { Queryable, Tx } from '../platform/db/database.ts';
import type { StatementPart } from '../platform/db/one-statement.ts';
import type { WalletObligation, WalletObligationsTable } from './tables.ts';
import type { WalletAttempt } from './client.ts';
import {
  confirmation,
  deliveryChange,
  noteOf,
  requestMayHaveLeft,
  supersededDeliveryChange,
} from './delivery-table.ts';
import { movementBody, type Movement, type ObligationKind } from './movement.ts';
import {
  type OBLIGATION_ENDPOINTS,
  checkTransition,
  isObsolete,
  LostRaceError,
  type HistoryActor,
  type HoldReason,
  type ObligationState,
} from './states.ts';
import * as store from './store.ts';

const newObligationId = () => `ob_${randomBytes(8).toString('hex')}`;

export type ObligationEndpoint = (typeof OBLIGATION_ENDPOINTS)[number];

/** The movements that settle a bet's standing stake: the first settlement, and its corrections. */
export const SETTLEMENT_KINDS = ['payout', 'refund', 'resettle'] as const satisfies readonly ObligationKind[];

/** The stake debit of a bet, as the placement knows it. */
export interface Stake {
  tenantId: string;
  betId: string;
  /** Where the stake goes; every later posting of the bet belongs to the same wallet. */
  walletUrl: string;
  currency: string;
  /** Our id of the player. */
  playerId: string;
  /** The casino's id of the player: the playerId of the wallet call. */
  externalPlayerId: string;
  amount: number;
}

/** A bet's standing in the ledger, read once by a settlement or a cash-out and kept current as it owes more. */
export interface BetAccount {
  betId: string;
  /** The stake debit: tenant, wallet, player and currency of every posting of the bet. */
  stake: WalletObligation;
  lastSequence: number;
  /** Corrections (resettle postings) so far: the next one is number corrections + 1. */
  corrections: number;
  /**
   * What the settlement postings that count add up to (credits plus, debits minus): delivered, owed, done by an
   * operator, or held for any reason but obsolescence. A resettlement owes the difference to this.
   */
  settled: number;
}

/** A movement owed on a bet; player, currency and wallet come from the bet's stake. */
export interface BetMovement {
  kind: Exclude<ObligationKind, 'bet' | 'rollback' | 'adjustment'>;
  endpoint: 'credit' | 'debit';
  txId: string;
  amount: number;
  ref?: string;
}

/** What one delivery attempt of an owed movement proved, and when to try again if it proved nothing. */
export interface Delivery {
  obligation: WalletObligation;
  attempt: WalletAttempt;
  nextAttemptAt: Date;
}

/** An operator's decision on a held obligation. */
export interface Review {
  staffId: string;
  reason: string | null;
}

/**
 * What betting does when a movement of a bet counts after all, having not counted before (an operator resolved it,
 * or the wallet confirmed it after a resettlement had superseded it), inside the transaction that records it:
 * `lockBets` first, before any obligation of theirs is written (the order a settlement takes, so the two never
 * deadlock), then `reconcile`: the bet owes what is due now (betting's Settlement.reconcile).
 */
export interface CountedLate {
  lockBets(tx: Tx, betIds: string[]): Promise<void>;
  reconcile(tx: Tx, obligation: WalletObligation): Promise<void>;
}

/** What recording a batch of attempts did: the new state of each obligation that moved, and the answers left over. */
export interface RecordedDeliveries {
  states: Map<string, ObligationState>;
  /** Attempts whose obligation changed meanwhile (a resettlement may have superseded it): see recordSuperseded. */
  lost: Delivery[];
}

const DELIVERY: HistoryActor = { type: 'system', id: 'delivery' };
const SETTLEMENT: HistoryActor = { type: 'system', id: 'settlement' };

/**
 * The ledger of obligations: money owed to or by a wallet. The only writer of wallet_obligations. Obligations are
 * created inside the caller's transaction or statement, before any call (row first, call second), and every change
 * of state goes through a guarded move: it must be in OBLIGATION_TRANSITIONS (states.ts), and the row must still be
 * what the writer read, state and attempt count both, or the move throws LostRaceError (IncompleteStatementError
 * for a move made as a part of a statement, which then writes nothing).
 */
export class Ledger {
  readonly #clock: Clock;
  #countedLate: CountedLate = { lockBets: async () => {}, reconcile: async () => {} };

  constructor(deps: { clock: Clock }) {
    this.#clock = deps.clock;
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
    const row = this.#row({
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
    const [row] = this.#rowsForBets([
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
    const rows = this.#rowsForBets(
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
    const row = this.#row({
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

  // ---- what attempts proved ----

  /**
   * What the one attempt of a stake debit proved, with the call's log line, as parts of a statement (`name`; the
   * statement writes nothing if the stake moved first). A stake the transport never sent is refused like one the
   * wallet refused: nothing moved, so nothing is rolled back.
   */
  stakeOutcome(
    q: Queryable,
    name: string,
    stake: WalletObligation,
    attempt: WalletAttempt,
  ): { recorded: WalletObligation; parts: StatementPart[] } {
    const now = this.#clock.now();
    const to: ObligationState =
      attempt.outcome === 'applied' ? 'applied' : attempt.outcome === 'unknown' ? 'unknown' : 'refused';
    checkTransition(stake.status, to);
    const lastOutcome =
      attempt.outcome === 'applied' || attempt.outcome === 'refused' ? attempt.outcome : attempt.reason;
    const changes = {
      ...attempted(stake, lastOutcome),
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
    const parts = store.moveObligationParts(q, name, move, store.callOfObligation(stake, attempt, now), why);
    return { recorded: { ...stake, ...changes }, parts };
  }

  /** A stake whose attempt was interrupted (crash, lost database) has an unknown outcome. */
  async markStakeInterrupted(tx: Tx, betId: string, reason: string): Promise<void> {
    const [stake] = await store.stakesOfBets(tx, [betId]);
    if (!stake) return;
    await this.#move(
      tx,
      stake,
      'unknown',
      { last_outcome: reason, resolved_at: this.#clock.now() },
      { actor: { type: 'system', id: 'recovery' }, cause: reason, note: 'its one attempt was interrupted' },
    );
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
    const now = this.#clock.now();
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
   * Attempts whose obligation changed while they were in flight, in a transaction of their own (their bets are
   * locked first). One that a resettlement superseded keeps what the wallet answered all the same: applied, it
   * counts, and the bet owes the difference at once; refused, nothing moved and it is no longer owed; anything else
   * leaves it held, with the attempt on its count. Any other change (another writer recorded an attempt) wins, and
   * the answer is not recorded: the map holds only those recorded.
   */
  async recordSuperseded(tx: Tx, lost: Delivery[]): Promise<Map<string, ObligationState>> {
    const now = this.#clock.now();
    const betIds = [...new Set(lost.flatMap(({ obligation }) => (obligation.bet_id ? [obligation.bet_id] : [])))];
    await this.#countedLate.lockBets(tx, betIds.sort());
    const ids = lost.map(({ obligation }) => obligation.id);
    const current = new Map((await store.findObligations(tx, ids)).map((row) => [row.id, row]));
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
      if (change.status === 'applied') await this.#countedLate.reconcile(tx, { ...row, status: 'applied' });
    }
    return states;
  }

  /** Stops automatic delivery without an attempt: the obligation waits for an operator. */
  async hold(q: Queryable, obligation: WalletObligation, reason: HoldReason): Promise<void> {
    await this.#move(
      q,
      obligation,
      'held',
      { hold_reason: reason, last_outcome: reason, claimed_until: null },
      { actor: DELIVERY, cause: reason, note: null },
    );
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

  // ---- the delivery engine's claims ----

  claimDue(q: Queryable, slots: store.ClaimSlots): Promise<WalletObligation[]> {
    return store.claimDue(q, slots);
  }

  releaseClaims(q: Queryable): Promise<void> {
    return store.releaseClaims(q);
  }

  // ---- reading ----

  find(q: Queryable, id: string): Promise<WalletObligation | undefined> {
    return store.findObligation(q, id);
  }

  findMany(q: Queryable, ids: string[]): Promise<WalletObligation[]> {
    return store.findObligations(q, ids);
  }

  /** The wallet postings of bets, in delivery order. */
  postingsOfBets(q: Queryable, betIds: string[]): Promise<WalletObligation[]> {
    return store.obligationsOfBets(q, betIds);
  }

  list(q: Queryable, filter: store.ObligationFilter): Promise<WalletObligation[]> {
    return store.listObligations(q, filter);
  }

  callsOf(q: Queryable, obligationIds: string[], perObligation: number) {
    return store.callsOf(q, obligationIds, perObligation);
  }

  historyOf(q: Queryable, obligationIds: string[]) {
    return store.historyOf(q, obligationIds);
  }

  confirmedTotals(q: Queryable, tenantId: string, from: Date, to: Date) {
    return store.confirmedTotals(q, tenantId, from, to);
  }

  // ---- the two ways in ----

  async #move(
    q: Queryable,
    obligation: WalletObligation,
    to: ObligationState,
    changes: Omit<Updateable<WalletObligationsTable>, 'status'>,
    why: Omit<store.Change, 'at'>,
  ): Promise<WalletObligation> {
    checkTransition(obligation.status, to);
    const seen = { status: obligation.status, attempts: obligation.attempts };
    const change = { ...why, at: this.#clock.now() };
    if (!(await store.moveObligation(q, obligation.id, seen, { ...changes, status: to }, change))) {
      throw new LostRaceError(obligation.id, obligation.status);
    }
    // The guarded update wrote exactly these changes over the row as read.
    return { ...obligation, ...changes, status: to };
  }

  #rowsForBets(
    items: Array<{
      account: BetAccount;
      endpoint: ObligationEndpoint;
      movement: Omit<Movement, 'playerId' | 'currency'>;
    }>,
  ): WalletObligation[] {
    return items.map(({ account, endpoint, movement }) => {
      const stake = account.stake;
      const { playerId, currency } = JSON.parse(stake.body) as Movement;
      account.lastSequence += 1;
      return this.#row({
        tenantId: stake.tenant_id,
        walletUrl: stake.wallet_url,
        playerId: stake.player_id,
        betId: account.betId,
        sequence: account.lastSequence,
        endpoint,
        status: 'pending',
        movement: { ...movement, playerId, currency, betId: account.betId },
      });
    });
  }

  #row(spec: {
    tenantId: string;
    walletUrl: string;
    playerId: string;
    betId: string | null;
    sequence: number;
    endpoint: ObligationEndpoint;
    status: 'sending' | 'pending';
    movement: Movement;
  }): WalletObligation {
    const now = this.#clock.now();
    return {
      id: newObligationId(),
      tenant_id: spec.tenantId,
      bet_id: spec.betId,
      player_id: spec.playerId,
      sequence: spec.sequence,
      tx_id: spec.movement.txId,
      endpoint: spec.endpoint,
      wallet_url: spec.walletUrl,
      kind: spec.movement.kind as ObligationKind,
      amount: spec.movement.amount,
      body: movementBody(spec.movement),
      status: spec.status,
      hold_reason: null,
      attempts: 0,
      last_outcome: null,
      operator_code: null,
      next_attempt_at: now,
      created_at: now,
      resolved_at: null,
      claimed_until: null,
      reviewed_by: null,
      review_reason: null,
      claims: 0,
      confirmed_tx_id: null,
      confirmed_balance: null,
      superseded_by: null,
    };
  }
}

/** An attempt was made: one more on the count, and what it said. */
function attempted(obligation: WalletObligation, lastOutcome: string) {
  return { attempts: obligation.attempts + 1, last_outcome: lastOutcome };
}

/** A settlement posting's worth to the player: credits plus, debits minus. */
function signed(posting: Pick<WalletObligation, 'endpoint' | 'amount'>): number {
  return posting.endpoint === 'credit' ? posting.amount : -posting.amount;
}

function byStaff(action: string, review: Review): Omit<store.Change, 'at'> {
  return { actor: { type: 'staff', id: review.staffId }, cause: action, note: review.reason };
}

function reviewed(review: Review) {
  return { reviewed_by: review.staffId, review_reason: review.reason, claimed_until: null };
}
