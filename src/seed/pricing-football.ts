/**
 * Football's prices: the goals still to come are Poisson at each side's rate for the minutes left.
 */
import { clockReading, FOOTBALL_MINUTES, type MatchState } from './match-play.ts';
import { chancesOf, lineChances, scoreOf, type MatchModel } from './pricing-chances.ts';

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

export function footballModel(goals: { home: number; away: number }, state: MatchState, now: number): MatchModel {
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
