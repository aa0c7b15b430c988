/**
 * Odds and lines are exact integers in thousandths (2.15 -> 2150, -1.5 -> -1500). The API shows and accepts them
 * as decimal strings; they are never binary floats anywhere.
 */
export const ODDS_PATTERN = '^[0-9]{1,4}(\\.[0-9]{1,3})?$';
export const LINE_PATTERN = '^-?[0-9]{1,3}(\\.[0-9]{1,3})?$';

export function parseMilli(text: string): number {
  const match = /^(-?)(\d+)(?:\.(\d{1,3}))?$/.exec(text);
  if (!match) throw new Error(`not a decimal with at most 3 places: ${text}`);
  const [, sign, whole, fraction = ''] = match;
  const milli = Number(whole) * 1000 + Number(fraction.padEnd(3, '0'));
  return sign ? -milli : milli;
}

/** 2150 -> "2.15", 2125 -> "2.125", 3000 -> "3.00": at least two decimals, no trailing zeros beyond. */
export function formatMilli(milli: number): string {
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const fraction = String(abs % 1000).padStart(3, '0').replace(/0$/, '');
  return `${sign}${Math.floor(abs / 1000)}.${fraction.length < 2 ? fraction.padEnd(2, '0') : fraction}`;
}

/**
 * The payout rule, written once: payout = floor(stake x odds) in minor units, where the odds of an accumulator
 * are the product of its legs' odds. Computed with BigInt so no intermediate rounding happens.
 */
export function potentialPayout(stake: number, legOddsMilli: number[]): bigint {
  const numerator = legOddsMilli.reduce((product, odds) => product * BigInt(odds), BigInt(stake));
  return numerator / 1000n ** BigInt(legOddsMilli.length);
}

/** Combined odds of an accumulator in thousandths, floored: shown to the player, not used for money. */
export function combinedOddsMilli(legOddsMilli: number[]): number {
  const numerator = legOddsMilli.reduce((product, odds) => product * BigInt(odds), 1000n);
  return Number(numerator / 1000n ** BigInt(legOddsMilli.length));
}

/** Lines read naturally: 2500 -> "2.5", -1000 -> "-1", 0 -> "0". */
export function formatLine(milli: number): string {
  return formatMilli(milli).replace(/\.?0+$/, '');
}
