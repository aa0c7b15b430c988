import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
let trader: string;
let eventId: string;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  trader = (await loginAsStaff(t, 'trader')).token;
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  const { competition } = (
    await trade('POST', '/competitions', { sportId: 'soccer', name: 'La Liga', country: 'Spain' })
  ).body;
  eventId = (
    await trade('POST', '/events', {
      competitionId: competition.id,
      home: 'Sevilla',
      away: 'Valencia',
      startsAt: '2026-03-02T20:00:00Z',
    })
  ).body.event.id;
});

function trade(method: string, path: string, body?: unknown) {
  return t.request(method, `/api/v1/admin/trading${path}`, { token: trader, ...(body === undefined ? {} : { body }) });
}

const market = (type: string, outcomes: string[], line?: string) =>
  trade('POST', `/events/${eventId}/markets`, {
    type,
    ...(line === undefined ? {} : { line }),
    selections: outcomes.map((outcome, index) => ({ name: outcome, outcome, odds: `${2 + index}.10` })),
  });

describe('market types', () => {
  it('each type has one name, written by the service, with its line where it has one', async () => {
    const created: Array<[string, string[], string?]> = [
      ['match_result', ['home', 'draw', 'away']],
      ['moneyline', ['home', 'away']],
      ['double_chance', ['home_draw', 'home_away', 'draw_away']],
      ['draw_no_bet', ['home', 'away']],
      ['half_time_result', ['home', 'draw', 'away']],
      ['first_half_moneyline', ['home', 'away']],
      ['both_teams_to_score', ['yes', 'no']],
      ['totals', ['over', 'under'], '2.5'],
      ['handicap', ['home', 'away'], '-1.5'],
      ['correct_score', ['1-0', '0-0', '10-2', 'other']],
      ['set_betting', ['2-0', '2-1', '1-2', '0-2']],
      ['first_set_winner', ['home', 'away']],
    ];
    const names = [];
    for (const [type, outcomes, line] of created) {
      const response = await market(type, outcomes, line);
      assert.equal(response.status, 201, `${type}: ${response.text}`);
      names.push([response.body.market.type, response.body.market.name, response.body.market.line]);
    }
    assert.deepEqual(names, [
      ['match_result', 'Match result', null],
      ['moneyline', 'Moneyline', null],
      ['double_chance', 'Double chance', null],
      ['draw_no_bet', 'Draw no bet', null],
      ['half_time_result', 'Half-time result', null],
      ['first_half_moneyline', 'First half moneyline', null],
      ['both_teams_to_score', 'Both teams to score', null],
      ['totals', 'Total over/under 2.5', '2.5'],
      ['handicap', 'Handicap -1.5', '-1.5'],
      ['correct_score', 'Correct score', null],
      ['set_betting', 'Set betting', null],
      ['first_set_winner', 'First set winner', null],
    ]);
  });

  it('a market cannot be given a name of its own', async () => {
    const response = await trade('POST', `/events/${eventId}/markets`, {
      type: 'moneyline',
      name: 'Money line',
      selections: [
        { name: 'Home', outcome: 'home', odds: '1.50' },
        { name: 'Away', outcome: 'away', odds: '2.50' },
      ],
    });
    assert.deepEqual([response.status, response.body.error.code], [400, 'validation']);
  });

  it('totals need a line above 0; handicaps need a line of either sign; the other types refuse one', async () => {
    const refused = async (type: string, outcomes: string[], line: string | undefined, message: RegExp) => {
      const response = await market(type, outcomes, line);
      assert.deepEqual([response.status, response.body.error.details.field], [400, 'line'], `${type} ${line}`);
      assert.match(response.body.error.message, message);
    };
    await refused('totals', ['over', 'under'], undefined, /needs a line/);
    await refused('totals', ['over', 'under'], '0', /above 0/);
    await refused('totals', ['over', 'under'], '-2.5', /above 0/);
    await refused('handicap', ['home', 'away'], undefined, /needs a line/);
    await refused('double_chance', ['home_draw', 'home_away', 'draw_away'], '0.5', /has no line/);
    await refused('set_betting', ['2-0', '0-2'], '1.5', /has no line/);
    assert.equal((await market('handicap', ['home', 'away'], '1.5')).status, 201);
    assert.equal((await market('handicap', ['home', 'away'], '-0.25')).status, 201);
    assert.equal((await market('totals', ['over', 'under'], '2.25')).status, 201);
  });

  it('a fixed-outcome type needs exactly its outcomes, each once', async () => {
    for (const [type, outcomes] of [
      ['match_result', ['home', 'away']],
      ['match_result', ['home', 'draw', 'away', 'other']],
      ['double_chance', ['home', 'draw', 'away']],
      ['draw_no_bet', ['home', 'draw']],
      ['both_teams_to_score', ['yes', 'maybe']],
      ['totals', ['over', 'exactly']],
      ['moneyline', ['a', 'b']],
    ] as const) {
      const response = await market(type, [...outcomes], type === 'totals' ? '2.5' : undefined);
      assert.deepEqual(
        [response.status, response.body.error.code, response.body.error.details.field],
        [400, 'validation', 'selections'],
        `${type}: ${outcomes.join(',')}`,
      );
    }
    const doubleChance = await market('double_chance', ['home', 'draw', 'away']);
    assert.equal(
      doubleChance.body.error.message,
      'A double_chance market has one selection for each of: home_draw, home_away, draw_away.',
    );
  });

  it('scores are home-away numbers: any for a correct score (and other), a winner for set betting', async () => {
    const badScore = await market('correct_score', ['1-0', 'one-nil']);
    assert.deepEqual([badScore.status, badScore.body.error.details.field], [400, 'selections.1.outcome']);
    const tiedSets = await market('set_betting', ['2-0', '1-1']);
    assert.deepEqual([tiedSets.status, tiedSets.body.error.details.field], [400, 'selections.1.outcome']);
    const otherSets = await market('set_betting', ['2-0', 'other']);
    assert.deepEqual([otherSets.status, otherSets.body.error.details.field], [400, 'selections.1.outcome']);
    assert.equal((await market('correct_score', ['0-0', '1-1'])).status, 201);
    assert.equal((await market('set_betting', ['3-0', '3-2', '2-3', '0-3'])).status, 201);
  });

  it('a market of a new type is settled like any other: a result for each selection', async () => {
    const { market: created } = (await market('double_chance', ['home_draw', 'home_away', 'draw_away'])).body;
    const admin = (await loginAsStaff(t, 'platform_admin')).token;
    const [homeDraw, homeAway, drawAway] = created.selections;
    const settled = await t.request('POST', `/api/v1/admin/trading/markets/${created.id}/settle`, {
      token: admin,
      body: {
        results: [
          { selectionId: homeDraw.id, result: 'won' },
          { selectionId: homeAway.id, result: 'won' },
          { selectionId: drawAway.id, result: 'lost' },
        ],
      },
    });
    assert.equal(settled.status, 200, settled.text);
    const event = (await t.request('GET', `/api/v1/catalog/events/${eventId}`)).body.event;
    assert.deepEqual(
      event.markets[0].selections.map((selection: { result: string }) => selection.result),
      ['won', 'won', 'lost'],
    );
  });
});
