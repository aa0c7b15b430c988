import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { freshSportsbookPerTest, newRequestId, type Sportsbook } from '../helpers/sportsbook.ts';
import { openStream } from '../helpers/stream.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * The odds feed (docs/feed.md): producers push messages with their key; sequences per event keep old and repeated
 * messages out; a silent producer's markets are suspended by rule; a trader's price is never written over; a trusted
 * producer's result settles markets by their rules.
 */
const fresh = freshSportsbookPerTest('feed-player', 100_00, {}, { config: { FEED_SILENCE_SECONDS: '10' } });
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const EVENT = 'sr:match:4711';
const MARKET = 'sr:match:4711:1x2';

async function register(id = 'acme', trusted = false): Promise<string> {
  const response = await t.request('POST', '/api/v1/admin/feed/producers', {
    token: book.admin,
    body: { id, name: `${id} odds`, trusted },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.key;
}
const push = (key: string, messages: unknown[]) =>
  t.request('POST', '/api/v1/feed/messages', { headers: { authorization: `Bearer ${key}` }, body: { messages } });
async function pushed(key: string, messages: unknown[]) {
  const response = await push(key, messages);
  assert.equal(response.status, 200, response.text);
  return response.body;
}
const fixture = (sequence: number, producer = 'acme', startsAt = '2026-03-01T13:00:00.000Z') => ({
  type: 'fixture',
  producer,
  eventId: EVENT,
  sequence,
  sport: { id: 'soccer', name: 'Soccer' },
  competition: { id: 'sr:tournament:325', name: 'Brasileirão Série A', country: 'Brazil' },
  home: 'Fortaleza',
  away: 'Vitória',
  startsAt,
});
const market = (sequence: number, producer = 'acme') => ({
  type: 'market',
  producer,
  eventId: EVENT,
  sequence,
  marketId: MARKET,
  marketType: 'match_result',
  selections: [
    { name: 'Fortaleza', outcome: 'home', odds: '2.10' },
    { name: 'Draw', outcome: 'draw', odds: '3.25' },
    { name: 'Vitória', outcome: 'away', odds: '3.60' },
  ],
});
const odds = (sequence: number, home: string, producer = 'acme') => ({
  type: 'odds',
  producer,
  eventId: EVENT,
  sequence,
  marketId: MARKET,
  prices: [{ outcome: 'home', odds: home }],
});
const evented = (type: string, sequence: number, extra: object = {}) => ({
  type,
  producer: 'acme',
  eventId: EVENT,
  sequence,
  ...extra,
});
/** The fed market as traders see it. */
async function tradersMarket() {
  const response = await t.request('GET', `/api/v1/admin/trading/events/${encodeURIComponent(EVENT)}`, {
    token: book.trader,
  });
  assert.equal(response.status, 200, response.text);
  return response.body.event.markets.find((one: { id: string }) => one.id === MARKET);
}
const homeOf = (view: { selections: Array<{ id: string; outcome: string; odds: string; fedOdds?: string | null }> }) =>
  view.selections.find((selection) => selection.outcome === 'home')!;
const outcomes = (receipt: { results: Array<{ outcome: string }> }) => receipt.results.map((result) => result.outcome);

describe('feed producers', () => {
  it('a platform administrator registers a producer: its key once, stored as a hash; the list shows its state', async () => {
    const key = await register('acme', true);
    assert.match(key, /^bm_feed_[A-Za-z0-9_-]{43}$/);
    const row = await t.db.selectFrom('feed_producers').select('key_hash').where('id', '=', 'acme').executeTakeFirst();
    assert.notEqual(row!.key_hash, key);
    const list = await t.request('GET', '/api/v1/admin/feed/producers', { token: book.admin });
    assert.equal(list.status, 200);
    assert.doesNotMatch(list.text, /bm_feed_/);
    assert.deepEqual(list.body.producers, [
      {
        id: 'acme',
        name: 'acme odds',
        trusted: true,
        state: 'up',
        lastMessageAt: null,
        staleMessages: 0,
        gaps: 0,
        markets: { fed: 0, held: 0, takenOver: 0 },
        createdAt: t.clock.now().toISOString(),
      },
    ]);
    const again = await t.request('POST', '/api/v1/admin/feed/producers', {
      token: book.admin,
      body: { id: 'acme', name: 'again' },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'producer_exists');
    // traders watch producers; only the platform registers them
    const asTrader = await t.request('GET', '/api/v1/admin/feed/producers', { token: book.trader });
    assert.equal(asTrader.status, 200);
    const registerAsTrader = await t.request('POST', '/api/v1/admin/feed/producers', {
      token: book.trader,
      body: { id: 'rogue', name: 'Rogue' },
    });
    assert.equal(registerAsTrader.status, 403);
  });

  it('a platform administrator issues a producer a new key: the old one stops working at once; 404 for no producer', async () => {
    const old = await register();
    const issued = await t.request('POST', '/api/v1/admin/feed/producers/acme/key', { token: book.admin });
    assert.equal(issued.status, 200, issued.text);
    assert.match(issued.body.key, /^bm_feed_/);
    assert.equal(issued.body.producer.id, 'acme');
    assert.equal((await push(old, [fixture(1)])).status, 401);
    assert.equal((await push(issued.body.key, [fixture(1)])).status, 200);
    const audit = await t.db
      .selectFrom('audit_log')
      .select('action')
      .where('action', '=', 'feed.producer.key')
      .execute();
    assert.equal(audit.length, 1);
    const none = await t.request('POST', '/api/v1/admin/feed/producers/nobody/key', { token: book.admin });
    assert.equal(none.status, 404);
    // a producer id is 1 to 32 lower-case letters, digits and dashes
    const tooLong = await t.request('POST', `/api/v1/admin/feed/producers/${'a'.repeat(33)}/key`, {
      token: book.admin,
    });
    assert.deepEqual([tooLong.status, tooLong.body.error.code], [400, 'validation']);
    const longest = await t.request('POST', `/api/v1/admin/feed/producers/${'a'.repeat(32)}/key`, {
      token: book.admin,
    });
    assert.equal(longest.status, 404);
    const upper = await t.request('POST', '/api/v1/admin/feed/producers/ACME/key', { token: book.admin });
    assert.deepEqual([upper.status, upper.body.error.code], [400, 'validation']);
    const asTrader = await t.request('POST', '/api/v1/admin/feed/producers/acme/key', { token: book.trader });
    assert.equal(asTrader.status, 403);
  });

  it('refuses a push without a valid key (401), and a batch naming another producer (403), applying nothing', async () => {
    const key = await register();
    assert.equal((await push('bm_feed_wrong', [fixture(1)])).status, 401);
    assert.equal((await t.request('POST', '/api/v1/feed/messages', { body: { messages: [fixture(1)] } })).status, 401);
    const mismatch = await push(key, [fixture(1), fixture(2, 'other')]);
    assert.equal(mismatch.status, 403);
    assert.equal(mismatch.body.error.code, 'producer_mismatch');
    assert.deepEqual(mismatch.body.error.details, { field: 'messages.1.producer' });
    const events = await t.db.selectFrom('events').select('id').where('id', '=', EVENT).execute();
    assert.deepEqual(events, []);
  });

  it('refuses a malformed batch whole (400, the field named): unknown type or field, bounds, NUL', async () => {
    const key = await register();
    const cases: Array<[unknown, RegExp]> = [
      [{ messages: [] }, /messages/],
      [{ messages: Array.from({ length: 501 }, (_, i) => fixture(i + 1)) }, /messages/],
      [{ messages: [{ ...fixture(1), type: 'weather' }] }, /messages/],
      [{ messages: [{ ...fixture(1), extra: 1 }] }, /messages\.0/],
      [{ messages: [{ ...fixture(1), eventId: 'sr\u0000x' }] }, /messages\.0\.eventId/],
      [{ messages: [{ ...fixture(1), sequence: -1 }] }, /messages\.0\.sequence/],
      [{ messages: [odds(1, '2.1234')] }, /messages\.0\.prices/],
      [{ messages: [fixture(1)], more: true }, /more|body/],
    ];
    for (const [body, field] of cases) {
      const response = await t.request('POST', '/api/v1/feed/messages', {
        headers: { authorization: `Bearer ${key}` },
        body,
      });
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 120));
      assert.equal(response.body.error.code, 'validation');
      assert.match(JSON.stringify(response.body.error.details ?? {}), field, JSON.stringify(response.body.error));
    }
    assert.deepEqual(await t.db.selectFrom('events').select('id').where('id', '=', EVENT).execute(), []);
  });
});

describe('feed messages', () => {
  it('a fixture and a market make an event and a fed market players see; an odds message moves the price', async () => {
    const key = await register();
    const receipt = await pushed(key, [fixture(1), market(2), odds(3, '2.25')]);
    assert.deepEqual(receipt, {
      results: [{ outcome: 'applied' }, { outcome: 'applied' }, { outcome: 'applied' }],
      producer: { state: 'up' },
      snapshot: { all: false, eventIds: [] },
    });
    const page = await t.request('GET', `/api/v1/catalog/events/${encodeURIComponent(EVENT)}`);
    assert.equal(page.status, 200);
    assert.equal(page.body.event.home, 'Fortaleza');
    const home = homeOf(page.body.event.markets[0]);
    assert.deepEqual([home.odds, (home as unknown as { oddsVersion: number }).oddsVersion], ['2.25', 2]);
    const view = await tradersMarket();
    assert.deepEqual([view.control, view.producerId, view.heldByProducer], ['feed', 'acme', false]);
  });

  it("a fed price reaches the players' change stream, under the provider's own event id", async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const stream = await openStream(t.url, { topics: [`event:${EVENT}`] });
    try {
      await stream.next('snapshot');
      await pushed(key, [odds(3, '2.45')]);
      const change = await stream.next('odds', 2_000);
      assert.deepEqual([change.data.eventId, change.data.marketId, change.data.odds], [EVENT, MARKET, '2.45']);
    } finally {
      stream.close();
    }
  });

  it('prices of one selection twice in a batch: the last one stands, as one new odds version', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const receipt = await pushed(key, [odds(3, '2.20'), odds(4, '2.30')]);
    assert.deepEqual(outcomes(receipt), ['applied', 'applied']);
    let home = homeOf(await tradersMarket()) as unknown as { odds: string; oddsVersion: number };
    assert.deepEqual([home.odds, home.oddsVersion], ['2.30', 2]);
    // a bet stop between prices: the prices before it are written first, and a suspended market is still priced
    await pushed(key, [odds(5, '2.35'), evented('bet_stop', 6), odds(7, '2.40')]);
    const view = await tradersMarket();
    home = homeOf(view) as unknown as { odds: string; oddsVersion: number };
    assert.deepEqual([view.status, home.odds, home.oddsVersion], ['suspended', '2.40', 4]);
  });

  it('a message older than what the event has is stale, and a repeat a duplicate: both ignored and counted', async () => {
    const key = await register();
    await pushed(key, [fixture(10), market(11), odds(13, '2.40')]);
    const receipt = await pushed(key, [odds(12, '1.50'), odds(13, '1.60')]);
    assert.deepEqual(outcomes(receipt), ['stale', 'duplicate']);
    assert.equal(homeOf(await tradersMarket()).odds, '2.40');
    const [producer] = (await t.request('GET', '/api/v1/admin/feed/producers', { token: book.admin })).body.producers;
    assert.deepEqual([producer.staleMessages, producer.gaps], [1, 1], 'the jump from 11 to 13 was a gap');
  });

  it('a gap in the sequence is applied and asks for a snapshot of the event', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const receipt = await pushed(key, [odds(5, '2.30')]);
    assert.deepEqual(receipt.results, [{ outcome: 'applied' }]);
    assert.deepEqual(receipt.snapshot, { all: false, eventIds: [EVENT] });
    assert.equal(homeOf(await tradersMarket()).odds, '2.30');
  });

  it('a refused message changes nothing, the rest of the batch is applied, and the event asks for a snapshot', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const unknown = { ...odds(3, '2.30'), marketId: 'sr:nope' };
    const receipt = await pushed(key, [unknown, odds(3, '2.35')]);
    assert.deepEqual(receipt.results, [
      { outcome: 'refused', error: { code: 'not_found', message: 'Market not found.' } },
      { outcome: 'applied' },
    ]);
    assert.deepEqual(receipt.snapshot.eventIds, [EVENT]);
    assert.equal(homeOf(await tradersMarket()).odds, '2.35');
    // odds out of the book's range are refused as a trader's would be
    const low = await pushed(key, [odds(4, '1.00')]);
    assert.deepEqual(low.results, [
      { outcome: 'refused', error: { code: 'validation', message: 'Odds must be above 1.00 and at most 1000.' } },
    ]);
  });

  it('a refused market message is undone alone: the batch before and after it stands', async () => {
    const key = await register();
    const wrong = { ...market(2), marketId: 'sr:wrong', marketType: 'totals' }; // totals need a line
    const receipt = await pushed(key, [fixture(1), wrong, market(3)]);
    assert.deepEqual(outcomes(receipt), ['applied', 'refused', 'applied']);
    assert.equal(receipt.results[1].error.code, 'validation');
    const markets = await t.db.selectFrom('markets').select('id').where('event_id', '=', EVENT).execute();
    assert.deepEqual(markets, [{ id: MARKET }]);
    const [sequence] = await t.db.selectFrom('feed_event_sequences').select('sequence').execute();
    assert.equal(sequence!.sequence, 3);
  });

  it("a bet stop suspends every open market of the event that the producer controls, and no trader's", async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const traders = await t.request('POST', `/api/v1/admin/trading/events/${encodeURIComponent(EVENT)}/markets`, {
      token: book.trader,
      body: {
        type: 'both_teams_to_score',
        selections: [
          { name: 'Yes', outcome: 'yes', odds: '1.80' },
          { name: 'No', outcome: 'no', odds: '1.95' },
        ],
      },
    });
    assert.equal(traders.status, 201, traders.text);
    assert.deepEqual(outcomes(await pushed(key, [evented('bet_stop', 3)])), ['applied']);
    assert.equal((await tradersMarket()).status, 'suspended');
    const page = await t.request('GET', `/api/v1/admin/trading/events/${encodeURIComponent(EVENT)}`, {
      token: book.trader,
    });
    const own = page.body.event.markets.find((one: { id: string }) => one.id === traders.body.market.id);
    assert.equal(own.status, 'open');
  });

  it('an event state message moves the event live with its score, as the trading API would', async () => {
    const key = await register();
    await pushed(key, [fixture(1), evented('event_state', 2, { status: 'live', score: { home: 1, away: 0 } })]);
    const page = await t.request('GET', `/api/v1/catalog/events/${encodeURIComponent(EVENT)}`);
    assert.deepEqual([page.body.event.status, page.body.event.score], ['live', { home: 1, away: 0 }]);
  });
});

