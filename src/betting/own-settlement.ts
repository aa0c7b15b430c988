import type { CatalogService } from '../catalog/service.ts';
import type { SelectionResult } from '../catalog/tables.ts';
import type { Clock } from '../platform/clock.ts';
import type { Tx } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import type { LockedBet } from '../wallet/ledger/locks.ts';
import type { WalletObligation } from '../wallet/tables.ts';
import { betOutcomeErrors } from './errors.ts';
import { releaseExposure, settleExposure } from './exposure.ts';
import { moveBet, moveBets } from './moves.ts';
import { storedRefusal, type Refusal } from './refusals.ts';
import type { BetOutcomeReport } from './schemas.ts';
import { changeOf, movementFor } from './settlement-rules.ts';
import { isOpen, isSettled, type BetState } from './states.ts';
import * as betStore from './store/bets.ts';
import * as legStore from './store/legs.ts';
import type { Bet, BetLeg } from './tables.ts';

/** What a bet's own outcome can be asked to do. */
export type OwnSettlementAction = 'settle' | 'resettle' | 'reopen' | 'cancel';

export interface LegResult {
  selectionId: string;
  result: SelectionResult;
}

type Judged = Array<SelectionResult | null>;

type OwnSettlementDeps = { clock: Clock; catalog: CatalogService; ledger: Ledger };

/**
 * A bet's own outcome, decided for that one bet rather than by its markets' results: what the sandbox outcome
 * controls do (src/sandbox/, docs/sandbox-outcomes.md). The money is the settlement's: the bet's legs get the results
 * asked for, and the bet is judged by the one settlement rule (settlement.ts, changeOf and movementFor), moved through
 * the bet state machine, its exposure settled or reserved again, its superseded postings stopped and its movement
 * owed in the ledger, exactly as a market's settlement or resettlement would have done for it. The first decision
 * marks the outcome as the bet's own (bets.outcome_override_at): from then on no market's settlement or resettlement
 * touches the bet, nor its legs' results.
 *
 * - settle: an open bet's legs get results (the ones not named keep theirs); once settled with the same results, the
 *   call changes nothing; with others, 409 bet_settled.
 * - resettle: a settled bet's legs get other results; a correction credit or debit is owed for the difference.
 * - reopen: every leg loses its result; a settled bet is open again, what it was paid still counts.
 * - cancel: a bet no credit has reached yet (accepted, never settled, nothing cashed out) is annulled: refused, its
 *   stake rolled back (`rollback:bet:<betId>`), as the contract allows before any credit. Any other open or settled
 *   bet is voided: every leg void, the standing stake refunded (or corrected to it, if the bet was paid already).
 *
 * Each runs inside the caller's transaction with the bet locked; a call whose target is the bet's state already
 * changes nothing and owes nothing (`changed: false`).
 */
export class OwnSettlement {
  readonly #deps: OwnSettlementDeps;

  constructor(deps: OwnSettlementDeps) {
    this.#deps = deps;
  }

