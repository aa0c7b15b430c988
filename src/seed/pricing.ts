/**
 * The demo's prices: each outcome's chance from where the match stands and what is left of it, and odds from a
 * chance with the bookmaker's margin. Football: the goals still to come are Poisson at each side's rate for the
 * minutes left. Basketball: the final margin and total are normal, their means and variances those of the points
 * still to be played. Tennis: sets are won at the home player's set chance; games per set and the games margin
 * are normal around typical sets. Every line of a market is priced from the same distribution, so lines agree.
 * Each sport's model is in a file of its own (pricing-football.ts, pricing-basketball.ts, pricing-tennis.ts), what
 * they share in pricing-chances.ts.
 */
import { formatMilli } from '../catalog/odds.ts';
import type { MatchProfile } from './demo-leagues.ts';
import type { MatchState } from './match-play.ts';
import { basketballModel } from './pricing-basketball.ts';
import type { MatchModel } from './pricing-chances.ts';
import { footballModel } from './pricing-football.ts';
import { tennisModel } from './pricing-tennis.ts';

/** The model of a match in its state at `now`; undefined when the state is one its sport's rules do not know. */
export function matchModel(profile: MatchProfile, state: MatchState, now: number): MatchModel | undefined {
  switch (profile.kind) {
    case 'football':
      return footballModel(profile.goals, state, now);
    case 'basketball':
      return basketballModel(profile, state, now);
    case 'tennis':
      return tennisModel(profile.setWin, state);
  }
}

/**
 * Decimal odds of an outcome with this chance, on a price ladder, with the bookmaker's margin taken from the
 * winnings (not the stake), so a near-certain outcome still pays something: about 1.91 each way at evens, 10 %
 * off the winnings of three or four outcomes, 25 % off a correct score's.
 */
export function priceOf(chance: number, outcomes: number): string {
  const kept = outcomes <= 2 ? 0.91 : outcomes <= 4 ? 0.9 : 0.75;
  return formatMilli(onLadder(1000 * (1 + (1 / Math.max(chance, 0.0001) - 1) * kept)));
}

/** Steps as sportsbooks quote them: 2.15 and 2.16, then 3.25, 6.50, 13.00, 26.00, 55.00, 110.00; 1.01 to 500. */
function onLadder(milli: number): number {
  const steps = [
    [3_000, 10],
    [5_000, 50],
    [10_000, 100],
    [20_000, 500],
    [50_000, 1_000],
    [100_000, 5_000],
    [Infinity, 10_000],
  ] as const;
  const step = steps.find(([below]) => milli < below)![1];
  return Math.min(500_000, Math.max(1_010, Math.round(milli / step) * step));
}