describe('reading back what a producer prices', () => {
  it('a producer reads its events with their last sequence, its open markets and its last prices, kept ones included', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2), odds(3, '2.20')]);
    const other = await register('other');
    const read = (as: string) =>
      t.request('GET', '/api/v1/feed/events', { headers: { authorization: `Bearer ${as}` } });
    assert.deepEqual((await read(other)).body.events, [], "another producer's events are not its");
    // a trader takes the market over: the producer's next price is kept, and read back as its own
    const home = homeOf(await tradersMarket());
    const set = await t.request('PUT', `/api/v1/admin/trading/selections/${home.id}/odds`, {
      token: book.trader,
      body: { odds: '5.00' },
    });
    assert.equal(set.status, 200, set.text);
    await pushed(key, [odds(4, '2.30')]);
    const response = await read(key);
    assert.equal(response.status, 200, response.text);
    const { producer, now, events } = response.body;
    assert.deepEqual([producer, now], ['acme', t.clock.now().toISOString()]);
    assert.equal(events.length, 1);
    const { markets, ...event } = events[0];
    assert.deepEqual(event, {
      eventId: EVENT,
      sequence: 4,
      sportId: 'soccer',
      competitionId: 'sr:tournament:325',
      home: 'Fortaleza',
      away: 'Vitória',
      startsAt: '2026-03-01T13:00:00.000Z',
      status: 'scheduled',
      score: null,
      period: null,
      clock: null,
      updatedAt: event.updatedAt,
    });
    assert.deepEqual(markets, [
      {
        marketId: MARKET,
        marketType: 'match_result',
        line: null,
        status: 'open',
        control: 'trader',
        held: false,
        updatedAt: markets[0].updatedAt,
        prices: [
          { outcome: 'home', odds: '2.30' },
          { outcome: 'draw', odds: '3.25' },
          { outcome: 'away', odds: '3.60' },
        ],
      },
    ]);
    assert.equal((await read('bm_feed_wrong')).status, 401);
  });
});

