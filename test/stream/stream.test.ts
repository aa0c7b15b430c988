import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  freshSportsbookPerTest,
  newRequestId,
  resultsOf,
  settleMarket,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import { openStream, type TestStream } from '../helpers/stream.ts';

const fresh = freshSportsbookPerTest(
  'stream',
  100_00,
  {},
  {
    config: {
      TRUST_PROXY: '127.0.0.1',
      STREAM_MAX_PER_ADDRESS: '2',
      STREAM_MAX_CONNECTIONS: '12',
      STREAM_MAX_TOPICS: '3',
      STREAM_REPLAY_MESSAGES: '5',
      STREAM_HEARTBEAT_SECONDS: '1',
      STREAM_IDLE_SECONDS: '2',
      STREAM_SWEEP_SECONDS: '1',
    },
  },
);
let t: TestApp;
let book: Sportsbook;
let token: string;
let opened: TestStream[] = [];
let addresses = 0;
beforeEach(() => ({ t, book, token } = fresh));
afterEach(() => {
  opened.forEach((stream) => stream.close());
  opened = [];
});

/** A stream from an address of the test's own, so the per-address limit is the test's alone. */
async function open(options: Parameters<typeof openStream>[1] = {}) {
  const stream = await openStream(t.url, { address: `192.0.2.${(addresses += 1)}`, ...options });
  opened.push(stream);
  return stream;
}
const trade = async (method: string, path: string, body: unknown) => {
  const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: book.trader, body });
  assert.ok(response.status < 300, response.text);
  return response.body;
};
const event = () => book.events[0]!;
const setOdds = (selectionId: string, odds: string) => trade('PUT', `/selections/${selectionId}/odds`, { odds });

