import { settledReturn } from '../catalog/odds.ts';
import type { SelectionResult } from '../catalog/tables.ts';
import type { BetAccount, BetMovement } from '../wallet/ledger/rows.ts';
import { isOpen, type BetState, type SettledState } from './states.ts';
import type { BetMove } from './store/bets.ts';
import type { Bet, BetLeg } from './tables.ts';

/**
 * The settlement rules, pure: what a bet's legs' results make of it, and what money that owes. A market's settlement
 * (settlement.ts) and a bet's own settlement (own-settlement.ts) judge by them; test/betting/settlement-rules.test.ts
 * holds them to a table of cases.
 */

/**
 * A bet's result from its legs' results: a lost leg loses it at once; a leg without a result keeps it open;
 * every leg void makes it void; otherwise a half-lost leg makes it half_lost, a half-won leg half_won, and all
 * legs won (or void) make it won.
 */
function betResult(results: Array<SelectionResult | null>): SettledState | 'open' {
  if (results.includes('lost')) return 'lost';
  if (results.includes(null)) return 'open';
  if (results.every((result) => result === 'void')) return 'void';
  if (results.includes('half_lost')) return 'half_lost';
  if (results.includes('half_won')) return 'half_won';
  return 'won';
}

/** What a settlement does to one bet, before any money: how it moves, and what happens to its postings. */
export interface BetChange {
  kind: 'settled' | 'resettled' | 'reopened' | 'unchanged';
  move: BetMove | null;
  /** Its unsettled settlement postings stop first: the return they were owed for is no longer the bet's. */
  supersede: boolean;
  /** The first settlement: one initial credit. (Exposure is given back whenever an open bet settles.) */
  first: boolean;
}

/**
 * The settlement rules for one bet, given its legs with their current results: a market's settlement, and a bet's
 * own outcome (own-settlement.ts), judge by this one rule.
 */
export function changeOf(
  bet: Pick<Bet, 'id' | 'status' | 'stake' | 'cashed_out_stake' | 'settled_version' | 'settled_return'>,
  legs: Array<Pick<BetLeg, 'odds_milli' | 'result'>>,
  now: Date,
): BetChange {
  const result = betResult(legs.map((leg) => leg.result));
  const unchanged: BetChange = { kind: 'unchanged', move: null, supersede: false, first: false };
  if (result === 'open') {
    if (isOpen(bet.status)) return unchanged;
    // A correction turned the leg that lost an accumulator into a winner while others still wait: open again.
    const to: BetState = bet.cashed_out_stake > 0 ? 'partially_cashed_out' : 'accepted';
    const move = settlementMove(bet, to, bet.settled_version + 1, null, null);
    return { kind: 'reopened', move, supersede: true, first: false };
  }
  // A lost leg decides the bet while other legs may still wait for their result.
  const returned =
    result === 'lost'
      ? 0
      : settledReturn(
          bet.stake - bet.cashed_out_stake,
          legs.map((leg) => ({ oddsMilli: leg.odds_milli, result: leg.result! })),
        );
  if (isOpen(bet.status) && bet.settled_version === 0) {
    return { kind: 'settled', move: settlementMove(bet, result, 1, returned, now), supersede: false, first: true };
  }
  if (result === bet.status && returned === bet.settled_return) return unchanged;
  const move = settlementMove(bet, result, bet.settled_version + 1, returned, now);
  const supersede = returned !== bet.settled_return;
  return { kind: isOpen(bet.status) ? 'settled' : 'resettled', move, supersede, first: false };
}

/**
 * The money a change owes. The first settlement: exactly one initial credit, `payout:<betId>:1`, the return
 * (0 for a lost bet) as a payout, or the stake back as a refund when void. Any later one: the difference between
 * the new return and what the bet's settlement postings that count add up to at the new version
 * (`account.settledFor`, after any superseded ones stopped counting), as `resettle:<betId>:<version>:<n>`, a credit or a debit; nothing if none.
 */
export function movementFor(
  change: BetChange,
  account: Pick<BetAccount, 'betId' | 'settledFor' | 'corrections'>,
  ref: string,
): BetMovement | null {
  const returned = change.move?.settledReturn ?? null;
  if (returned === null) return null;
  if (change.first) {
    const kind = change.move!.to === 'void' ? 'refund' : 'payout';
    return { kind, endpoint: 'credit', txId: `payout:${account.betId}:1`, amount: returned, ref };
  }
  const difference = returned - account.settledFor(change.move!.settledVersion);
  if (difference === 0) return null;
  return {
    kind: 'resettle',
    endpoint: difference > 0 ? 'credit' : 'debit',
    txId: `resettle:${account.betId}:${change.move!.settledVersion}:${account.corrections + 1}`,
    amount: Math.abs(difference),
    ref,
  };
}

export function settlementMove(
  bet: Pick<Bet, 'id' | 'status'>,
  to: BetState,
  version: number,
  returned: number | null,
  at: Date | null,
): BetMove {
  return { id: bet.id, from: bet.status, to, settledVersion: version, settledReturn: returned, settledAt: at };
}