describe('producer health', () => {
  it('a producer silent past FEED_SILENCE_SECONDS is down: its open markets suspended by rule, audited', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    t.clock.advance(11_000);
    assert.equal(await t.app.services.producers.downSilent(), 1);
    const view = await tradersMarket();
    assert.deepEqual([view.status, view.heldByProducer], ['suspended', true]);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['actor_type', 'actor_id', 'action', 'details'])
      .where('action', '=', 'catalog.producer.hold')
      .execute();
    assert.deepEqual(audit, [
      { actor_type: 'system', actor_id: 'feed-silence', action: 'catalog.producer.hold', details: { markets: 1 } },
    ]);
    const [producer] = (await t.request('GET', '/api/v1/admin/feed/producers', { token: book.admin })).body.producers;
    assert.deepEqual([producer.state, producer.markets], ['down', { fed: 1, held: 1, takenOver: 0 }]);
  });

  it('a producer that speaks again recovers: asked for everything, its markets reopen only after snapshot_complete', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    t.clock.advance(11_000);
    await t.app.services.producers.downSilent();
    const alive = await pushed(key, [{ type: 'alive', producer: 'acme' }, odds(3, '2.20')]);
    assert.deepEqual(alive.producer, { state: 'recovering' });
    assert.equal(alive.snapshot.all, true);
    let view = await tradersMarket();
    assert.deepEqual([view.status, homeOf(view).odds], ['suspended', '2.20'], 'priced, still suspended');
    const complete = await pushed(key, [{ type: 'snapshot_complete', producer: 'acme' }]);
    assert.deepEqual([complete.producer, complete.snapshot.all], [{ state: 'up' }, false]);
    view = await tradersMarket();
    assert.deepEqual([view.status, view.heldByProducer], ['open', false]);
  });

  it('a producer that says it is down has its markets suspended at once; a market a trader took over is not touched', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const receipt = await pushed(key, [{ type: 'alive', producer: 'acme', state: 'down' }]);
    assert.deepEqual(receipt.producer, { state: 'down' });
    assert.equal((await tradersMarket()).status, 'suspended');
  });
});

