/** A GGR report's figures for a day (or a currency) with no money confirmed: every column, each 0. */
export const NO_MONEY: Readonly<{
  bets: number;
  stakes: number;
  payouts: number;
  refunds: number;
  cashouts: number;
  corrections: number;
  ggr: number;
  adjustments: number;
  writtenOff: number;
}> = {
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
