import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FeedMessage } from '../../src/feed/schemas.ts';
import { demoCatalog } from '../../src/seed/demo-catalog.ts';

const NOW = new Date('2026-03-01T18:00:00Z');
type MarketMessage = Extract<FeedMessage, { type: 'market' }>;
interface Market {
  type: MarketMessage['marketType'];
  line?: string | undefined;
  selections: MarketMessage['selections'];
}
type Update = Exclude<FeedMessage, MarketMessage> | { type: 'market'; id: string; eventId: string; market: Market };
// the feed's market messages, read as the markets they make
const messages = demoCatalog(NOW);
const updates: Update[] = messages.map((message) =>
  message.type === 'market'
    ? {
        type: 'market',
        id: message.marketId,
        eventId: message.eventId,
        market: { type: message.marketType, line: message.line, selections: message.selections },
      }
    : message,
);

type EventState = Extract<FeedMessage, { type: 'event_state' }>;
const marketsOf = (eventId: string): Market[] =>
  updates.flatMap((update) => (update.type === 'market' && update.eventId === eventId ? [update.market] : []));
const stateOf = (eventId: string) =>
  updates.find((update): update is EventState => update.type === 'event_state' && update.eventId === eventId);
const shape = (markets: Market[]) => markets.map((market) => `${market.type}${market.line ? ` ${market.line}` : ''}`);
const names = (market: Market) => market.selections.map((selection) => selection.name);
const overround = (market: Market) => market.selections.reduce((sum, selection) => sum + 1 / Number(selection.odds), 0);

describe('demo catalog depth', () => {
  it('a football match has match result, double chance, draw no bet, half-time result, both teams to score, totals and handicaps at several lines, and correct score', () => {
    const markets = marketsOf('ev-premier-league-2');
    assert.deepEqual(shape(markets), [
      'match_result',
      'double_chance',
      'draw_no_bet',
      'half_time_result',
      'both_teams_to_score',
      'totals 0.5',
      'totals 1.5',
      'totals 2.5',
      'totals 3.5',
      'totals 4.5',
      'handicap -1.5',
      'handicap -0.5',
      'handicap 0.5',
      'handicap 1.5',
      'correct_score',
    ]);
    assert.deepEqual(names(markets[0]!), ['Home', 'Draw', 'Away']);
    assert.deepEqual(names(markets[1]!), ['Home or draw', 'Home or away', 'Draw or away']);
    assert.deepEqual(names(markets[7]!), ['Over 2.5', 'Under 2.5']);
    assert.deepEqual(names(markets[10]!), ['Home -1.5', 'Away +1.5']);
    assert.deepEqual(names(markets[12]!), ['Home +0.5', 'Away -0.5']);
    assert.deepEqual(names(markets[14]!).slice(0, 3), ['0-0', '0-1', '0-2']);
    assert.equal(names(markets[14]!).at(-1), 'Any other');
  });

  it('a basketball match has moneyline, handicaps and totals at several lines, and the first half moneyline', () => {
    const markets = marketsOf('ev-nba-2');
    assert.deepEqual(
      markets.map((market) => market.type),
      ['moneyline', ...Array(5).fill('handicap'), ...Array(5).fill('totals'), 'first_half_moneyline'],
    );
    const lines = (type: string) =>
      markets.filter((market) => market.type === type).map((market) => Number(market.line));
    assert.deepEqual(
      lines('handicap').map((line, index, all) => line - (all[index - 1] ?? line - 2)),
      [2, 2, 2, 2, 2],
    );
    assert.deepEqual(
      lines('totals').map((line, index, all) => line - (all[index - 1] ?? line - 4)),
      [4, 4, 4, 4, 4],
    );
    assert.ok(lines('totals').every((line) => line > 200 && line < 250 && line % 1 === 0.5));
  });

  it('a tennis match has match winner, set betting, first set winner, and total games and game handicaps at several lines', () => {
    const markets = marketsOf('ev-atp-2');
    assert.deepEqual(
      markets.map((market) => market.type),
      ['moneyline', 'set_betting', 'first_set_winner', ...Array(5).fill('totals'), ...Array(3).fill('handicap')],
    );
    assert.deepEqual(names(markets[1]!), ['2-0', '2-1', '1-2', '0-2']);
    const totals = markets.filter((market) => market.type === 'totals').map((market) => Number(market.line));
    assert.ok(
      totals.every((line) => line >= 18.5 && line <= 28.5),
      totals.join(),
    );
  });

  it('prices every market with a margin for the book, and not too much of one', () => {
    for (const update of updates) {
      if (update.type !== 'market' || stateOf(update.eventId)) continue;
      const { market } = update;
      const sum = overround(market);
      const [least, most] =
        market.type === 'double_chance' ? [2, 2.25] : market.selections.length > 4 ? [1.05, 1.6] : [1, 1.15];
      assert.ok(sum > least && sum < most, `${update.id} ${market.type} ${market.line ?? ''}: ${sum}`);
    }
  });

  it('prices the lines of a match consistently: over dearer as the line rises, a handicap cheaper as it gives more', () => {
    for (const eventId of ['ev-premier-league-2', 'ev-nba-2', 'ev-atp-2']) {
      const first = (type: string) =>
        marketsOf(eventId)
          .filter((market) => market.type === type)
          .map((market) => Number(market.selections[0]!.odds));
      const over = first('totals');
      const home = first('handicap');
      assert.deepEqual(
        over,
        [...over].sort((a, b) => a - b),
        `${eventId} totals`,
      );
      assert.deepEqual(
        home,
        [...home].sort((a, b) => b - a),
        `${eventId} handicaps`,
      );
    }
  });

  it('is the same catalog for the same time', () => {
    assert.deepEqual(demoCatalog(NOW), messages);
  });
});

