import { randomBytes } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { WalletObligation, WalletObligationsTable } from '../tables.ts';
import { movementBody, type Movement, type ObligationKind } from './movement.ts';
import {
  type OBLIGATION_ENDPOINTS,
  checkTransition,
  isObsolete,
  LostRaceError,
  type ObligationState,
} from '../states.ts';
import * as store from './store.ts';

/**
 * An obligation's row: how the ledger builds one, and the one guarded way it moves. Only the ledger's files
 * (ledger.ts, ledger-attempts.ts) use these; test/architecture.test.ts holds them to it.
 */

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

/**
 * A bet's standing in the ledger, from its obligations as its decision locked them (locks.ts LockedBet), kept current
 * as the decision owes and moves them.
 */
export interface BetAccount {
  readonly betId: string;
  /** The stake debit: tenant, wallet, player and currency of every posting of the bet. */
  readonly stake: WalletObligation;
  readonly lastSequence: number;
  /** Corrections (resettle postings) so far: the next one is number corrections + 1. */
  readonly corrections: number;
  /**
   * What the settlement postings that count add up to (credits plus, debits minus) for a settlement at `version`:
   * delivered, owed, done by an operator, or held for any reason but obsolescence, each for its worth at that
   * version (worthAt). A settlement owes the difference to this.
   */
  settledFor(version: number): number;
}

/** A movement owed on a bet; player, currency and wallet come from the bet's stake. */
export interface BetMovement {
  kind: Exclude<ObligationKind, 'bet' | 'rollback' | 'adjustment'>;
  endpoint: 'credit' | 'debit';
  txId: string;
  amount: number;
  ref?: string;
}

export interface RowSpec {
  tenantId: string;
  walletUrl: string;
  playerId: string;
  betId: string | null;
  sequence: number;
  endpoint: ObligationEndpoint;
  status: 'sending' | 'pending';
  movement: Movement;
}

const newObligationId = () => `ob_${randomBytes(8).toString('hex')}`;

/** A new obligation, due now. */
export function obligationRow(now: Date, spec: RowSpec): WalletObligation {
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
    written_off: null,
  };
}

/**
 * A movement owed on a bet: to the wallet, player and currency of its stake, with the bet's next sequence (the
 * caller records the row in the bet's account before it builds the next).
 */
export function postingRow(
  now: Date,
  account: BetAccount,
  endpoint: ObligationEndpoint,
  movement: Omit<Movement, 'playerId' | 'currency'>,
): WalletObligation {
  const stake = account.stake;
  const { playerId, currency } = JSON.parse(stake.body) as Movement;
  return obligationRow(now, {
    tenantId: stake.tenant_id,
    walletUrl: stake.wallet_url,
    playerId: stake.player_id,
    betId: account.betId,
    sequence: account.lastSequence + 1,
    endpoint,
    status: 'pending',
    movement: { ...movement, playerId, currency, betId: account.betId },
  });
}

/**
 * Whether a posting counts in its bet's settled sum: a settlement posting (payout, refund, correction) delivered,
 * owed, done by an operator, or held for any reason but obsolescence. Cancelled, and superseded, it counts for
 * nothing; the stake, its rollback and cash-outs are not settlement postings.
 */
export function countsAsSettled(posting: Pick<WalletObligation, 'kind' | 'status' | 'hold_reason'>): boolean {
  if (!(SETTLEMENT_KINDS as readonly string[]).includes(posting.kind)) return false;
  if (posting.status === 'held') return !isObsolete(posting.hold_reason);
  return posting.status === 'pending' || posting.status === 'applied' || posting.status === 'resolved';
}

/** A settlement posting's worth to the player: credits plus, debits minus. */
function signed(posting: Pick<WalletObligation, 'endpoint' | 'amount'>): number {
  return posting.endpoint === 'credit' ? posting.amount : -posting.amount;
}

type Posting = Pick<WalletObligation, 'kind' | 'tx_id' | 'endpoint' | 'amount' | 'written_off'>;

/** The settlement version a posting was owed under: a correction's is in its txId (`resettle:<betId>:<version>:<n>`). */
function owedUnderVersion(posting: Pick<WalletObligation, 'kind' | 'tx_id'>): number {
  return posting.kind === 'resettle' ? Number(posting.tx_id.split(':')[2]) : 1;
}

/**
 * A settlement posting's worth to the player in a settlement at `version`. A debit an operator resolved in part
 * (the rest written off) counts whole under the version it was owed for: writing off ended that debt, so nothing
 * more is owed for it. Under a later version it counts only for what was collected: the result it was owed for no
 * longer stands, and the new one is owed against the money that really moved.
 */
export function worthAt(posting: Posting, version: number): number {
  const writtenOff = posting.written_off ?? 0;
  if (writtenOff > 0 && owedUnderVersion(posting) < version) return signed(posting) + writtenOff;
  return signed(posting);
}

/**
 * The one way an obligation changes state: the move must be in OBLIGATION_TRANSITIONS, and the row must still be
 * what the writer read and decided on (state, attempt count, hold reason, claim count), or it throws LostRaceError.
 * Its line of history is written in the same statement.
 */
export async function moveGuarded(
  q: Queryable,
  now: Date,
  obligation: WalletObligation,
  to: ObligationState,
  changes: Omit<Updateable<WalletObligationsTable>, 'status'>,
  why: Omit<store.Change, 'at'>,
): Promise<WalletObligation> {
  checkTransition(obligation.status, to);
  const seen = {
    status: obligation.status,
    attempts: obligation.attempts,
    holdReason: obligation.hold_reason,
    claims: obligation.claims,
  };
  if (!(await store.moveObligation(q, obligation.id, seen, { ...changes, status: to }, { ...why, at: now }))) {
    throw new LostRaceError(obligation.id, obligation.status);
  }
  // The guarded update wrote exactly these changes over the row as read.
  return { ...obligation, ...changes, status: to };
}
