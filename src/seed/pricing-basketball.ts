/**
 * Basketball's prices: the final margin and total are normal, their means and variances those of the points still
 * to be played.
 */
import type { MatchProfile } from './demo-leagues.ts';
import { BASKETBALL_STEP, basketballPace, clockReading, type MatchState } from './match-play.ts';
import { chancesOf, lineChances, normalTail, type MatchModel } from './pricing-chances.ts';

/** Seconds of play left in the match and in its first half (null once played), by where it stands. */
function basketballSecondsLeft(profile: Extract<MatchProfile, { kind: 'basketball' }>, state: MatchState, now: number) {
  const quarter = profile.quarterSeconds;
  if (state.status === 'scheduled') return { match: 4 * quarter, firstHalf: 2 * quarter };
  if (state.status === 'finished' || !state.clock || !state.period) return undefined;
  const reading = clockReading(state.clock, now);
  const tied = state.score.home === state.score.away;
  if (state.period === 'half_time') return { match: 2 * quarter, firstHalf: null };
  if (state.period === 'overtime') return { match: reading === 0 && tied ? 300 : reading, firstHalf: null };
  const number = Number(/^quarter_([1-4])$/.exec(state.period)?.[1]);
  if (!number) return undefined;
  const match = reading + (4 - number) * quarter;
  return {
    match: match === 0 && tied ? 300 : match,
    firstHalf: number <= 2 ? reading + (2 - number) * quarter : null,
  };
}

export function basketballModel(
  profile: Extract<MatchProfile, { kind: 'basketball' }>,
  state: MatchState,
  now: number,
): MatchModel {
  const left = basketballSecondsLeft(profile, state, now);
  const home = basketballPace(profile, 'home');
  const away = basketballPace(profile, 'away');
  // Per second of play: the mean and variance of each side's points add up (home's minus away's for the margin).
  const steps = (seconds: number) => seconds / BASKETBALL_STEP;
  const margin = (seconds: number) =>
    normalTail(
      state.score.home - state.score.away + steps(seconds) * (home.mean - away.mean),
      steps(seconds) * (home.variance + away.variance),
    );
  const total = (seconds: number) =>
    normalTail(
      state.score.home + state.score.away + steps(seconds) * (home.mean + away.mean),
      steps(seconds) * (home.variance + away.variance),
    );
  return {
    expected: { total: profile.points.home + profile.points.away, margin: profile.points.home - profile.points.away },
    chances(type, line, outcomes) {
      if (!left) return state.status === 'finished' ? null : undefined;
      const tails = { total: total(left.match), margin: margin(left.match) };
      switch (type) {
        case 'moneyline': {
          // A tie goes to overtime: half of it each way.
          const wins = (tails.margin(1) + tails.margin(0)) / 2;
          return chancesOf(outcomes, (outcome) => ({ home: wins, away: 1 - wins })[outcome]);
        }
        case 'first_half_moneyline': {
          if (left.firstHalf === null) return null;
          // A tie at half-time is void: the chance that counts is a win over a win or a loss.
          const half = margin(left.firstHalf);
          const wins = half(1) / (half(1) + 1 - half(0));
          return chancesOf(outcomes, (outcome) => ({ home: wins, away: 1 - wins })[outcome]);
        }
        case 'totals':
        case 'handicap':
          return lineChances(type, line, outcomes, tails);
        default:
          return undefined;
      }
    },
  };
}