describe('demo live events', () => {
  const live = (prefix: string) =>
    updates.filter(
      (update): update is EventState => update.type === 'event_state' && update.eventId.startsWith(prefix),
    );

  it('six events are in play: three football matches, two basketball games and a tennis match', () => {
    assert.deepEqual(
      updates.filter((update) => update.type === 'event_state').map((update) => update.eventId),
      ['ev-br-serie-a-1', 'ev-premier-league-1', 'ev-la-liga-1', 'ev-nba-1', 'ev-nbb-1', 'ev-atp-1'],
    );
  });

  it('whatever the time it is seeded, its live events are still in play', () => {
    for (let hour = 0; hour < 48; hour++) {
      const states = demoCatalog(new Date(NOW.getTime() + hour * 3_600_000 + hour * 7_919)).filter(
        (update): update is EventState => update.type === 'event_state',
      );
      assert.deepEqual(
        states.map((state) => state.status),
        Array(6).fill('live'),
        `${hour}`,
      );
    }
  });

  it('football starts at a believable point: a half or half-time, its clock up, a football score', () => {
    for (const state of [...live('ev-br'), ...live('ev-premier'), ...live('ev-la-liga')]) {
      assert.equal(state.status, 'live');
      assert.ok(['first_half', 'half_time', 'second_half'].includes(state.period!), state.period!);
      assert.equal(state.clock!.direction, 'up');
      assert.equal(state.clock!.running, state.period !== 'half_time');
      assert.ok(state.clock!.seconds >= 15 * 60 && state.clock!.seconds <= 90 * 60, `${state.clock!.seconds}`);
      assert.ok(state.score!.home + state.score!.away <= 6, JSON.stringify(state.score));
    }
  });

  it('basketball starts in a quarter or a pause, its clock counting the quarter down, at a basketball pace', () => {
    for (const state of [...live('ev-nba'), ...live('ev-nbb')]) {
      assert.match(state.period!, /^(quarter_[1-4]|half_time)$/);
      assert.equal(state.clock!.direction, 'down');
      assert.ok(state.clock!.seconds <= (state.eventId.startsWith('ev-nba') ? 720 : 600));
      assert.ok(state.score!.home + state.score!.away > 10, JSON.stringify(state.score));
    }
  });

  it('tennis starts in a set, the score its sets won, with no clock', () => {
    const [state] = live('ev-atp');
    assert.equal(state!.period, `set_${state!.score!.home + state!.score!.away + 1}`);
    assert.ok(state!.score!.home <= 1 && state!.score!.away <= 1);
    assert.equal(state!.clock, undefined);
  });

  it('closes the markets a live match has already decided, as a trader would have', () => {
    const closed = new Set(
      updates.flatMap((update) =>
        update.type === 'market_status' && update.status === 'closed' ? [update.marketId] : [],
      ),
    );
    for (const state of [...live('ev-br'), ...live('ev-premier'), ...live('ev-la-liga')]) {
      const goals = state.score!.home + state.score!.away;
      const ids = (type: string, line?: string) =>
        updates.flatMap((update) =>
          update.type === 'market' &&
          update.eventId === state.eventId &&
          update.market.type === type &&
          update.market.line === line
            ? [update.id]
            : [],
        );
      assert.equal(closed.has(ids('totals', '0.5')[0]!), goals > 0, `${state.eventId} ${goals}`);
      assert.equal(closed.has(ids('half_time_result')[0]!), state.period !== 'first_half', state.eventId);
      assert.equal(closed.has(ids('match_result')[0]!), false);
    }
    assert.ok([...closed].every((id) => id.startsWith('mk-') && stateOf(`ev-${id.slice(3).replace(/-\d+$/, '')}`)));
  });
});