describe('who controls a price', () => {
  it("a trader's price takes a fed market over: the feed's later prices are kept beside it, never applied", async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const home = homeOf(await tradersMarket()) as unknown as { id: string };
    const set = await t.request('PUT', `/api/v1/admin/trading/selections/${home.id}/odds`, {
      token: book.trader,
      body: { odds: '5.50' },
    });
    assert.equal(set.status, 200, set.text);
    const receipt = await pushed(key, [
      odds(3, '6.50'),
      evented('market_status', 4, { marketId: MARKET, status: 'suspended' }),
    ]);
    assert.deepEqual(outcomes(receipt), ['kept', 'ignored']);
    const view = await tradersMarket();
    assert.deepEqual(
      [view.control, view.status, homeOf(view).odds, homeOf(view).fedOdds],
      ['trader', 'open', '5.50', '6.50'],
    );
  });

  it('a trader gives a market back: the kept prices apply at once and the feed prices it again', async () => {
    const key = await register();
    await pushed(key, [fixture(1), market(2)]);
    const control = (to: string) =>
      t.request('PUT', `/api/v1/admin/trading/markets/${encodeURIComponent(MARKET)}/control`, {
        token: book.trader,
        body: { control: to },
      });
    assert.equal((await control('trader')).status, 200);
    await pushed(key, [odds(3, '2.60')]);
    assert.equal(homeOf(await tradersMarket()).odds, '2.10');
    const back = await control('feed');
    assert.equal(back.status, 200, back.text);
    assert.deepEqual(back.body, { market: { marketId: MARKET, control: 'feed', producerId: 'acme' } });
    let view = await tradersMarket();
    assert.deepEqual([view.control, homeOf(view).odds, homeOf(view).fedOdds], ['feed', '2.60', null]);
    await pushed(key, [odds(4, '2.70')]);
    view = await tradersMarket();
    assert.equal(homeOf(view).odds, '2.70');
    const own = book.events[0]!.marketId;
    const refused = await t.request('PUT', `/api/v1/admin/trading/markets/${own}/control`, {
      token: book.trader,
      body: { control: 'feed' },
    });
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'market_not_fed');
  });
});

