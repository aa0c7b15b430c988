/**
 * What the demo's sport models share: a market's chances from each outcome's, lines priced from the tails of one
 * distribution (so every line of a market agrees), and the normal approximation of an integer quantity.
 */
import type { MarketType } from '../catalog/tables.ts';

/** Chances from this close to certain: the market is decided, and a trader closes it. */
const DECIDED = 0.999;

/** P(X >= k) of an integer quantity (goals, points, games, a margin). */
export type Tail = (k: number) => number;

/**
 * Each outcome's chance in a market at `now`: a map by outcome; null when the market is over (decided, or the
 * part of the match it is about has been played); undefined when the model does not price it (its type in this
 * sport, an outcome it does not know).
 */
type Chances = Map<string, number> | null | undefined;

export interface MatchModel {
  chances(type: MarketType, line: number | null, outcomes: readonly string[]): Chances;
  /** The final total and margin (home minus away) expected: where the lines of new markets go. */
  expected: { total: number; margin: number };
}

/** The chances of a market: undefined where one outcome is unknown, null when decided. */
export function chancesOf(outcomes: readonly string[], chance: (outcome: string) => number | undefined): Chances {
  const map = new Map<string, number>();
  for (const outcome of outcomes) {
    const value = chance(outcome);
    if (value === undefined) return undefined;
    map.set(outcome, value);
  }
  return [...map.values()].some((value) => value >= DECIDED) ? null : map;
}

/**
 * Over a line (X > line): the chance that counts for a price, wins over wins and losses, as a stake refunded on
 * a whole line is neither; a quarter line is half on each neighbouring half line. Under is its complement.
 */
function overChance(tail: Tail, line: number): number {
  const parts = Math.abs(line * 1000) % 500 === 250 ? [line - 0.25, line + 0.25] : [line];
  let wins = 0;
  let losses = 0;
  for (const part of parts) {
    wins += tail(Math.floor(part) + 1);
    losses += 1 - tail(Math.ceil(part));
  }
  return wins + losses === 0 ? 0.5 : wins / (wins + losses);
}

/** totals (over/under the line) and handicap (the home side's line on the margin) from their tails. */
export function lineChances(
  type: 'totals' | 'handicap',
  line: number | null,
  outcomes: readonly string[],
  tails: { total: Tail; margin: Tail },
): Chances {
  if (line === null) return undefined;
  const first = type === 'totals' ? overChance(tails.total, line) : overChance(tails.margin, -line);
  const names = type === 'totals' ? ['over', 'under'] : ['home', 'away'];
  return chancesOf(outcomes, (outcome) => [first, 1 - first][names.indexOf(outcome)]);
}

/** "2-1" as home and away numbers. */
export function scoreOf(outcome: string): { home: number; away: number } | undefined {
  const match = /^(\d+)-(\d+)$/.exec(outcome);
  return match ? { home: Number(match[1]), away: Number(match[2]) } : undefined;
}

/** The normal approximation of an integer quantity: P(X >= k) with a continuity correction. */
export function normalTail(mean: number, variance: number): Tail {
  return (k) => {
    const sd = Math.sqrt(variance);
    if (sd < 1e-9) return mean >= k - 0.5 ? 1 : 0;
    return 1 - normalCdf((k - 0.5 - mean) / sd);
  };
}

/** Φ, to about 1e-7 (Abramowitz and Stegun 7.1.26). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erf =
    1 -
    ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
