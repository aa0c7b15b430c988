/**
 * The markets of a demo event, sport by sport, as players of a leading sportsbook expect them, priced by the
 * match's model (pricing.ts) where the match stands when it is seeded.
 */
import { formatLine, parseMilli } from '../catalog/odds.ts';
import type { CreateMarketBody } from '../catalog/schemas.ts';
import type { MarketType } from '../catalog/tables.ts';
import type { MatchProfile } from './demo-leagues.ts';
import type { MatchModel } from './pricing-chances.ts';
import { priceOf } from './pricing.ts';

interface MarketShape {
  type: MarketType;
  line?: string;
  selections: Array<{ name: string; outcome: string }>;
}

const sides = () => [
  { name: 'Home', outcome: 'home' },
  { name: 'Away', outcome: 'away' },
];
const threeWay = () => [
  { name: 'Home', outcome: 'home' },
  { name: 'Draw', outcome: 'draw' },
  { name: 'Away', outcome: 'away' },
];
const signed = (line: number) => (line > 0 ? `+${formatLine(line)}` : formatLine(line));

function totals(lines: number[]): MarketShape[] {
  return lines.map((milli) => {
    const line = formatLine(milli);
    return {
      type: 'totals',
      line,
      selections: [
        { name: `Over ${line}`, outcome: 'over' },
        { name: `Under ${line}`, outcome: 'under' },
      ],
    };
  });
}

/** Handicap lines are the home side's: "Home -1.5" against "Away +1.5". */
function handicaps(lines: number[]): MarketShape[] {
  return lines.map((milli) => ({
    type: 'handicap',
    line: formatLine(milli),
    selections: [
      { name: `Home ${signed(milli)}`, outcome: 'home' },
      { name: `Away ${signed(-milli)}`, outcome: 'away' },
    ],
  }));
}

/** Half lines (x.5, in thousandths) spaced `step` apart around the one nearest `center`. */
function linesAround(center: number, step: number, count: number): number[] {
  const middle = (Math.floor(center) + 0.5) * 1000;
  return Array.from({ length: count }, (_, index) => middle + (index - (count - 1) / 2) * step * 1000);
}

function footballShapes(): MarketShape[] {
  const scores = [];
  for (let home = 0; home <= 3; home++)
    for (let away = 0; away <= 3; away++) scores.push({ name: `${home}-${away}`, outcome: `${home}-${away}` });
  return [
    { type: 'match_result', selections: threeWay() },
    {
      type: 'double_chance',
      selections: [
        { name: 'Home or draw', outcome: 'home_draw' },
        { name: 'Home or away', outcome: 'home_away' },
        { name: 'Draw or away', outcome: 'draw_away' },
      ],
    },
    { type: 'draw_no_bet', selections: sides() },
    { type: 'half_time_result', selections: threeWay() },
    {
      type: 'both_teams_to_score',
      selections: [
        { name: 'Yes', outcome: 'yes' },
        { name: 'No', outcome: 'no' },
      ],
    },
    ...totals([500, 1500, 2500, 3500, 4500]),
    ...handicaps([-1500, -500, 500, 1500]),
    { type: 'correct_score', selections: [...scores, { name: 'Any other', outcome: 'other' }] },
  ];
}

function basketballShapes(expected: MatchModel['expected']): MarketShape[] {
  return [
    { type: 'moneyline', selections: sides() },
    ...handicaps(linesAround(-expected.margin, 2, 5)),
    ...totals(linesAround(expected.total, 4, 5)),
    { type: 'first_half_moneyline', selections: sides() },
  ];
}

function tennisShapes(expected: MatchModel['expected']): MarketShape[] {
  return [
    { type: 'moneyline', selections: sides() },
    {
      type: 'set_betting',
      selections: ['2-0', '2-1', '1-2', '0-2'].map((score) => ({ name: score, outcome: score })),
    },
    { type: 'first_set_winner', selections: sides() },
    ...totals(linesAround(expected.total, 1, 5)),
    ...handicaps(linesAround(-expected.margin, 2, 3)),
  ];
}

/**
 * The markets of an event, with their lines placed by the match's expectations before it starts, priced by its
 * model as it stands now. A market already over (a half played, a line passed) is priced as it was at the start
 * and marked `over`: the seed closes it, as a trader would have.
 */
export function demoMarkets(
  profile: MatchProfile,
  before: MatchModel,
  now: MatchModel,
): Array<{ market: CreateMarketBody; over: boolean }> {
  const shapes =
    profile.kind === 'football'
      ? footballShapes()
      : profile.kind === 'basketball'
        ? basketballShapes(before.expected)
        : tennisShapes(before.expected);
  return shapes.map((shape) => {
    const outcomes = shape.selections.map((selection) => selection.outcome);
    const line = shape.line === undefined ? null : parseMilli(shape.line) / 1000;
    const chances = now.chances(shape.type, line, outcomes) ?? before.chances(shape.type, line, outcomes)!;
    const market = {
      ...shape,
      selections: shape.selections.map((selection) => ({
        ...selection,
        odds: priceOf(chances.get(selection.outcome)!, outcomes.length),
      })),
    };
    return { market, over: !now.chances(shape.type, line, outcomes) };
  });
}