describe('results and cancellations from the feed', () => {
  async function betOnHome(key: string) {
    await pushed(key, [fixture(1), market(2), evented('event_state', 3, { status: 'live' })]);
    const home = homeOf(await tradersMarket()) as unknown as { id: string; odds: string };
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: home.id, odds: home.odds }] },
    });
    assert.equal(placed.status, 201, placed.text);
    return placed.body.bet.id as string;
  }

  it("a trusted producer's result ends the event and settles every market by its rule, paying the bets", async () => {
    const key = await register('acme', true);
    const betId = await betOnHome(key);
    const receipt = await pushed(key, [evented('result', 4, { score: { home: 2, away: 0 } })]);
    assert.deepEqual(outcomes(receipt), ['applied']);
    const view = await tradersMarket();
    assert.equal(view.status, 'settled');
    await drainDeliveries(t);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'won');
    assert.equal(await wallet.balanceOf(player), 100_00 - 10_00 + 21_00);
  });

  it("another producer's result ends the event and stops bets; the markets wait for a trader's confirmation", async () => {
    const key = await register('acme', false);
    const betId = await betOnHome(key);
    await pushed(key, [evented('result', 4, { score: { home: 2, away: 0 } })]);
    const view = await tradersMarket();
    assert.deepEqual([view.status, view.settlementVersion], ['suspended', 0]);
    const page = await t.request('GET', `/api/v1/admin/trading/events/${encodeURIComponent(EVENT)}`, {
      token: book.trader,
    });
    assert.deepEqual([page.body.event.status, page.body.event.score], ['finished', { home: 2, away: 0 }]);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'accepted');
  });

  it("a trusted producer's cancellation voids every market: each stake owed back", async () => {
    const key = await register('acme', true);
    const betId = await betOnHome(key);
    await pushed(key, [evented('cancel', 4, { reason: 'abandoned: floodlights' })]);
    assert.equal((await tradersMarket()).status, 'settled');
    await drainDeliveries(t);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'void');
    assert.equal(await wallet.balanceOf(player), 100_00);
  });

  it("a trusted producer's result rollback opens its markets to a result again and its bets; the corrected result settles the difference", async () => {
    const key = await register('acme', true);
    const betId = await betOnHome(key);
    await pushed(key, [evented('result', 4, { score: { home: 2, away: 0 } })]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00 - 10_00 + 21_00, 'the wrong result paid the bet');

    const receipt = await pushed(key, [evented('result_rollback', 5)]);
    assert.deepEqual(outcomes(receipt), ['applied']);
    const view = await tradersMarket();
    assert.deepEqual([view.status, view.settlementVersion], ['suspended', 2]);
    assert.ok(view.selections.every((selection: { result: string | null }) => selection.result === null));
    const bet = (await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet;
    assert.equal(bet.status, 'accepted', 'the bet waits for the corrected result');
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00 - 10_00 + 21_00, 'no money moves until the next result');
    const audit = await t.db
      .selectFrom('audit_log')
      .select('actor_id')
      .where('action', '=', 'market.rollback')
      .execute();
    assert.deepEqual(audit, [{ actor_id: 'feed:acme' }]);

    // the corrected result: the home side lost; the payout is owed back
    await pushed(key, [evented('result', 6, { score: { home: 0, away: 1 } })]);
    await drainDeliveries(t);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'lost');
    assert.equal(await wallet.balanceOf(player), 100_00 - 10_00, 'the lost bet pays nothing in the end');
    assert.equal((await tradersMarket()).settlementVersion, 3);
  });

  it("a trusted producer's cancellation rollback schedules the event again and opens the voided markets and bets", async () => {
    const key = await register('acme', true);
    const betId = await betOnHome(key);
    await pushed(key, [evented('cancel', 4)]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00, 'the stake was refunded');
    const receipt = await pushed(key, [evented('cancel_rollback', 5)]);
    assert.deepEqual(outcomes(receipt), ['applied']);
    const page = await t.request('GET', `/api/v1/admin/trading/events/${encodeURIComponent(EVENT)}`, {
      token: book.trader,
    });
    // its start (13:00) has passed at the test clock's time: live again
    assert.equal(page.body.event.status, t.clock.now() > new Date('2026-03-01T13:00:00Z') ? 'live' : 'scheduled');
    assert.deepEqual([(await tradersMarket()).status], ['suspended']);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'accepted');
    await pushed(key, [evented('result', 6, { score: { home: 3, away: 1 } })]);
    await drainDeliveries(t);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'won');
    assert.equal(await wallet.balanceOf(player), 100_00 - 10_00 + 21_00, 'the refund and the payout add up to the win');
  });

  it("another producer's result rollback is ignored (a trader confirmed that result), and a rollback of nothing changes nothing", async () => {
    const key = await register('acme', false);
    await betOnHome(key);
    await pushed(key, [evented('result', 4, { score: { home: 2, away: 0 } })]);
    assert.deepEqual(outcomes(await pushed(key, [evented('result_rollback', 5)])), ['ignored']);
    assert.deepEqual(outcomes(await pushed(key, [evented('cancel_rollback', 6)])), ['ignored'], 'never cancelled');
    assert.deepEqual([(await tradersMarket()).status], ['suspended']);
  });
});
