/** Decimal odds as the API writes them ("6.643"), in thousandths: exact, with no floating point. */
export function oddsMilli(odds: string): number {
  const [whole = '0', fraction = ''] = odds.split('.');
  return Number(whole) * 1000 + Number(fraction.padEnd(3, '0').slice(0, 3));
}

/**
 * Decimal odds as players are shown them: two decimals, cut rather than rounded up, so the figure shown never
 * promises more than is paid ("6.643" → 6.64, "2.125" → 2.12). The player's app and the staff console show the same.
 */
export function shownDecimalOdds(odds: string): number {
  return Math.floor(oddsMilli(odds) / 10) / 100;
}
