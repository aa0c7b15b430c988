import type { CatalogService, RecordedResults } from '../catalog/service.ts';
import type { Acting, AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import type { WalletObligation } from '../wallet/tables.ts';
import type { Bet } from './tables.ts';
import type { DeliveryEngine } from '../wallet/delivery/engine.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import { SETTLEMENT_KINDS, type BetMovement } from '../wallet/ledger/rows.ts';
import { changeOf, movementFor, settlementMove, type BetChange } from './settlement-rules.ts';
import type { LockedBet } from '../wallet/ledger/locks.ts';
import { bettingErrors } from './errors.ts';
import { settleExposure } from './exposure.ts';
import { moveBets } from './moves.ts';
import type { SettleBody, SettlementPreview, SettlementReport } from './schemas.ts';
import { isSettled, OPEN_STATES, SETTLED_STATES, type BetState } from './states.ts';
import * as betStore from './store/bets.ts';
import * as legStore from './store/legs.ts';

type SettlementDeps = {
  db: Db;
  clock: Clock;
  catalog: CatalogService;
  ledger: Ledger;
  delivery: DeliveryEngine;
  audit: AuditLog;
};

/**
 * Settlement and resettlement of a market: the results are recorded (catalog), every bet on the market is
 * judged by changeOf and movementFor, and what the bets are owed is recorded in the ledger, all in one transaction; the delivery
 * engine pays after the commit. Fully cashed-out bets are never touched: a confirmed cash-out stays guaranteed. Nor
 * are bets whose outcome is their own (a sandbox outcome control, own-settlement.ts): the market's results never
 * reach them.
 */
export class Settlement {
  readonly #deps: SettlementDeps;

  constructor(deps: SettlementDeps) {
    this.#deps = deps;
  }

  settle(by: Acting, marketId: string, body: SettleBody): Promise<SettlementReport> {
    return this.#run('settle', by, marketId, body, this.#recording(marketId, body, 'settle'));
  }

  resettle(by: Acting, marketId: string, body: SettleBody): Promise<SettlementReport> {
    return this.#run('resettle', by, marketId, body, this.#recording(marketId, body, 'resettle'));
  }

  /**
   * A settled market's results withdrawn (a trusted producer rolled its result back): the market is suspended
   * until its next result, and every bet it settled is open again, through the same rules as a resettlement. Money
   * is not sent back: the bet's settlement postings still count, and its next result owes only the difference
   * (settlement-rules.ts); what was not sent yet of them stops.
   */
  rollback(by: Acting, marketId: string): Promise<SettlementReport> {
    return this.#run('rollback', by, marketId, null, (tx) => this.#deps.catalog.withdrawResults(tx, marketId));
  }

  /**
   * A dry run of settle or resettle: the real settlement, run by the same code in a transaction that is then rolled
   * back, so its figures are the ones the real call would give now and its refusals the same. Nothing of it stays:
   * no result, bet move, exposure, obligation or history line is committed, no audit row is written and the
   * delivery engine is not woken (only sequence numbers the statements drew are used up, as by any rollback).
   */
  async preview(mode: SettlementMode, marketId: string, body: SettleBody): Promise<SettlementPreview> {
    try {
      await inTransaction(this.#deps.db, async (tx) => {
        throw new DryRun(await this.#apply(tx, marketId, this.#recording(marketId, body, mode)));
      });
    } catch (error) {
      if (error instanceof DryRun) return previewOf(error.outcome);
      throw error;
    }
    throw new Error('a settlement dry run committed');
  }

  /** What records the results of a settle or resettle, in its transaction. */
  #recording(marketId: string, body: SettleBody, mode: SettlementMode): Recording {
    return (tx) => this.#deps.catalog.recordResults(tx, marketId, body.results, mode);
  }

  async #run(
    action: SettlementMode | 'rollback',
    by: Acting,
    marketId: string,
    body: SettleBody | null,
    record: Recording,
  ) {
    const { report } = await inTransaction(this.#deps.db, async (tx) => {
      const outcome = await this.#apply(tx, marketId, record);
      await this.#deps.audit.record(tx, {
        actor: by.actor,
        action: `market.${action}`,
        target: { type: 'market', id: marketId },
        outcome: 'success',
        ip: by.ip,
        details: {
          ...(body ? { results: body.results } : {}),
          version: outcome.report.market.settlementVersion,
          bets: outcome.report.bets,
        },
      });
      return outcome;
    });
    this.#deps.delivery.wake();
    return report;
  }

  /** The settlement itself, inside the caller's transaction: results recorded, bets judged and moved, money owed. */
  async #apply(tx: Tx, marketId: string, record: Recording): Promise<SettlementOutcome> {
    const recorded = await record(tx);
    // Locked out by the results above: no bet on the market can be recorded any more, but one recorded just
    // before may still wait for its stake's answer, and would escape the settlement.
    if (await legStore.hasPendingBetOnMarket(tx, marketId)) throw bettingErrors.bets_pending();
    return recorded.changed ? this.#settleBets(tx, recorded) : emptyOutcome(recorded);
  }

  /**
   * Locks bets' rows in id order: the first step of the lock order of every decision on a bet's money (the ledger's
   * lockBets takes it, then the bets' obligations).
   */
  async lockBetRows(tx: Tx, betIds: string[]): Promise<void> {
    await betStore.lockBets(tx, betIds);
  }

  /**
   * A movement of a settled bet counts after all (an operator resolved it, or the wallet confirmed it after a
   * resettlement superseded it), in the transaction that locked the bet: its postings may no longer add up to its
   * return. Its postings owed on the old premise and never sent are cancelled, and the exact difference is owed in
   * their place: one correction, a credit or a debit.
   */
  async correctAfterLateCount(locked: LockedBet, obligation: WalletObligation): Promise<void> {
    if (!(SETTLEMENT_KINDS as readonly string[]).includes(obligation.kind)) return;
    const bet = await betStore.findBet(locked.tx, locked.betId);
    if (!bet || !isSettled(bet.status)) return;
    if (locked.settledFor(bet.settled_version) === bet.settled_return) return;
    const ref = `reconcile:${obligation.tx_id}`;
    await this.#deps.ledger.cancelUnsent(locked, `replaced by the exact correction once ${obligation.tx_id} counted`);
    const change: BetChange = {
      kind: 'resettled',
      move: settlementMove(bet, bet.status, bet.settled_version, bet.settled_return, bet.settled_at),
      supersede: false,
      first: false,
    };
    const movement = movementFor(change, locked, ref);
    if (movement) await this.#deps.ledger.oweOnBets([{ bet: locked, movement }]);
  }

  async #settleBets(tx: Tx, recorded: RecordedResults): Promise<SettlementOutcome> {
    // The bets first, then their legs: the order a bet's own outcome takes (own-settlement.ts), so the two never
    // deadlock, and a bet that took its own outcome meanwhile is found with it and left alone.
    const bets = await legStore.lockBetsOnMarket(tx, recorded.marketId, [...OPEN_STATES, ...SETTLED_STATES]);
    await legStore.setLegResults(tx, recorded.marketId, recorded.results);
    const ids = bets.map((bet) => bet.id);
    const legs = groupBy(await legStore.legsOfBets(tx, ids), (leg) => leg.bet_id);
    // Then their obligations (the lock order): what each bet's account says holds until the commit.
    const accounts = await this.#deps.ledger.lockBets(tx, ids);
    const context = { ref: `result:${recorded.marketId}:${recorded.version}`, now: this.#deps.clock.now() };
    const outcome = emptyOutcome(recorded);
    const { report } = outcome;
    const owed: Array<{ bet: LockedBet; movement: BetMovement }> = [];
    const moves: betStore.BetMove[] = [];
    const exposure = { settled: [] as Bet[], reopened: [] as Bet[] };
    for (const bet of bets) {
      const account = accounts.get(bet.id)!;
      const change = changeOf(bet, legs.get(bet.id) ?? [], context.now);
      report.bets[change.kind] += 1;
      outcome.byResult[resultOf(change.move?.to ?? bet.status)] += 1;
      if (change.move) moves.push(change.move);
      if (change.kind === 'settled') exposure.settled.push(bet);
      if (change.kind === 'reopened') exposure.reopened.push(bet);
      if (change.supersede) await this.#deps.ledger.supersede(account, context.ref);
      const movement = movementFor(change, account, context.ref);
      if (movement) {
        owed.push({ bet: account, movement });
        addOwed(report, bet.currency, movement);
        outcome.movements.push({ currency: bet.currency, endpoint: movement.endpoint, amount: movement.amount });
      }
    }
    await moveBets(tx, moves);
    await settleExposure(tx, exposure, context.now);
    await this.#deps.ledger.oweOnBets(owed);
    return outcome;
  }
}

