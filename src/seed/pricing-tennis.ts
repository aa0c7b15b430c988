/**
 * Tennis's prices: sets are won at the home player's set chance; games per set and the games margin are normal
 * around typical sets.
 */
import type { MatchState } from './match-play.ts';
import { chancesOf, lineChances, normalTail, scoreOf, type MatchModel, type Tail } from './pricing-chances.ts';

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

export function tennisModel(setWin: number, state: MatchState): MatchModel | undefined {
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
