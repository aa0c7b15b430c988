/**
 * What each market type is: the one name the service gives it, whether it takes a line, and the outcomes its
 * selections may have. Settlement needs none of this (a trader gives each selection's result); the trading API
 * checks a new market against it, so every market of a type reads the same to players and apps.
 */
import { validationError } from '../platform/errors.ts';
import type { MarketType } from './tables.ts';

interface MarketRule {
  name: (line: string | null) => string;
  /** none: refuses a line; signed: any line (a start given or taken); positive: a count above zero. */
  line: 'none' | 'signed' | 'positive';
  /** Exactly these outcomes, each once; or, for scores, outcomes of this form. */
  outcomes: readonly string[] | { pattern: RegExp; described: string };
}

const SIDES = ['home', 'away'] as const;
const THREE_WAY = ['home', 'draw', 'away'] as const;
const fixed = (name: string) => () => name;

export const MARKET_RULES: Record<MarketType, MarketRule> = {
  match_result: { name: fixed('Match result'), line: 'none', outcomes: THREE_WAY },
  moneyline: { name: fixed('Moneyline'), line: 'none', outcomes: SIDES },
  double_chance: { name: fixed('Double chance'), line: 'none', outcomes: ['home_draw', 'home_away', 'draw_away'] },
  draw_no_bet: { name: fixed('Draw no bet'), line: 'none', outcomes: SIDES },
  half_time_result: { name: fixed('Half-time result'), line: 'none', outcomes: THREE_WAY },
  first_half_moneyline: { name: fixed('First half moneyline'), line: 'none', outcomes: SIDES },
  first_set_winner: { name: fixed('First set winner'), line: 'none', outcomes: SIDES },
  both_teams_to_score: { name: fixed('Both teams to score'), line: 'none', outcomes: ['yes', 'no'] },
  totals: { name: (line) => `Total over/under ${line}`, line: 'positive', outcomes: ['over', 'under'] },
  handicap: { name: (line) => `Handicap ${line}`, line: 'signed', outcomes: SIDES },
  correct_score: {
    name: fixed('Correct score'),
    line: 'none',
    outcomes: { pattern: /^(\d{1,2}-\d{1,2}|other)$/, described: 'home-away scores such as 2-1, or other' },
  },
  set_betting: {
    name: fixed('Set betting'),
    line: 'none',
    outcomes: { pattern: /^(\d)-(?!\1)\d$/, described: "sets won, the home side's first, such as 2-1 (never a tie)" },
  },
};

/** The line of a new market in thousandths (null for none), refused where its type takes none or needs one. */
export function checkedLine(type: MarketType, line: number | null): number | null {
  const rule = MARKET_RULES[type].line;
  if (rule === 'none' && line !== null) throw validationError('line', `A ${type} market has no line.`);
  if (rule !== 'none' && line === null) throw validationError('line', `A ${type} market needs a line.`);
  if (rule === 'positive' && line !== null && line <= 0)
    throw validationError('line', `A ${type} market's line is above 0.`);
  return line;
}

/** A new market's outcomes: distinct, and those its type has (all of a fixed list, or each of the scores' form). */
export function checkOutcomes(type: MarketType, outcomes: string[]): void {
  if (new Set(outcomes).size !== outcomes.length)
    throw validationError('selections', 'Each selection needs its own outcome.');
  const allowed = MARKET_RULES[type].outcomes;
  if ('pattern' in allowed) {
    const index = outcomes.findIndex((outcome) => !allowed.pattern.test(outcome));
    if (index >= 0)
      throw validationError(`selections.${index}.outcome`, `A ${type} market's outcomes are ${allowed.described}.`);
    return;
  }
  if (outcomes.length !== allowed.length || !allowed.every((outcome) => outcomes.includes(outcome))) {
    throw validationError('selections', `A ${type} market has one selection for each of: ${allowed.join(', ')}.`);
  }
}