export type SettlementMode = 'settle' | 'resettle';
/** Records a market's results (or withdraws them) inside a settlement's transaction, the market locked. */
type Recording = (tx: Tx) => Promise<RecordedResults>;

/** What a settlement did: its report, and the detail a dry run shows besides. */
interface SettlementOutcome {
  report: SettlementReport;
  resultsChanged: boolean;
  /** The bets judged, by the result each has afterwards (open: waiting for another leg's result). */
  byResult: SettlementPreview['byResult'];
  /** Every movement owed, with its bet's currency. */
  movements: Array<{ currency: string; endpoint: BetMovement['endpoint']; amount: number }>;
}

/** The settlement a dry run made, before its transaction was rolled back. */
class DryRun extends Error {
  readonly outcome: SettlementOutcome;
  constructor(outcome: SettlementOutcome) {
    super('settlement dry run: rolled back');
    this.outcome = outcome;
  }
}

function emptyOutcome(recorded: RecordedResults): SettlementOutcome {
  return {
    report: emptyReport(recorded),
    resultsChanged: recorded.changed,
    byResult: { won: 0, lost: 0, void: 0, half_won: 0, half_lost: 0, open: 0 },
    movements: [],
  };
}

/** Open states read as `open`; settled states as themselves. Only open and settled bets are judged. */
function resultOf(state: BetState): keyof SettlementOutcome['byResult'] {
  return isSettled(state) ? state : 'open';
}