  async decide(
    tx: Tx,
    tenantId: string,
    betId: string,
    action: OwnSettlementAction,
    results: LegResult[] = [],
  ): Promise<BetOutcomeReport> {
    // The lock order: the bet, then its obligations; what the decision reads of either holds until the commit.
    const locked = (await this.#deps.ledger.lockBets(tx, [betId])).get(betId);
    const bet = locked && (await betStore.findBet(tx, betId));
    if (!locked || !bet || bet.tenant_id !== tenantId) throw notFound('Bet');
    const legs = await legStore.legsOfBets(tx, [betId]);
    const asked = action === 'settle' || action === 'resettle' ? await this.#asked(tx, legs, results) : null;
    if (bet.status === 'pending') throw betOutcomeErrors.bet_pending({ status: bet.status });
    if (action === 'cancel') return this.#cancel(locked, bet, legs);
    if (!isOpen(bet.status) && !isSettled(bet.status)) throw betOutcomeErrors.bet_closed({ status: bet.status });
    if (action === 'settle' && isSettled(bet.status) && !sameResults(legs, asked!)) {
      throw betOutcomeErrors.bet_settled({ status: bet.status });
    }
    if (action === 'resettle' && !isSettled(bet.status)) throw betOutcomeErrors.bet_not_settled({ status: bet.status });
    return this.#judge(locked, bet, legs, asked ?? legs.map(() => null));
  }

  /**
   * The legs' results after the call: those named, the others as they are. Every name must be a leg of the bet,
   * once; half results only where the leg's market allows them (the catalog's rule for a market's results).
   */
  async #asked(tx: Tx, legs: BetLeg[], results: LegResult[]): Promise<Judged> {
    const positions = new Map(legs.map((leg, index) => [leg.selection_id, index]));
    const halves = results.some(({ result }) => isHalf(result))
      ? await this.#deps.catalog.marketsWithHalfResults(
          tx,
          legs.map((leg) => leg.market_id),
        )
      : new Set<string>();
    const asked: Judged = legs.map((leg) => leg.result);
    const seen = new Set<string>();
    results.forEach(({ selectionId, result }, index) => {
      const position = positions.get(selectionId);
      if (position === undefined) {
        throw validationError(`results.${index}.selectionId`, 'This is not the selection of a leg of the bet.');
      }
      if (seen.has(selectionId)) throw validationError(`results.${index}.selectionId`, 'A selection appears twice.');
      seen.add(selectionId);
      if (isHalf(result) && !halves.has(legs[position]!.market_id)) {
        throw validationError(
          `results.${index}.result`,
          "Half results exist only where the leg's market is a quarter line (such as 2.25).",
          { marketId: legs[position]!.market_id },
        );
      }
      asked[position] = result;
    });
    return asked;
  }

  async #cancel(locked: LockedBet, bet: Bet, legs: BetLeg[]): Promise<BetOutcomeReport> {
    if (bet.status === 'refused' && storedRefusal(bet).code === 'bet_cancelled') {
      return report(bet, legs, bet.status, false, [], []);
    }
    if (!isOpen(bet.status) && !isSettled(bet.status)) throw betOutcomeErrors.bet_closed({ status: bet.status });
    // No credit has reached the bet: the stake debit is its only movement, and the contract lets a rollback follow.
    if (bet.status === 'accepted' && bet.settled_version === 0 && bet.cashed_out_stake === 0) {
      return this.#annul(locked, bet, legs);
    }
    return this.#judge(
      locked,
      bet,
      legs,
      legs.map(() => 'void'),
    );
  }

  /** The bet does not stand: refused (bet_cancelled), its exposure given back, its stake rolled back. */
  async #annul(locked: LockedBet, bet: Bet, legs: BetLeg[]): Promise<BetOutcomeReport> {
    const tx = locked.tx;
    const now = this.#deps.clock.now();
    const refusal: Refusal = { code: 'bet_cancelled' };
    await moveBet(tx, bet, 'refused', {
      refusal: JSON.stringify(refusal),
      outcome_override_at: bet.outcome_override_at ?? now,
    });
    await releaseExposure(tx, [bet], now);
    const rollback = await this.#deps.ledger.oweRollbackOfStake(locked);
    return report({ ...bet, status: 'refused' }, legs, bet.status, true, [rollback], []);
  }

  /** The legs get their results, and the bet is judged as a settlement judges it: the same rule, the same money. */
  async #judge(locked: LockedBet, bet: Bet, legs: BetLeg[], asked: Judged): Promise<BetOutcomeReport> {
    if (sameResults(legs, asked)) return report(bet, legs, bet.status, false, [], []);
    const tx = locked.tx;
    const now = this.#deps.clock.now();
    const changedLegs = legs.filter((leg, index) => leg.result !== asked[index]);
    await legStore.setOwnLegResults(
      tx,
      bet.id,
      changedLegs.map((leg) => ({ position: leg.position, result: asked[legs.indexOf(leg)] ?? null })),
      now,
    );
    const judged = legs.map((leg, index) => ({ ...leg, result: asked[index] ?? null }));
    const change = changeOf(bet, judged, now);
    const ref = `sandbox:${bet.id}:${change.move?.settledVersion ?? bet.settled_version}`;
    const superseded = change.supersede ? await this.#deps.ledger.supersede(locked, ref) : [];
    const movement = movementFor(change, locked, ref);
    if (change.move) await moveBets(tx, [change.move]);
    await settleExposure(
      tx,
      {
        settled: change.kind === 'settled' ? [bet] : [],
        reopened: change.kind === 'reopened' ? [bet] : [],
      },
      now,
    );
    const owed = movement ? await this.#deps.ledger.oweOnBets([{ bet: locked, movement }]) : [];
    const after: Bet = change.move
      ? {
          ...bet,
          status: change.move.to,
          settled_version: change.move.settledVersion,
          settled_return: change.move.settledReturn,
          settled_at: change.move.settledAt,
        }
      : bet;
    return report(after, judged, bet.status, true, owed, superseded);
  }
}

const isHalf = (result: SelectionResult) => result === 'half_won' || result === 'half_lost';

function sameResults(legs: BetLeg[], asked: Judged): boolean {
  return legs.every((leg, index) => leg.result === asked[index]);
}

function report(
  bet: Bet,
  legs: Array<Pick<BetLeg, 'selection_id' | 'market_id' | 'result'>>,
  previous: BetState,
  changed: boolean,
  owed: WalletObligation[],
  superseded: WalletObligation[],
): BetOutcomeReport {
  return {
    changed,
    bet: {
      id: bet.id,
      status: bet.status,
      previousStatus: previous,
      stake: bet.stake,
      remainingStake: bet.stake - bet.cashed_out_stake,
      currency: bet.currency,
      settledReturn: bet.settled_return,
      settlementVersion: bet.settled_version,
      legs: legs.map((leg) => ({ selectionId: leg.selection_id, marketId: leg.market_id, result: leg.result })),
    },
    owed: owed.map((row) => ({ txId: row.tx_id, kind: row.kind, endpoint: row.endpoint, amount: row.amount })),
    superseded: superseded.map((row) => row.tx_id),
  };
}
