/**
 * The demo's prices: each outcome's chance from where the match stands and what is left of it, and odds from a
 * chance with the bookmaker's margin. Football: the goals still to come are Poisson at each side's rate for the
 * minutes left. Basketball: the final margin and total are normal, their means and variances those of the points
 * still to be played. Tennis: sets are won at the home player's set chance; games per set and the games margin
 * are normal around typical sets. Every line of a market is priced from the same distribution, so lines agree.
 */
import { formatMilli } from '../catalog/odds.ts';
import type { MarketType } from '../catalog/tables.ts';
import type { MatchProfile } from './demo-leagues.ts';
import { BASKETBALL_STEP, basketballPace, clockReading, FOOTBALL_MINUTES, type MatchState } from './match-play.ts';

/** Chances from this close to certain: the market is decided, and a trader closes it. */
const DECIDED = 0.999;

/** P(X >= k) of an integer quantity (goals, points, games, a margin). */
type Tail = (k: number) => number;

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

/** The chances of a market: undefined where one outcome is unknown, null when decided. */
function chancesOf(outcomes: readonly string[], chance: (outcome: string) => number | undefined): Chances {
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
function lineChances(
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
function scoreOf(outcome: string): { home: number; away: number } | undefined {
  const match = /^(\d+)-(\d+)$/.exec(outcome);
  return match ? { home: Number(match[1]), away: Number(match[2]) } : undefined;
}

// ---- football ----

function poisson(mean: number, goals: number): number {
  let factorial = 1;
  for (let i = 2; i <= goals; i++) factorial *= i;
  return (Math.exp(-mean) * mean ** goals) / factorial;
}

interface Cell {
  home: number;
  away: number;
  chance: number;
}

/** The final scores from this score with the goals of `minutes` more play (at most 10 more per side). */
function scoreGrid(score: { home: number; away: number }, goals: { home: number; away: number }, minutes: number) {
  const cells: Cell[] = [];
  for (let home = 0; home <= 10; home++) {
    for (let away = 0; away <= 10; away++) {
      const chance =
        poisson((goals.home * minutes) / FOOTBALL_MINUTES, home) *
        poisson((goals.away * minutes) / FOOTBALL_MINUTES, away);
      cells.push({ home: score.home + home, away: score.away + away, chance });
    }
  }
  const sum = (holds: (cell: Cell) => boolean) =>
    cells.reduce((total, cell) => (holds(cell) ? total + cell.chance : total), 0);
  return {
    sum,
    result: (outcome: string) =>
      ({
        home: sum((cell) => cell.home > cell.away),
        draw: sum((cell) => cell.home === cell.away),
        away: sum((cell) => cell.home < cell.away),
      })[outcome],
    tails: {
      total: (k: number) => sum((cell) => cell.home + cell.away >= k),
      margin: (k: number) => sum((cell) => cell.home - cell.away >= k),
    },
  };
}

/** The minutes of play left in the match and in its first half (null once played), by where it stands. */
function footballMinutesLeft(state: MatchState, now: number) {
  const minute = state.clock ? clockReading(state.clock, now) / 60 : 0;
  const half = FOOTBALL_MINUTES / 2;
  if (state.status === 'scheduled') return { match: FOOTBALL_MINUTES, firstHalf: half };
  if (state.status === 'finished') return undefined;
  switch (state.period) {
    case 'first_half': {
      const firstHalf = Math.max(0.5, half - minute);
      return { match: firstHalf + half, firstHalf };
    }
    case 'half_time':
      return { match: half, firstHalf: null };
    case 'second_half':
      return { match: Math.max(0.5, FOOTBALL_MINUTES - 3 - minute), firstHalf: null };
    default:
      return undefined;
  }
}

function footballModel(goals: { home: number; away: number }, state: MatchState, now: number): MatchModel {
  const left = footballMinutesLeft(state, now);
  const final = scoreGrid(state.score, goals, left?.match ?? 0);
  const firstHalf = left?.firstHalf ? scoreGrid(state.score, goals, left.firstHalf) : undefined;
  const result = (outcome: string) => final.result(outcome);
  return {
    expected: { total: goals.home + goals.away, margin: goals.home - goals.away },
    chances(type, line, outcomes) {
      if (!left) return state.status === 'finished' ? null : undefined;
      switch (type) {
        case 'match_result':
          return chancesOf(outcomes, result);
        case 'double_chance':
          return chancesOf(outcomes, (outcome) => {
            const [a, b] = outcome.split('_');
            return a && b ? result(a)! + result(b)! : undefined;
          });
        case 'draw_no_bet':
          return chancesOf(outcomes, (outcome) => result(outcome)! / (result('home')! + result('away')!));
        case 'half_time_result':
          return firstHalf ? chancesOf(outcomes, (outcome) => firstHalf.result(outcome)) : null;
        case 'both_teams_to_score': {
          const both = final.sum((cell) => cell.home > 0 && cell.away > 0);
          return chancesOf(outcomes, (outcome) => ({ yes: both, no: 1 - both })[outcome]);
        }
        case 'totals':
        case 'handicap':
          return lineChances(type, line, outcomes, final.tails);
        case 'correct_score': {
          const listed = outcomes.map(scoreOf).filter((score) => score !== undefined);
          const exactly = (score: { home: number; away: number }) =>
            final.sum((cell) => cell.home === score.home && cell.away === score.away);
          const other = 1 - listed.reduce((total, score) => total + exactly(score), 0);
          return chancesOf(outcomes, (outcome) => {
            if (outcome === 'other') return other;
            const score = scoreOf(outcome);
            return score ? exactly(score) : undefined;
          });
        }
        default:
          return undefined;
      }
    },
  };
}

// ---- basketball ----

/** The normal approximation of an integer quantity: P(X >= k) with a continuity correction. */
function normalTail(mean: number, variance: number): Tail {
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

function basketballModel(
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

// ---- tennis ----

/** The final set scores (home's sets first) of a best of three from these sets won, with their chances. */
function setScores(setWin: number, home: number, away: number, chance = 1): Map<string, number> {
  if (home === 2 || away === 2) return new Map([[`${home}-${away}`, chance]]);
  const scores = new Map<string, number>();
  for (const next of [
    setScores(setWin, home + 1, away, chance * setWin),
    setScores(setWin, home, away + 1, chance * (1 - setWin)),
  ]) {
    for (const [score, value] of next) scores.set(score, (scores.get(score) ?? 0) + value);
  }
  return scores;
}

function tennisModel(setWin: number, state: MatchState): MatchModel | undefined {
  if (state.status === 'live' && !/^set_[1-3]$/.test(state.period ?? '')) return undefined;
  const played = state.score.home + state.score.away;
  const finals = setScores(setWin, state.score.home, state.score.away);
  // A set has about 10 games, fewer when one player is much the stronger; its winner is 2 to 3 games ahead.
  const lopsided = Math.abs(2 * setWin - 1);
  const games = { mean: 7.5 + 2 * (1 - lopsided), variance: 4 };
  const lead = { mean: 2 + 2 * lopsided, variance: 2.25 };
  // Over the final set scores: the sets played count their mean games (the demo keeps no games), the rest vary.
  const mixture = (of: (home: number, away: number) => { mean: number; variance: number }): Tail => {
    const tails = [...finals].map(([score, chance]) => {
      const { home, away } = scoreOf(score)!;
      const { mean, variance } = of(home, away);
      return { chance, tail: normalTail(mean, variance) };
    });
    return (k) => tails.reduce((sum, { chance, tail }) => sum + chance * tail(k), 0);
  };
  const tails = {
    total: mixture((home, away) => ({
      mean: (home + away) * games.mean,
      variance: (home + away - played) * games.variance,
    })),
    margin: mixture((home, away) => ({
      mean: (home - away) * lead.mean,
      variance: (home + away - played) * lead.variance,
    })),
  };
  const wins = [...finals].reduce((sum, [score, chance]) => (score.startsWith('2-') ? sum + chance : sum), 0);
  const expectedOf = (tail: Tail) => {
    let mean = 0;
    for (let k = -40; k <= 60; k++) mean += k * (tail(k) - tail(k + 1));
    return mean;
  };
  return {
    expected: { total: expectedOf(tails.total), margin: expectedOf(tails.margin) },
    chances(type, line, outcomes) {
      if (state.status === 'finished') return null;
      switch (type) {
        case 'moneyline':
          return chancesOf(outcomes, (outcome) => ({ home: wins, away: 1 - wins })[outcome]);
        case 'first_set_winner':
          return played > 0 ? null : chancesOf(outcomes, (outcome) => ({ home: setWin, away: 1 - setWin })[outcome]);
        case 'set_betting':
          return chancesOf(outcomes, (outcome) => (scoreOf(outcome) ? (finals.get(outcome) ?? 0) : undefined));
        case 'totals':
        case 'handicap':
          return lineChances(type, line, outcomes, tails);
        default:
          return undefined;
      }
    },
  };
}
