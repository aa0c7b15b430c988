import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  newRequestId,
  playerWithBalance,
  resultsOf,
  settleMarket,
  freshSportsbookPerTest,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('cashout-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const event = () => book.events[0]!;
async function single(stake = 10_00): Promise<string> {
  const response = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake, legs: [{ selectionId: event().home, odds: '2.10' }] },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
const offer = (betId: string, query = '') => t.request('GET', `/api/v1/bets/${betId}/cashout${query}`, { token });
const cashOut = (betId: string, body: Record<string, unknown>) =>
  t.request('POST', `/api/v1/bets/${betId}/cashout`, { token, body: { requestId: newRequestId(), ...body } });
const trade = (method: string, path: string, body: unknown) =>
  t.request(method, `/api/v1/admin/trading${path}`, { token: book.trader, body });
const setOdds = (odds: string) => trade('PUT', `/selections/${event().home}/odds`, { odds });
const credits = (betId: string) =>
  t.db
    .selectFrom('wallet_obligations')
    .select(['tx_id', 'amount', 'status'])
    .where('bet_id', '=', betId)
    .where('kind', '=', 'cashout')
    .orderBy('sequence')
    .execute();

describe('cash-out offers', () => {
  it('are the stake x placed odds / current odds, less 5%, floored, in the tenant currency', async () => {
    const betId = await single();
    await setOdds('1.50');
    const response = await offer(betId);
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { offer: { amount: 13_30, currency: 'BRL', stake: 10_00 } });
    assert.deepEqual((await offer(betId, '?stake=400')).body.offer, { amount: 5_32, currency: 'BRL', stake: 4_00 });
  });

  it('are refused while a market of the bet is suspended', async () => {
    const betId = await single();
    await trade('PATCH', `/markets/${event().marketId}`, { status: 'suspended' });
    const response = await offer(betId);
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details],
      [
        409,
        'cashout_unavailable',
        { reason: 'market_suspended', marketId: event().marketId, marketStatus: 'suspended' },
      ],
    );
  });

  it('are refused once the event is over, before its market is settled: its result is known', async () => {
    const betId = await single();
    const over = await trade('PATCH', `/events/${event().id}`, { status: 'finished' });
    assert.equal(over.status, 200, over.text);
    for (const response of [await offer(betId), await cashOut(betId, { amount: 10_00 })]) {
      assert.deepEqual(
        [response.status, response.body.error.code, response.body.error.details],
        [409, 'cashout_unavailable', { reason: 'event_over', eventId: event().id, eventStatus: 'finished' }],
      );
    }
  });

  it('are refused for a part larger than the remaining stake, and for a bet that is not open', async () => {
    const betId = await single();
    const tooMuch = await offer(betId, '?stake=1001');
    assert.deepEqual([tooMuch.status, tooMuch.body.error.details.field], [400, 'stake']);
    await settleMarket(t, book, event().marketId, resultsOf(event(), 'away'));
    const settled = await offer(betId);
    assert.deepEqual(
      [settled.status, settled.body.error.code, settled.body.error.details],
      [409, 'cashout_unavailable', { reason: 'bet_not_open', status: 'lost' }],
    );
  });

  it("are another player's business: 404", async () => {
    const betId = await single();
    const other = await playerWithBalance(t, book, wallet, `other-${player}`, 10_00);
    const response = await t.request('GET', `/api/v1/bets/${betId}/cashout`, { token: other });
    assert.deepEqual([response.status, response.body.error.code], [404, 'not_found']);
  });
});