describe('the change stream', () => {
  it('answers text/event-stream, never cached or buffered, and starts with ready then each snapshot', async () => {
    const stream = await open({ topics: [`event:${event().id}`] });
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.equal(stream.headers.get('cache-control'), 'no-store, no-transform');
    assert.equal(stream.headers.get('x-accel-buffering'), 'no');
    const ready = await stream.next();
    assert.equal(ready.event, 'ready');
    assert.match(ready.data.streamId, /^st_[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(ready.data.topics, [`event:${event().id}`]);
    const snapshot = await stream.next();
    assert.equal(snapshot.event, 'snapshot');
    const page = await t.request('GET', `/api/v1/catalog/events/${event().id}`);
    assert.deepEqual(snapshot.data, { topic: `event:${event().id}`, ...page.body });
    assert.match(snapshot.id!, /^[0-9a-f]{8}-\d+$/);
  });

  it("sends a trader's odds change as one odds message with its version", async () => {
    const stream = await open({ topics: [`event:${event().id}`] });
    await stream.next('snapshot');
    await setOdds(event().home, '2.40');
    const odds = await stream.next('odds', 1_000);
    assert.deepEqual(odds.data, {
      topic: `event:${event().id}`,
      eventId: event().id,
      marketId: event().marketId,
      selectionId: event().home,
      odds: '2.40',
      oddsVersion: 2,
    });
  });

  it('sends a market whose status changed whole, and the event when its state changed', async () => {
    const stream = await open({ topics: [`event:${event().id}`] });
    await stream.next('snapshot');
    await trade('PATCH', `/markets/${event().marketId}`, { status: 'suspended' });
    const market = await stream.next('market');
    assert.equal(market.data.market.id, event().marketId);
    assert.equal(market.data.market.status, 'suspended');
    await trade('PATCH', `/events/${event().id}`, { status: 'live', score: { home: 1, away: 0 } });
    const changed = await stream.next('event');
    assert.equal(changed.data.event.status, 'live');
    assert.deepEqual(changed.data.event.score, { home: 1, away: 0 });
  });

  it('keeps the live list, a competition and a sport up to date', async () => {
    const competitionId = (await t.request('GET', `/api/v1/catalog/events/${event().id}`)).body.event.competition.id;
    const stream = await open({ topics: ['live', `competition:${competitionId}`, 'sport:soccer'] });
    const first = [await stream.next('snapshot'), await stream.next('snapshot'), await stream.next('snapshot')];
    assert.deepEqual(first.map((message) => message.data.topic).sort(), [
      `competition:${competitionId}`,
      'live',
      'sport:soccer',
    ]);
    assert.deepEqual(first.find((message) => message.data.topic === 'live')!.data.events, []);

    await trade('PATCH', `/events/${event().id}`, { status: 'live' });
    const live = await stream.next('snapshot');
    assert.equal(live.data.topic, 'live');
    assert.deepEqual(
      live.data.events.map((summary: { id: string }) => summary.id),
      [event().id],
    );
    const moved = [await stream.next('event'), await stream.next('event')];
    assert.deepEqual(moved.map((message) => message.data.topic).sort(), [
      `competition:${competitionId}`,
      'sport:soccer',
    ]);
    assert.ok(moved.every((message) => message.data.event.status === 'live'));

    await setOdds(event().draw, '3.10');
    const odds = [await stream.next('odds'), await stream.next('odds'), await stream.next('odds')];
    assert.deepEqual(odds.map((message) => message.data.topic).sort(), [
      `competition:${competitionId}`,
      'live',
      'sport:soccer',
    ]);
    assert.ok(odds.every((message) => message.data.selectionId === event().draw && message.data.odds === '3.10'));
  });

  it('changes its topics without reconnecting: a new one starts with its snapshot, a dropped one stops at once', async () => {
    const stream = await open({ topics: [`event:${event().id}`] });
    const { streamId } = (await stream.next('ready')).data;
    await stream.next('snapshot');
    const second = book.events[1]!;
    const changed = await t.request('PUT', `/api/v1/stream/${streamId}/topics`, {
      body: { topics: [`event:${second.id}`] },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.deepEqual(changed.body, { streamId, topics: [`event:${second.id}`] });
    assert.equal((await stream.next('snapshot')).data.topic, `event:${second.id}`);
    await setOdds(event().home, '2.20');
    await setOdds(second.home, '2.30');
    const odds = await stream.next('odds');
    assert.equal(odds.data.selectionId, second.home);
    assert.deepEqual(
      stream.pending().filter((message) => message.event === 'odds'),
      [],
    );
  });

  it('refuses unknown topics, too many topics and unknown streams in the one error shape', async () => {
    const unknown = await t.request('GET', '/api/v1/stream?topics=market:1');
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.error.code, 'validation');
    const many = await t.request('GET', '/api/v1/stream?topics=live,sport:a,sport:b,sport:c');
    assert.equal(many.status, 400);
    assert.equal(many.body.error.code, 'too_many_topics');
    const stranger = await t.request('PUT', `/api/v1/stream/st_${'A'.repeat(22)}/topics`, {
      body: { topics: ['live'] },
    });
    assert.equal(stranger.status, 404);
    assert.equal(stranger.body.error.code, 'stream_not_found');
    const nul = await t.request('PUT', `/api/v1/stream/st_${'A'.repeat(22)}/topics`, {
      body: { topics: ['live\u0000'] },
    });
    assert.equal(nul.status, 400);
  });

  it('an unknown event is unavailable and dropped; the stream goes on', async () => {
    const stream = await open({ topics: ['event:ev_nope', 'live'] });
    const unavailable = await stream.next('unavailable');
    assert.deepEqual(unavailable.data, { topic: 'event:ev_nope', code: 'not_found', message: 'Event not found.' });
    assert.equal((await stream.next('snapshot')).data.topic, 'live');
  });
});

describe("the player's topics", () => {
  it('need the session: none, or an invalid one, is 401', async () => {
    const anonymous = await t.request('GET', '/api/v1/stream?topics=bets');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.error.code, 'session_required');
    const forged = await t.request('GET', '/api/v1/stream?topics=live', { token: 'sess_forged' });
    assert.equal(forged.status, 401);
  });

  it("a settlement reaches the player's bets, then the balance the wallet confirmed", async () => {
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: event().home, odds: '2.10' }] },
    });
    assert.equal(placed.status, 201, placed.text);
    const stream = await open({ topics: ['bets'], token });
    const snapshot = await stream.next('snapshot');
    assert.deepEqual(
      snapshot.data.bets.map((bet: { id: string }) => bet.id),
      [placed.body.bet.id],
    );

    assert.equal((await settleMarket(t, book, event().marketId, resultsOf(event(), 'home'))).status, 200);
    const settled = await stream.next('bet');
    assert.equal(settled.data.bet.id, placed.body.bet.id);
    assert.equal(settled.data.bet.status, 'won');
    await drainDeliveries(t);
    // the stake's confirmation may come first: the balances follow the wallet's answers in order
    let balance = await stream.next('balance');
    if (balance.data.balance === 100_00 - 10_00) balance = await stream.next('balance');
    assert.deepEqual(balance.data, { topic: 'bets', balance: 100_00 - 10_00 + 21_00 });
  });

  it('a cash-out offer moves with the prices, and is null while the market is suspended', async () => {
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: event().home, odds: '2.10' }] },
    });
    const stream = await open({ topics: ['offers'], token });
    const snapshot = await stream.next('snapshot');
    assert.deepEqual(snapshot.data.offers, [
      {
        betId: placed.body.bet.id,
        offer: (await t.request('GET', `/api/v1/bets/${placed.body.bet.id}/cashout`, { token })).body.offer,
      },
    ]);
    await setOdds(event().home, '1.50');
    const moved = await stream.next('offer');
    assert.deepEqual(moved.data, {
      topic: 'offers',
      betId: placed.body.bet.id,
      offer: { amount: 13_30, currency: 'BRL', stake: 10_00 },
    });
    await trade('PATCH', `/markets/${event().marketId}`, { status: 'suspended' });
    assert.deepEqual((await stream.next('offer')).data.offer, null);
  });

  it('stop at once when the player logs out', async () => {
    const stream = await open({ topics: ['bets', `event:${event().id}`], token });
    await stream.next('snapshot');
    await stream.next('snapshot');
    assert.equal((await t.request('POST', '/api/v1/session/logout', { token })).status, 204);
    await stream.next('session_ended', 1_000);
    // the catalog goes on for the now anonymous screen
    await setOdds(event().home, '2.60');
    assert.equal((await stream.next('odds')).data.odds, '2.60');
  });

  it("stop at once when the player's tenant is suspended", async () => {
    const stream = await open({ topics: ['bets'], token });
    await stream.next('snapshot');
    const suspended = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: { status: 'suspended' },
    });
    assert.equal(suspended.status, 200, suspended.text);
    await stream.next('session_ended', 1_000);
  });

  it('are changed only with the session the stream was opened with', async () => {
    const stream = await open({ topics: ['bets'], token });
    const { streamId } = (await stream.next('ready')).data;
    const anonymous = await t.request('PUT', `/api/v1/stream/${streamId}/topics`, { body: { topics: ['live'] } });
    assert.equal(anonymous.status, 404);
    const anonymousStream = await open({ topics: ['live'] });
    const other = (await anonymousStream.next('ready')).data.streamId;
    const refused = await t.request('PUT', `/api/v1/stream/${other}/topics`, { token, body: { topics: ['bets'] } });
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'session_required');
  });
});

