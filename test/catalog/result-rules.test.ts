import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  deriveResults,
  onLine,
  scoreProblem,
  type FinalScore,
  type MarketToJudge,
  playedInSets,
} from '../../src/catalog/result-rules.ts';
import type { MarketType } from '../../src/catalog/tables.ts';

/**
 * Results by rule (src/catalog/result-rules.ts) against hand-worked examples: for each market type, a final score
 * and what every selection is. Pure: no database; test/betting/event-results.test.ts drives them through the API.
 */
const market = (type: MarketType, outcomes: string[], line: number | null = null): MarketToJudge => ({
  type,
  lineMilli: line,
  selections: outcomes.map((outcome) => ({ id: outcome, outcome })),
});
/** outcome → result, for reading the tables below */
function judged(of: MarketToJudge, score: FinalScore): Record<string, string> {
  const derived = deriveResults(of, score);
  assert.ok('results' in derived, `derivable: ${JSON.stringify(derived)}`);
  return Object.fromEntries(derived.results.map(({ selectionId, result }) => [selectionId, result]));
}
const THREE = ['home', 'draw', 'away'];
const SIDES = ['home', 'away'];
const ft = (home: number, away: number, extra: Partial<FinalScore> = {}): FinalScore => ({ home, away, ...extra });

describe('results by rule, from the final score', () => {
  const cases: Array<[string, MarketToJudge, FinalScore, Record<string, string>]> = [
    ['match result: a home win', market('match_result', THREE), ft(2, 1), { home: 'won', draw: 'lost', away: 'lost' }],
    ['match result: a draw', market('match_result', THREE), ft(1, 1), { home: 'lost', draw: 'won', away: 'lost' }],
    ['moneyline: the away side wins', market('moneyline', SIDES), ft(98, 101), { home: 'lost', away: 'won' }],
    ['moneyline: a tie refunds both sides', market('moneyline', SIDES), ft(100, 100), { home: 'void', away: 'void' }],
    [
      'double chance: a draw wins both pairs with a draw',
      market('double_chance', ['home_draw', 'home_away', 'draw_away']),
      ft(0, 0),
      { home_draw: 'won', home_away: 'lost', draw_away: 'won' },
    ],
    [
      'double chance: an away win',
      market('double_chance', ['home_draw', 'home_away', 'draw_away']),
      ft(0, 2),
      { home_draw: 'lost', home_away: 'won', draw_away: 'won' },
    ],
    ['draw no bet: a draw refunds', market('draw_no_bet', SIDES), ft(2, 2), { home: 'void', away: 'void' }],
    ['draw no bet: a home win', market('draw_no_bet', SIDES), ft(3, 2), { home: 'won', away: 'lost' }],
    [
      'half-time result: from the half-time score, not the final one',
      market('half_time_result', THREE),
      ft(2, 1, { halfTime: { home: 0, away: 1 } }),
      { home: 'lost', draw: 'lost', away: 'won' },
    ],
    [
      'first half moneyline: level at half time refunds',
      market('first_half_moneyline', SIDES),
      ft(110, 90, { halfTime: { home: 50, away: 50 } }),
      { home: 'void', away: 'void' },
    ],
    [
      'first set winner: the first set, whoever won the match',
      market('first_set_winner', SIDES),
      ft(1, 2, {
        sets: [
          { home: 6, away: 4 },
          { home: 3, away: 6 },
          { home: 5, away: 7 },
        ],
      }),
      { home: 'won', away: 'lost' },
    ],
    [
      'both teams to score: yes at 1-1',
      market('both_teams_to_score', ['yes', 'no']),
      ft(1, 1),
      { yes: 'won', no: 'lost' },
    ],
    [
      'both teams to score: no at 3-0',
      market('both_teams_to_score', ['yes', 'no']),
      ft(3, 0),
      { yes: 'lost', no: 'won' },
    ],
    [
      'totals 2.5: three goals is over',
      market('totals', ['over', 'under'], 2_500),
      ft(2, 1),
      { over: 'won', under: 'lost' },
    ],
    [
      'totals 3.0: three goals refunds',
      market('totals', ['over', 'under'], 3_000),
      ft(2, 1),
      { over: 'void', under: 'void' },
    ],
    [
      'totals 2.25: two goals is half the stake refunded (2.0), half lost over (2.5)',
      market('totals', ['over', 'under'], 2_250),
      ft(1, 1),
      { over: 'half_lost', under: 'half_won' },
    ],
    [
      'totals 2.75: three goals is half won over (2.5), half refunded (3.0)',
      market('totals', ['over', 'under'], 2_750),
      ft(3, 0),
      { over: 'half_won', under: 'half_lost' },
    ],
    [
      'totals in a sport of sets count games: 6-4 6-3 is 19 games',
      market('totals', ['over', 'under'], 20_500),
      ft(2, 0, {
        sets: [
          { home: 6, away: 4 },
          { home: 6, away: 3 },
        ],
      }),
      { over: 'lost', under: 'won' },
    ],
    [
      'handicap -1.5: a two-goal home win covers',
      market('handicap', SIDES, -1_500),
      ft(2, 0),
      { home: 'won', away: 'lost' },
    ],
    [
      'handicap -1.5: a one-goal home win does not',
      market('handicap', SIDES, -1_500),
      ft(2, 1),
      { home: 'lost', away: 'won' },
    ],
    [
      'handicap +1.0: a one-goal away win refunds',
      market('handicap', SIDES, 1_000),
      ft(0, 1),
      { home: 'void', away: 'void' },
    ],
    [
      'handicap -0.25: a draw is a half loss for the home side',
      market('handicap', SIDES, -250),
      ft(1, 1),
      { home: 'half_lost', away: 'half_won' },
    ],
    [
      'handicap +0.75: a one-goal away defeat of the home side is a half loss',
      market('handicap', SIDES, 750),
      ft(0, 1),
      { home: 'half_lost', away: 'half_won' },
    ],
    [
      'handicap in games: -3.5 games on 6-4 6-3 (+5) covers',
      market('handicap', SIDES, -3_500),
      ft(2, 0, {
        sets: [
          { home: 6, away: 4 },
          { home: 6, away: 3 },
        ],
      }),
      { home: 'won', away: 'lost' },
    ],
    [
      'correct score: the listed score wins, the rest lose',
      market('correct_score', ['1-0', '2-1', '1-1', 'other']),
      ft(2, 1),
      { '1-0': 'lost', '2-1': 'won', '1-1': 'lost', other: 'lost' },
    ],
    [
      'correct score: a score not listed is won by other',
      market('correct_score', ['1-0', '2-1', 'other']),
      ft(4, 3),
      { '1-0': 'lost', '2-1': 'lost', other: 'won' },
    ],
    [
      'set betting: the sets won',
      market('set_betting', ['2-0', '2-1', '1-2', '0-2']),
      ft(2, 1, {
        sets: [
          { home: 6, away: 4 },
          { home: 3, away: 6 },
          { home: 7, away: 5 },
        ],
      }),
      { '2-0': 'lost', '2-1': 'won', '1-2': 'lost', '0-2': 'lost' },
    ],
  ];
  for (const [name, of, score, expected] of cases) {
    it(name, () => assert.deepEqual(judged(of, score), expected));
  }

  it('a half-time market needs the half-time score, a first-set market the sets', () => {
    assert.deepEqual(deriveResults(market('half_time_result', THREE), ft(1, 0)), { missing: 'halfTime' });
    assert.deepEqual(deriveResults(market('first_half_moneyline', SIDES), ft(1, 0)), { missing: 'halfTime' });
    assert.deepEqual(deriveResults(market('first_set_winner', SIDES), ft(2, 0)), { missing: 'sets' });
    assert.deepEqual(deriveResults(market('first_set_winner', SIDES), ft(2, 0, { sets: [] })), { missing: 'sets' });
  });

  it("in an event played in sets, totals and handicaps are lines in games: they need each set's games", () => {
    const inSets = (of: MarketToJudge) => ({ ...of, inSets: true });
    assert.deepEqual(deriveResults(inSets(market('totals', ['over', 'under'], 20_500)), ft(2, 0)), { missing: 'sets' });
    assert.deepEqual(deriveResults(inSets(market('handicap', SIDES, -3_500)), ft(2, 1)), { missing: 'sets' });
    // with the sets' games they are judged on games; the match winner never needed them
    const sets = ft(2, 0, {
      sets: [
        { home: 6, away: 4 },
        { home: 6, away: 3 },
      ],
    });
    assert.deepEqual(judged(inSets(market('totals', ['over', 'under'], 20_500)), sets), { over: 'lost', under: 'won' });
    assert.deepEqual(judged(inSets(market('moneyline', SIDES)), ft(2, 1)), { home: 'won', away: 'lost' });
    // which events are played in sets: those with a market on sets
    assert.deepEqual(
      [playedInSets(['moneyline', 'set_betting', 'totals']), playedInSets(['match_result', 'totals'])],
      [true, false],
    );
  });
});