describe('cashing out', () => {
  it('all of it: one credit cashout:<betId>, the bet cashed_out and closed, its exposure given back', async () => {
    const betId = await single();
    const { amount } = (await offer(betId)).body.offer;
    const response = await cashOut(betId, { amount });
    assert.equal(response.status, 200, response.text);
    const bet = response.body.bet;
    assert.deepEqual(
      [bet.status, bet.remainingStake, bet.potentialPayout, bet.cashOuts.map((c: { amount: number }) => c.amount)],
      ['cashed_out', 0, 0, [amount]],
    );
    assert.deepEqual(bet.movements.at(-1), {
      txId: `cashout:${betId}`,
      kind: 'cashout',
      direction: 'credit',
      amount,
      status: 'owed',
      at: bet.cashOuts[0].at,
    });
    await drainDeliveries(t);
    assert.deepEqual(await credits(betId), [{ tx_id: `cashout:${betId}`, amount, status: 'applied' }]);
    assert.equal(await wallet.balanceOf(player), 90_00 + amount);
    const exposure = await t.db.selectFrom('exposure').select('reserved').execute();
    assert.ok(exposure.every((row) => row.reserved === 0));
  });

  it('a part: cashout:<betId>:p<n>, the rest stands and is settled later on the remaining stake', async () => {
    const betId = await single();
    const first = (await offer(betId, '?stake=400')).body.offer;
    const afterFirst = await cashOut(betId, { amount: first.amount, stake: 4_00 });
    assert.deepEqual(
      [afterFirst.body.bet.status, afterFirst.body.bet.remainingStake, afterFirst.body.bet.potentialPayout],
      ['partially_cashed_out', 6_00, 12_60],
    );
    const second = (await offer(betId, '?stake=100')).body.offer;
    await cashOut(betId, { amount: second.amount, stake: 1_00 });
    await settleMarket(t, book, event().marketId, resultsOf(event(), 'home'));
    await drainDeliveries(t);
    assert.deepEqual(await credits(betId), [
      { tx_id: `cashout:${betId}:p1`, amount: first.amount, status: 'applied' },
      { tx_id: `cashout:${betId}:p2`, amount: second.amount, status: 'applied' },
    ]);
    const payout = await t.db
      .selectFrom('wallet_obligations')
      .select(['tx_id', 'amount'])
      .where('kind', '=', 'payout')
      .executeTakeFirstOrThrow();
    assert.deepEqual(payout, { tx_id: `payout:${betId}:1`, amount: 10_50 }, '5.00 remaining x 2.10');
    assert.equal(await wallet.balanceOf(player), 90_00 + first.amount + second.amount + 10_50);
  });

  it('is refused with the new offer when the odds moved since the offer was made', async () => {
    const betId = await single();
    const seen = (await offer(betId)).body.offer;
    await setOdds('1.80');
    const response = await cashOut(betId, { amount: seen.amount });
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details],
      [409, 'cashout_offer_changed', { offer: { amount: 11_08, currency: 'BRL', stake: 10_00 } }],
    );
    assert.deepEqual(await credits(betId), []);
  });

  it('is refused on a suspended market, changing nothing', async () => {
    const betId = await single();
    const seen = (await offer(betId)).body.offer;
    await trade('PATCH', `/markets/${event().marketId}`, { status: 'suspended' });
    const response = await cashOut(betId, { amount: seen.amount });
    assert.deepEqual([response.status, response.body.error.code], [409, 'cashout_unavailable']);
    assert.equal((await t.db.selectFrom('bets').select('status').executeTakeFirstOrThrow()).status, 'accepted');
  });

  it('a repeated request id cashes out nothing more; reused for another amount it is refused', async () => {
    const betId = await single();
    const { amount } = (await offer(betId, '?stake=200')).body.offer;
    const requestId = newRequestId();
    const first = await cashOut(betId, { requestId, amount, stake: 2_00 });
    const again = await cashOut(betId, { requestId, amount, stake: 2_00 });
    assert.deepEqual([first.status, again.status], [200, 200]);
    assert.deepEqual(again.body.bet, first.body.bet);
    const reused = await cashOut(betId, { requestId, amount: amount + 1, stake: 2_00 });
    assert.deepEqual([reused.status, reused.body.error.code], [409, 'request_id_reused']);
    assert.equal((await credits(betId)).length, 1);
  });

  it('two acceptances at once: one cashes out, the other finds the bet closed', async () => {
    const betId = await single();
    const { amount } = (await offer(betId)).body.offer;
    const answers = await Promise.all([cashOut(betId, { amount }), cashOut(betId, { amount })]);
    assert.deepEqual(answers.map((answer) => [answer.status, answer.body.error?.details?.reason ?? null]).sort(), [
      [200, null],
      [409, 'bet_not_open'],
    ]);
    assert.equal((await credits(betId)).length, 1);
  });

  it('stays guaranteed when the market is later resettled', async () => {
    const betId = await single();
    const { amount } = (await offer(betId)).body.offer;
    await cashOut(betId, { amount });
    await settleMarket(t, book, event().marketId, resultsOf(event(), 'away'));
    const corrected = await settleMarket(t, book, event().marketId, resultsOf(event(), 'home'), 'resettle');
    assert.deepEqual(corrected.body.owed, []);
    await drainDeliveries(t);
    assert.deepEqual(await credits(betId), [{ tx_id: `cashout:${betId}`, amount, status: 'applied' }]);
    const row = await t.db.selectFrom('bets').select('status').executeTakeFirstOrThrow();
    assert.equal(row.status, 'cashed_out');
    assert.equal(await wallet.balanceOf(player), 90_00 + amount);
  });

  it('refuses bodies outside the schema', async () => {
    const betId = await single();
    for (const body of [
      { amount: 0 },
      { amount: 1.5 },
      { amount: 100, stake: 0 },
      { amount: 100, extra: true },
      { amount: 100, requestId: 'short' },
    ]) {
      const response = await cashOut(betId, body);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], JSON.stringify(body));
    }
  });
});
