import type { Tx } from '../../platform/db/database.ts';
import type { Updateable } from 'kysely';
import { countsAsSettled, moveGuarded, worthAt, type BetAccount } from './rows.ts';
import type { ObligationState } from '../states.ts';
import type { WalletObligation, WalletObligationsTable } from '../tables.ts';
import type { Change } from './store.ts';
import * as store from './store.ts';

/**
 * The lock order of every decision on a bet's money (docs/ledger.md, "The lock order"): the bet's row first, then its
 * obligations FOR UPDATE, bets in id order and obligations in (bet, sequence) order, in the transaction that decides.
 * A decision made without them does not type-check: the ledger's deciding functions take a LockedBet (or a
 * LockedObligation), and only this module makes one. Both classes are exported as types only, and their private
 * fields keep any other object from passing for one.
 */

/** Locks bets' rows, in the order given (id order): betting's to do, since the bets are its (Ledger.lockBetsWith). */
export type BetRowLock = (tx: Tx, betIds: string[]) => Promise<void>;

/**
 * A bet whose money this transaction may decide: its row and then its obligations are locked. Its account (stake,
 * sequence, corrections, what its settlement postings add up to) is computed from those obligations as this
 * transaction knows them: read under the lock, then every posting the ledger owes or moves for it.
 */
class LockedBet implements BetAccount {
  readonly #tx: Tx;
  readonly betId: string;
  readonly #postings: WalletObligation[];

  constructor(tx: Tx, betId: string, postings: WalletObligation[]) {
    this.#tx = tx;
    this.betId = betId;
    this.#postings = postings;
  }

  /** The transaction that holds the locks: every write of the decision goes through it. */
  get tx(): Tx {
    return this.#tx;
  }

  /** Its obligations in delivery order, as this transaction knows them. */
  get postings(): readonly WalletObligation[] {
    return this.#postings;
  }

  get stake(): WalletObligation {
    return this.#postings.find((posting) => posting.kind === 'bet')!;
  }

  get lastSequence(): number {
    return this.#postings.reduce((last, posting) => Math.max(last, posting.sequence), 0);
  }

  get corrections(): number {
    return this.#postings.filter((posting) => posting.kind === 'resettle').length;
  }

  settledFor(version: number): number {
    return this.#postings.reduce((sum, posting) => sum + (countsAsSettled(posting) ? worthAt(posting, version) : 0), 0);
  }

  /** The ledger wrote this posting (owed it, or moved it) in the deciding transaction. */
  wrote(posting: WalletObligation): void {
    const index = this.#postings.findIndex((known) => known.id === posting.id);
    if (index >= 0) this.#postings[index] = posting;
    else this.#postings.push(posting);
  }
}
export type { LockedBet };

/** A held or owed movement an operator or the casino decides on, read under the lock order (its bet's first). */
class LockedObligation {
  readonly #tx: Tx;
  /** The row as read under the lock: nobody else can change it before the deciding transaction ends. */
  readonly obligation: WalletObligation;
  /** Its bet, locked first; null for a movement of no bet (an adjustment). */
  readonly bet: LockedBet | null;

  constructor(tx: Tx, obligation: WalletObligation, bet: LockedBet | null) {
    this.#tx = tx;
    this.obligation = obligation;
    this.bet = bet;
  }

  get tx(): Tx {
    return this.#tx;
  }
}
export type { LockedObligation };

/**
 * Locks the bets (their rows through `lockRows`, then their obligations) and answers each bet that has a stake; a bet
 * that does not exist is absent.
 */
export async function lockBets(tx: Tx, betIds: string[], lockRows: BetRowLock): Promise<Map<string, LockedBet>> {
  const ids = [...new Set(betIds)].sort();
  if (ids.length === 0) return new Map();
  await lockRows(tx, ids);
  const postings = new Map<string, WalletObligation[]>();
  for (const posting of await store.lockObligationsOfBets(tx, ids)) {
    const ofBet = postings.get(posting.bet_id!);
    if (ofBet) ofBet.push(posting);
    else postings.set(posting.bet_id!, [posting]);
  }
  const locked = new Map<string, LockedBet>();
  for (const [betId, rows] of postings) {
    if (rows.some((row) => row.kind === 'bet')) locked.set(betId, new LockedBet(tx, betId, rows));
  }
  return locked;
}

/**
 * Locks an obligation under the lock order: its bet (row, then every obligation of it) first when it has one, else the
 * obligation alone. Undefined when there is no such obligation.
 */
export async function lockObligation(tx: Tx, id: string, lockRows: BetRowLock): Promise<LockedObligation | undefined> {
  // Which bet to lock first: an obligation's bet never changes, so an unlocked read is enough to know it.
  const found = await store.findObligation(tx, id);
  if (!found) return undefined;
  if (found.bet_id === null) {
    const row = await store.lockObligation(tx, id);
    return row && new LockedObligation(tx, row, null);
  }
  const bet = (await lockBets(tx, [found.bet_id], lockRows)).get(found.bet_id)!;
  return new LockedObligation(
    tx,
    bet.postings.find((posting) => posting.id === id)!,
    bet,
  );
}

/**
 * A guarded move (rows.ts moveGuarded) of an obligation a decision holds under the lock order, in its transaction: a
 * posting of a locked bet, which then counts it as moved, or a movement of no bet.
 */
export async function movePosting(
  locked: LockedBet | LockedObligation,
  now: Date,
  obligation: WalletObligation,
  to: ObligationState,
  changes: Omit<Updateable<WalletObligationsTable>, 'status'>,
  why: Omit<Change, 'at'>,
): Promise<WalletObligation> {
  const moved = await moveGuarded(locked.tx, now, obligation, to, changes, why);
  const bet = locked instanceof LockedBet ? locked : locked.bet;
  bet?.wrote(moved);
  return moved;
}
