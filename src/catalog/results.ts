import type { Clock } from '../platform/clock.ts';
import type { Tx } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import { catalogErrors } from './errors.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import type { SelectionResult } from './tables.ts';

export interface RecordedResults {
  marketId: string;
  /** The market's settlement version after this call (1 when first settled). */
  version: number;
  /** Whether any result differs from before (always, for a first settlement). */
  changed: boolean;
  /** Each selection's result; null where it was withdrawn (a rollback). */
  results: Map<string, SelectionResult | null>;
}

/** A market's results, recorded inside the transaction of its settlement or resettlement (betting). */
export class MarketResults {
  readonly #clock: Clock;

  constructor(deps: { clock: Clock }) {
    this.#clock = deps.clock;
  }

  /**
   * Records a market's results: every selection exactly once, half results only on quarter lines. Settling needs a
   * market without results; resettling one with results. The market stays locked until the caller's transaction
   * ends, so one settlement of a market runs at a time and no bet is placed on it meanwhile. A resettlement
   * that changes nothing changes nothing (a retried request is harmless).
   */
  async record(
    tx: Tx,
    marketId: string,
    results: Array<{ selectionId: string; result: SelectionResult }>,
    mode: 'settle' | 'resettle',
  ): Promise<RecordedResults> {
    const market = await marketStore.lockMarket(tx, marketId);
    if (!market) throw notFound('Market');
    if (mode === 'settle' && market.status === 'settled') {
      throw catalogErrors.market_settled({ settlementVersion: market.settlement_version });
    }
    if (mode === 'resettle' && market.status !== 'settled') throw catalogErrors.market_not_settled();
    const selections = await selectionStore.selectionsOf(tx, [marketId]);
    checkResults(market, selections, results);
    const before = new Map(selections.map((selection) => [selection.id, selection.result]));
    const changed = results.some(({ selectionId, result }) => before.get(selectionId) !== result);
    const version = changed ? market.settlement_version + 1 : market.settlement_version;
    if (changed) await marketStore.setResults(tx, marketId, results, { version, at: this.#clock.now() });
    return {
      marketId,
      version,
      changed,
      results: new Map(results.map(({ selectionId, result }) => [selectionId, result])),
    };
  }

  /**
   * A settled market's results withdrawn (a rollback): every selection without a result and the market suspended
   * until the next result, under a new settlement version, so the bets it settled are judged again as waiting for
   * it. The market stays locked until the caller's transaction ends.
   */
  async withdraw(tx: Tx, marketId: string): Promise<RecordedResults> {
    const market = await marketStore.lockMarket(tx, marketId);
    if (!market) throw notFound('Market');
    if (market.status !== 'settled') throw catalogErrors.market_not_settled();
    const selections = await selectionStore.selectionsOf(tx, [marketId]);
    const version = market.settlement_version + 1;
    await marketStore.withdrawResults(tx, marketId, { version, at: this.#clock.now() });
    const results = new Map(selections.map((selection) => [selection.id, null]));
    return { marketId, version, changed: true, results };
  }
}

/** A quarter line (2.25, -0.75) splits the stake over two lines: only there can a selection half win or half lose. */
export function isQuarterLine(lineMilli: number | null): boolean {
  return lineMilli !== null && Math.abs(lineMilli) % 500 === 250;
}

function checkResults(
  market: { line_milli: number | null },
  selections: Array<{ id: string }>,
  results: Array<{ selectionId: string; result: SelectionResult }>,
): void {
  const ids = new Set(selections.map((selection) => selection.id));
  const seen = new Set<string>();
  results.forEach(({ selectionId, result }, index) => {
    if (!ids.has(selectionId)) {
      throw validationError(`results.${index}.selectionId`, 'This is not a selection of the market.');
    }
    if (seen.has(selectionId)) throw validationError(`results.${index}.selectionId`, 'A selection appears twice.');
    seen.add(selectionId);
    if ((result === 'half_won' || result === 'half_lost') && !isQuarterLine(market.line_milli)) {
      throw validationError(`results.${index}.result`, 'Half results exist only on quarter lines (such as 2.25).');
    }
  });
  const missing = [...ids].filter((id) => !seen.has(id));
  if (missing.length > 0) {
    throw validationError('results', `Every selection of the market needs a result; missing: ${missing.join(', ')}.`);
  }
}