describe('a selection on a line', () => {
  const cases: Array<[number, number, string]> = [
    // how far ahead of the line (thousandths), the line, the result
    [500, 2_500, 'won'],
    [-500, 2_500, 'lost'],
    [0, 3_000, 'void'],
    [250, 2_250, 'half_won'],
    [-250, 2_250, 'half_lost'],
    [750, 2_250, 'won'],
    [-750, -750, 'lost'],
    [250, -750, 'half_won'],
  ];
  for (const [margin, line, result] of cases) {
    it(`${margin} ahead of ${line} is ${result}`, () => assert.equal(onLine(margin, line), result));
  }
});

describe('a score that cannot be final', () => {
  it('a half-time score above the final one', () =>
    assert.equal(scoreProblem(ft(1, 0, { halfTime: { home: 2, away: 0 } }))?.field, 'score.halfTime'));
  it('a set without a winner', () =>
    assert.equal(scoreProblem(ft(1, 0, { sets: [{ home: 6, away: 6 }] }))?.field, 'score.sets.0'));
  it('sets whose winners are not the sets won', () =>
    assert.equal(
      scoreProblem(
        ft(2, 0, {
          sets: [
            { home: 6, away: 4 },
            { home: 4, away: 6 },
          ],
        }),
      )?.field,
      'score.sets',
    ));
  it('consistent scores', () => {
    assert.equal(scoreProblem(ft(2, 1, { halfTime: { home: 1, away: 1 } })), null);
    assert.equal(
      scoreProblem(
        ft(1, 2, {
          sets: [
            { home: 7, away: 6 },
            { home: 3, away: 6 },
            { home: 4, away: 6 },
          ],
        }),
      ),
      null,
    );
  });
});