describe('resuming and limits', () => {
  it('a reconnect with Last-Event-ID gets what it missed, with no snapshot', async () => {
    const topic = `event:${event().id}`;
    const first = await open({ topics: [topic] });
    await first.next('snapshot');
    const lastId = first.lastId()!;
    first.close();
    await setOdds(event().home, '2.50');
    await setOdds(event().away, '3.90');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const again = await open({ topics: [topic], lastEventId: lastId });
    await again.next('ready');
    const missed = [await again.next(), await again.next()];
    assert.deepEqual(
      missed.map((message) => [message.event, message.data.selectionId, message.data.odds]),
      [
        ['odds', event().home, '2.50'],
        ['odds', event().away, '3.90'],
      ],
    );
  });

  it('a gap older than what is kept, or an id of another run, gets fresh snapshots', async () => {
    const topic = `event:${event().id}`;
    const first = await open({ topics: [topic] });
    await first.next('snapshot');
    const lastId = first.lastId()!;
    first.close();
    // each change in a round of its own (changes close together are read once), so each is a message kept
    for (let i = 0; i < 8; i++) {
      await setOdds(event().home, `2.${String(i + 10)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const again = await open({ topics: [topic], lastEventId: lastId });
    const snapshot = await again.next('snapshot');
    assert.equal(snapshot.data.event.markets[0].selections[0].odds, '2.17');
    const stranger = await open({ topics: [topic], lastEventId: '00000000-1' });
    assert.equal((await stranger.next('snapshot')).data.topic, topic);
  });

  it('refuses a stream past the per-address limit with 429, and past the capacity with 503', async () => {
    const address = '198.51.100.7';
    await open({ topics: ['live'], address });
    await open({ topics: ['live'], address });
    const third = await t.request('GET', '/api/v1/stream?topics=live', { headers: { 'x-forwarded-for': address } });
    assert.equal(third.status, 429);
    assert.equal(third.body.error.code, 'too_many_streams');
    for (let i = 0; i < 10; i++) await open({ topics: ['live'] });
    const full = await t.request('GET', '/api/v1/stream?topics=live', {
      headers: { 'x-forwarded-for': '198.51.100.8' },
    });
    assert.equal(full.status, 503);
    assert.equal(full.body.error.code, 'stream_capacity');
  });

  it('sends a heartbeat, and closes a stream that follows nothing', async () => {
    const stream = await open({ topics: [] });
    await stream.next('ready');
    const closed = await stream.next('closed', 5_000);
    assert.deepEqual(closed.data, { reason: 'idle' });
    await stream.ended();
  });

  it('a change written outside the trading API, even with its notification lost, reaches the stream', async () => {
    const stream = await open({ topics: [`event:${event().id}`] });
    await stream.next('snapshot');
    await sql`update selections set odds_milli = 5000, odds_version = odds_version + 1 where id = ${event().away}`.execute(
      t.db,
    );
    assert.equal((await stream.next('odds', 1_000)).data.odds, '5.00');
    await sql`alter table selections disable trigger selections_notify`.execute(t.db);
    try {
      await sql`update selections set odds_milli = 6000, odds_version = odds_version + 1 where id = ${event().away}`.execute(
        t.db,
      );
      assert.equal((await stream.next('odds', 3_000)).data.odds, '6.00');
    } finally {
      await sql`alter table selections enable trigger selections_notify`.execute(t.db);
    }
  });
});
import { after as afterAll } from 'node:test';
afterAll(() => console.log('AFTER START', performance.now()));
