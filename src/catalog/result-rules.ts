/**
 * Results by rule: from an event's final score, what each market's selections are, by the rule of the market's type
 * (the 12 of market-rules.ts). Pure: the trading API shows these as a dry run the trader confirms, and settlement
 * then judges the bets exactly as it does for results a trader types.
 *
 * The score: `home` and `away` are what decides the match (goals, points; in a sport played in sets, sets won);
 * `halfTime` the score at half time; `sets` each set's games, in order. Totals and handicaps count the sets' games
 * where the score has sets (tennis's lines are in games), else the final score.
 */
import type { MarketType, SelectionResult } from './tables.ts';

export interface FinalScore {
  home: number;
  away: number;
  halfTime?: { home: number; away: number };
  sets?: Array<{ home: number; away: number }>;
}

export interface MarketToJudge {
  type: MarketType;
  /** thousandths (2.25 → 2250), null for none */
  lineMilli: number | null;
  selections: Array<{ id: string; outcome: string }>;
  /**
   * Its event is played in sets (it has a market on sets: set betting, first set winner): its totals and handicaps
   * are then lines in games, which only each set's games can judge.
   */
  inSets?: boolean;
}

/** Markets on sets: an event that has one is played in sets. */
const SET_MARKETS: readonly MarketType[] = ['set_betting', 'first_set_winner'];

/** Whether an event with markets of these types is played in sets. */
export const playedInSets = (types: readonly MarketType[]): boolean => types.some((type) => SET_MARKETS.includes(type));

/** A market's derived results, or why they cannot be derived from this score (a part of the score it needs). */
export type Derivation =
  { results: Array<{ selectionId: string; result: SelectionResult }> } | { missing: 'halfTime' | 'sets' };

type Side = 'home' | 'draw' | 'away';
type Judge = (outcome: string, score: FinalScore, line: number) => SelectionResult;
interface ResultRule {
  /** the part of the score the rule reads beyond the final one */
  needs?: 'halfTime' | 'sets';
  judge: Judge;
}

const winner = (home: number, away: number): Side => (home > away ? 'home' : home < away ? 'away' : 'draw');
const wonIf = (won: boolean): SelectionResult => (won ? 'won' : 'lost');
/** A two-way market with no draw to bet on: a draw refunds both sides (moneyline, draw no bet). */
const twoWay = (outcome: string, home: number, away: number): SelectionResult => {
  const side = winner(home, away);
  return side === 'draw' ? 'void' : wonIf(outcome === side);
};
/** Games of every set, or the final score where the sport has no sets. */
const counted = (score: FinalScore): { home: number; away: number } =>
  score.sets?.length
    ? score.sets.reduce((sum, set) => ({ home: sum.home + set.home, away: sum.away + set.away }), { home: 0, away: 0 })
    : score;

/**
 * A selection on a line, given by how far (in thousandths) it is ahead of the line: ahead wins, behind loses, level
 * refunds. A quarter line (2.25) is half the stake on each neighbouring line (2.0 and 2.5): one half won (or lost)
 * and the other refunded is a half win (a half loss).
 */
export function onLine(margin: number, lineMilli: number): SelectionResult {
  const whole = (ahead: number): SelectionResult => (ahead > 0 ? 'won' : ahead < 0 ? 'lost' : 'void');
  if (Math.abs(lineMilli) % 500 !== 250) return whole(margin);
  const [low, high] = [whole(margin + 250), whole(margin - 250)];
  if (low === high) return low;
  return low === 'won' || high === 'won' ? 'half_won' : 'half_lost';
}

const RESULT_RULES: Record<MarketType, ResultRule> = {
  match_result: { judge: (outcome, score) => wonIf(outcome === winner(score.home, score.away)) },
  moneyline: { judge: (outcome, score) => twoWay(outcome, score.home, score.away) },
  double_chance: {
    judge: (outcome, score) => wonIf(outcome.split('_').includes(winner(score.home, score.away))),
  },
  draw_no_bet: { judge: (outcome, score) => twoWay(outcome, score.home, score.away) },
  half_time_result: {
    needs: 'halfTime',
    judge: (outcome, { halfTime }) => wonIf(outcome === winner(halfTime!.home, halfTime!.away)),
  },
  first_half_moneyline: {
    needs: 'halfTime',
    judge: (outcome, { halfTime }) => twoWay(outcome, halfTime!.home, halfTime!.away),
  },
  first_set_winner: {
    needs: 'sets',
    judge: (outcome, { sets }) => twoWay(outcome, sets![0]!.home, sets![0]!.away),
  },
  both_teams_to_score: {
    judge: (outcome, score) => wonIf((outcome === 'yes') === (score.home > 0 && score.away > 0)),
  },
  totals: {
    judge: (outcome, score, line) => {
      const { home, away } = counted(score);
      const over = (home + away) * 1000 - line;
      return onLine(outcome === 'over' ? over : -over, line);
    },
  },
  handicap: {
    // the line is the home side's start: +1.5 adds 1.5 to the home side's score, -1.5 takes it away
    judge: (outcome, score, line) => {
      const { home, away } = counted(score);
      const homeAhead = (home - away) * 1000 + line;
      return onLine(outcome === 'home' ? homeAhead : -homeAhead, line);
    },
  },
  correct_score: {
    // 'other' is judged by the caller (it wins when no listed score does); here a listed score wins or loses
    judge: (outcome, score) => wonIf(outcome === `${score.home}-${score.away}`),
  },
  set_betting: { judge: (outcome, score) => wonIf(outcome === `${score.home}-${score.away}`) },
};

/** Every selection's result by its market type's rule, or the part of the score the rule still needs. */
export function deriveResults(market: MarketToJudge, score: FinalScore): Derivation {
  const rule = RESULT_RULES[market.type];
  if (rule.needs === 'halfTime' && !score.halfTime) return { missing: 'halfTime' };
  if (rule.needs === 'sets' && !score.sets?.length) return { missing: 'sets' };
  // a line in games judged on sets won would settle it wrongly: without each set's games it waits for them
  const inGames = market.inSets && (market.type === 'totals' || market.type === 'handicap');
  if (inGames && !score.sets?.length) return { missing: 'sets' };
  const line = market.lineMilli ?? 0;
  const listed = market.selections.some(
    ({ outcome }) => outcome !== 'other' && rule.judge(outcome, score, line) === 'won',
  );
  return {
    results: market.selections.map(({ id, outcome }) => ({
      selectionId: id,
      result: outcome === 'other' ? wonIf(!listed) : rule.judge(outcome, score, line),
    })),
  };
}

/**
 * Why a score cannot be a final one, or null: a half-time score above the final one, sets whose winners do not add
 * up to the sets won, a set without a winner.
 */
export function scoreProblem(score: FinalScore): { field: string; message: string } | null {
  const { halfTime, sets } = score;
  if (halfTime && (halfTime.home > score.home || halfTime.away > score.away)) {
    return { field: 'score.halfTime', message: 'The half-time score cannot be above the final score.' };
  }
  if (!sets?.length) return null;
  const tied = sets.findIndex((set) => set.home === set.away);
  if (tied >= 0) return { field: `score.sets.${tied}`, message: 'Every set has a winner.' };
  const won = sets.reduce((sum, set) => sum + (set.home > set.away ? 1 : 0), 0);
  if (won !== score.home || sets.length - won !== score.away) {
    return {
      field: 'score.sets',
      message: `The sets' winners give ${won}-${sets.length - won}; home and away are the sets won.`,
    };
  }
  return null;
}