function previewOf(outcome: SettlementOutcome): SettlementPreview {
  const { report } = outcome;
  const owed = new Map<string, SettlementPreview['owed'][number]>();
  for (const { currency, endpoint, amount } of outcome.movements) {
    const entry = owed.get(currency) ?? {
      currency,
      credits: { count: 0, amount: 0 },
      debits: { count: 0, amount: 0 },
    };
    const side = endpoint === 'credit' ? entry.credits : entry.debits;
    side.count += 1;
    side.amount += amount;
    owed.set(currency, entry);
  }
  return {
    market: report.market,
    resultsChanged: outcome.resultsChanged,
    bets: Object.values(report.bets).reduce((sum, count) => sum + count, 0),
    changes: report.bets,
    byResult: outcome.byResult,
    owed: [...owed.values()],
  };
}

function emptyReport(recorded: RecordedResults): SettlementReport {
  const withdrawn = [...recorded.results.values()].every((result) => result === null);
  return {
    market: { id: recorded.marketId, status: withdrawn ? 'suspended' : 'settled', settlementVersion: recorded.version },
    bets: { settled: 0, resettled: 0, reopened: 0, unchanged: 0 },
    owed: [],
  };
}

function addOwed(report: SettlementReport, currency: string, movement: BetMovement): void {
  let entry = report.owed.find((candidate) => candidate.currency === currency);
  if (!entry) {
    entry = { currency, credits: 0, debits: 0, movements: 0 };
    report.owed.push(entry);
  }
  entry.movements += 1;
  if (movement.endpoint === 'credit') entry.credits += movement.amount;
  else entry.debits += movement.amount;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}
