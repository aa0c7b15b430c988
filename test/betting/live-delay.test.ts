import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { beforeEach, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { freshSportsbookPerTest, newRequestId, type Sportsbook } from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * In-play bets wait (docs/betting.md): a bet with a leg on a live event is held for its sport's delay before it is
 * recorded, then accepted only if its prices still stand (by the player's odds-change acceptance) and no market of it
 * changed status meanwhile. Nothing is recorded or debited while it waits. The waits are real seconds.
 */
const fresh = freshSportsbookPerTest('delay-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
beforeEach(() => ({ t, wallet, book, token } = fresh));

const event = () => book.events[0]!;
const trade = async (method: string, path: string, body: unknown) => {
  const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: book.trader, body });
  assert.ok(response.status < 300, response.text);
  return response.body;
};
const setDelay = (seconds: number) => trade('PATCH', '/sports/soccer', { liveDelaySeconds: seconds });
const goLive = () => trade('PATCH', `/events/${event().id}`, { status: 'live' });
const place = (odds = '2.10', acceptOddsChanges?: string) =>
  t.request('POST', '/api/v1/bets', {
    token,
    body: {
      requestId: newRequestId(),
      stake: 10_00,
      legs: [{ selectionId: event().home, odds }],
      ...(acceptOddsChanges ? { acceptOddsChanges } : {}),
    },
  });
const debits = () => wallet.wallet.received.filter((call) => call.endpoint === 'debit').length;
const bets = () => t.db.selectFrom('bets').select('id').execute();

describe('in-play bets wait', () => {
  it("an in-play bet waits its sport's delay, with nothing recorded or debited, then is accepted", async () => {
    await setDelay(1);
    await goLive();
    const started = performance.now();
    const placing = place();
    await sleep(400);
    assert.deepEqual(await bets(), [], 'no bet recorded while it waits');
    assert.equal(debits(), 0, 'no stake debited while it waits');
    const placed = await placing;
    assert.equal(placed.status, 201, placed.text);
    assert.ok(performance.now() - started >= 1_000, 'it waited the delay');
    assert.equal(placed.body.bet.status, 'accepted');
    assert.equal(debits(), 1);
  });

  it("a price change during the delay refuses it with the current odds, as the player's acceptance says", async () => {
    await setDelay(1);
    await goLive();
    const placing = place('2.10', 'none');
    await sleep(300);
    await trade('PUT', `/selections/${event().home}/odds`, { odds: '1.90' });
    const refused = await placing;
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error.code, 'odds_changed');
    assert.deepEqual(refused.body.error.details.legs, [{ selectionId: event().home, odds: '1.90', oddsVersion: 2 }]);
    // a player who takes any change is placed at the new price
    const accepting = place('1.90', 'any');
    await sleep(300);
    await trade('PUT', `/selections/${event().home}/odds`, { odds: '1.80' });
    const placed = await accepting;
    assert.equal(placed.status, 201, placed.text);
    assert.equal(placed.body.bet.legs[0].odds, '1.80');
    assert.equal(debits(), 1, 'only the accepted bet was debited');
  });

  it('a bet stop during the delay refuses it, even when the market has reopened', async () => {
    await setDelay(1);
    await goLive();
    const placing = place();
    await sleep(300);
    // the manual clock moves as time does, so the stop is after the wait began
    t.clock.advance(100);
    await trade('PATCH', `/markets/${event().marketId}`, { status: 'suspended' });
    await trade('PATCH', `/markets/${event().marketId}`, { status: 'open' });
    const refused = await placing;
    assert.equal(refused.status, 409, refused.text);
    assert.equal(refused.body.error.code, 'market_unavailable');
    assert.deepEqual(refused.body.error.details, {
      selectionId: event().home,
      marketStatus: 'open',
      eventStatus: 'live',
      duringDelay: true,
    });
    assert.deepEqual(await bets(), []);
    assert.equal(debits(), 0);
  });

  it('a slip already off is refused at once, without waiting', async () => {
    await setDelay(30);
    await goLive();
    const started = performance.now();
    const refused = await place('3.00', 'none');
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'odds_changed');
    assert.ok(performance.now() - started < 20_000, 'refused before the 30 s delay');
  });

  it('a pre-match bet, and a repeat of a placed bet, do not wait', async () => {
    await setDelay(30);
    const started = performance.now();
    const body = { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: event().home, odds: '2.10' }] };
    const placed = await t.request('POST', '/api/v1/bets', { token, body });
    assert.equal(placed.status, 201, placed.text);
    await goLive();
    const repeat = await t.request('POST', '/api/v1/bets', { token, body });
    assert.equal(repeat.status, 200, repeat.text);
    assert.equal(repeat.headers.get('idempotency-replayed'), 'true');
    assert.ok(performance.now() - started < 20_000, 'neither waited the 30 s delay');
  });

  it("a trader sets a sport's delay (0 to 30 s, audited); players see it on the sport's live events", async () => {
    assert.deepEqual(await setDelay(5), { sport: { id: 'soccer', liveDelaySeconds: 5 } });
    for (const seconds of [-1, 31, 2.5]) {
      const refused = await t.request('PATCH', '/api/v1/admin/trading/sports/soccer', {
        token: book.trader,
        body: { liveDelaySeconds: seconds },
      });
      assert.equal(refused.status, 400, String(seconds));
    }
    const unknown = await t.request('PATCH', '/api/v1/admin/trading/sports/curling', {
      token: book.trader,
      body: { liveDelaySeconds: 5 },
    });
    assert.equal(unknown.status, 404);
    const before = await t.request('GET', `/api/v1/catalog/events/${event().id}`);
    assert.equal(before.body.event.betDelaySeconds, 0, 'not live yet');
    await goLive();
    const live = await t.request('GET', `/api/v1/catalog/events/${event().id}`);
    assert.equal(live.body.event.betDelaySeconds, 5);
    const sports = await t.request('GET', '/api/v1/admin/trading/sports', { token: book.trader });
    assert.equal(sports.body.sports[0].liveDelaySeconds, 5);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'catalog.sport.live_delay')
      .execute();
    assert.deepEqual(audit, [{ action: 'catalog.sport.live_delay', details: { liveDelaySeconds: 5 } }]);
  });
});
