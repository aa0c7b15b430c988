import { validationError } from '../platform/errors.ts';
import type { SelectionResult } from './tables.ts';

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
/** Odds a trader or the feed sets, in thousandths: above 1.00 and at most 1000, else refused for `field`. */
export function checkedOdds(odds: string, field: string): number {
  const milli = parseMilli(odds);
  if (milli <= 1000 || milli > 1_000_000) throw validationError(field, 'Odds must be above 1.00 and at most 1000.');
  return milli;
}

export function formatMilli(milli: number): string {
  const sign = milli < 0 ? '-' : '';
  const abs = Math.abs(milli);
  const fraction = String(abs % 1000)
    .padStart(3, '0')
    .replace(/0$/, '');
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

/**
 * What a leg's result does to the money riding on it, in 1/2000ths (exact for every odds in thousandths):
 * won: x odds; lost: x 0; void: x 1; half_won: half at the odds, half back, x (odds + 1) / 2; half_lost: half
 * back, x 1/2.
 */
function resultFactor(result: SelectionResult, oddsMilli: number): bigint {
  switch (result) {
    case 'won':
      return 2n * BigInt(oddsMilli);
    case 'lost':
      return 0n;
    case 'void':
      return 2000n;
    case 'half_won':
      return BigInt(oddsMilli) + 1000n;
    case 'half_lost':
      return 1000n;
  }
}

/**
 * The payout rule with results: return = floor(stake x product of the legs' result factors), in minor units.
 * Every leg won gives exactly potentialPayout(); a void leg drops out (x 1); a lost leg makes it 0. One floor, at
 * the end, over exact integers.
 */
export function settledReturn(stake: number, legs: Array<{ oddsMilli: number; result: SelectionResult }>): number {
  const numerator = legs.reduce((product, leg) => product * resultFactor(leg.result, leg.oddsMilli), BigInt(stake));
  return Number(numerator / 2000n ** BigInt(legs.length));
}

/** A leg as the cash-out sees it: settled already (its result), or still open at its current price. */
export type CashOutLeg =
  { oddsMilli: number; result: SelectionResult } | { oddsMilli: number; currentOddsMilli: number };

/**
 * The cash-out rule: what the standing stake is worth now, less the margin, floored.
 * value = stake x product(settled legs' result factors) x product(open legs' placed odds / current odds), the
 * bet's potential return weighed by the chance the current prices give it; offer = floor(value x (1 - margin)).
 */
export function cashOutValue(stake: number, legs: CashOutLeg[], marginBasisPoints: number): number {
  let numerator = BigInt(stake) * BigInt(10_000 - marginBasisPoints);
  let denominator = 10_000n;
  for (const leg of legs) {
    if ('result' in leg) {
      numerator *= resultFactor(leg.result, leg.oddsMilli);
      denominator *= 2000n;
    } else {
      numerator *= BigInt(leg.oddsMilli);
      denominator *= BigInt(leg.currentOddsMilli);
    }
  }
  return Number(numerator / denominator);
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
