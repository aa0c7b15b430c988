import type { GgrFigures } from './schemas.ts';

/**
 * The one definition of the GGR figures, shared by the report and the dashboard: which column each confirmed
 * movement adds to, and what GGR is. Rollbacks belong to stakes that never counted, and count nowhere.
 */
export function zero(): GgrFigures {
  return {
    bets: 0,
    stakes: 0,
    payouts: 0,
    refunds: 0,
    cashouts: 0,
    corrections: 0,
    ggr: 0,
    adjustments: 0,
    writtenOff: 0,
  };
}

/**
 * Adds confirmed movements of one kind and direction (a row of the ledger's totals) to the figures: `amount` is what
 * moved, `written_off` what debits resolved in part left uncollected.
 */
export function add(
  figures: GgrFigures,
  row: { kind: string; endpoint: string; movements: number; amount: number; written_off: number },
) {
  const signed = row.endpoint === 'debit' ? -row.amount : row.amount;
  figures.writtenOff += row.written_off;
  switch (row.kind) {
    case 'bet':
      figures.bets += row.movements;
      figures.stakes += row.amount;
      break;
    case 'payout':
      figures.payouts += row.amount;
      break;
    case 'refund':
      figures.refunds += row.amount;
      break;
    case 'cashout':
      figures.cashouts += row.amount;
      break;
    case 'resettle':
      figures.corrections += signed;
      break;
    case 'adjustment':
      figures.adjustments += signed;
      break;
  }
  figures.ggr = figures.stakes - figures.payouts - figures.refunds - figures.cashouts - figures.corrections;
}

/** Adds figures to figures (of the same currency: never across currencies). */
export function addUp(total: GgrFigures, figures: GgrFigures): void {
  for (const key of Object.keys(total) as Array<keyof GgrFigures>) total[key] += figures[key];
}
