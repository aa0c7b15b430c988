import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  newRequestId,
  playerWithBalance,
  resultsOf,
  settleMarket,
  type Sportsbook,
  freshSportsbookPerTest,
} from '../helpers/sportsbook.ts';
import { type TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const place = (body: Record<string, unknown>, options: { token?: string } = {}) =>
  t.request('POST', '/api/v1/bets', { token: options.token ?? token, body: { requestId: newRequestId(), ...body } });
const single = (stake = 10_00, odds = '2.10', selectionId = book.events[0]!.home) =>
  place({ stake, legs: [{ selectionId, odds }] });
const walletCalls = (txId: string) =>
  t.db.selectFrom('wallet_calls').selectAll().where('tx_id', '=', txId).orderBy('id').execute();
const exposure = () =>
  t.db.selectFrom('exposure').select(['scope', 'ref_id', 'reserved']).orderBy('scope').orderBy('ref_id').execute();

describe('placing a bet', () => {
  it('accepts a single: one stake debit, the wallet balance returned, floor(stake x odds) as potential payout', async () => {
    const response = await single(10_00);
    assert.equal(response.status, 201, response.text);
    const bet = response.body.bet;
    assert.equal(bet.status, 'accepted');
    assert.equal(bet.stake, 10_00);
    assert.equal(bet.currency, 'BRL');
    assert.equal(bet.odds, '2.10');
    assert.equal(bet.potentialPayout, 21_00);
    assert.deepEqual(response.body.balance, { balance: 90_00, currency: 'BRL' });
    assert.deepEqual(
      bet.legs.map((leg: { selectionName: string; eventName: string; odds: string }) => [
        leg.selectionName,
        leg.eventName,
        leg.odds,
      ]),
      [['Flamengo', 'Flamengo vs Palmeiras', '2.10']],
    );
    assert.equal(await wallet.balanceOf(player), 90_00);
    const transactions = (await wallet.wallet.store.transactions()).filter((tx) => tx.player_id === player);
    assert.deepEqual(
      transactions.map((tx) => [tx.tx_id, tx.endpoint, tx.kind, tx.amount, tx.bet_id]),
      [[`bet:${bet.id}`, 'debit', 'bet', 10_00, bet.id]],
    );
    const obligations = await t.db.selectFrom('wallet_obligations').selectAll().execute();
    assert.deepEqual(
      obligations.map((o) => [o.tx_id, o.status, o.attempts]),
      [[`bet:${bet.id}`, 'applied', 1]],
    );
    const calls = await walletCalls(`bet:${bet.id}`);
    assert.deepEqual(
      calls.map((c) => [c.endpoint, c.kind, c.http_status, c.outcome]),
      [['debit', 'bet', 200, 'applied']],
    );
  });

  it('answers with the bet exactly as reading it back shows it (the answer is built without reading again)', async () => {
    const [first, second] = book.events;
    const response = await place({
      stake: 5_00,
      legs: [
        { selectionId: first!.home, odds: '2.10' },
        { selectionId: second!.draw, odds: '3.25' },
      ],
    });
    assert.equal(response.status, 201, response.text);
    const read = await t.request('GET', `/api/v1/bets/${response.body.bet.id}`, { token });
    assert.equal(read.status, 200, read.text);
    assert.deepEqual(response.body.bet, read.body.bet);
  });

  it('accepts an accumulator at the product of its odds, payout floored once', async () => {
    const [first, second] = book.events;
    const response = await place({
      stake: 3_33,
      legs: [
        { selectionId: first!.home, odds: '2.10' },
        { selectionId: second!.away, odds: '3.60' },
      ],
    });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.bet.odds, '7.56');
    assert.equal(response.body.bet.potentialPayout, Math.floor((333 * 2100 * 3600) / 1_000_000));
    assert.equal(response.body.bet.legs.length, 2);
    assert.equal(await wallet.balanceOf(player), 100_00 - 3_33);
  });

  it('refuses two selections of one event in an accumulator', async () => {
    const event = book.events[0]!;
    const response = await place({
      stake: 100,
      legs: [
        { selectionId: event.home, odds: '2.10' },
        { selectionId: event.draw, odds: '3.25' },
      ],
    });
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details.field],
      [400, 'validation', 'legs'],
    );
    assert.equal(wallet.wallet.received.length, 0);
  });

  it('refuses a selection twice in one slip, unknown fields and out-of-bounds stakes without calling the wallet', async () => {
    const id = book.events[0]!.home;
    const twice = await place({
      stake: 100,
      legs: [
        { selectionId: id, odds: '2.10' },
        { selectionId: id, odds: '2.10' },
      ],
    });
    assert.equal(twice.body.error.details.field, 'legs.1.selectionId');
    assert.equal(
      (await place({ stake: 100, legs: [{ selectionId: id, odds: '2.10' }], boost: true })).body.error.details.field,
      'boost',
    );
    assert.equal(
      (await place({ stake: '100', legs: [{ selectionId: id, odds: '2.10' }] })).body.error.details.field,
      'stake',
    );
    assert.equal(
      (await place({ stake: 100, legs: [{ selectionId: id, odds: 2.1 }] })).body.error.details.field,
      'legs.0.odds',
    );
    assert.equal((await place({ stake: 100, legs: [] })).body.error.details.field, 'legs');
    const below = await single(99);
    assert.deepEqual(
      [below.status, below.body.error.code, below.body.error.details],
      [400, 'stake_out_of_range', { minStake: 100, maxStake: 1_000_000 }],
    );
    assert.equal((await single(100)).status, 201, 'the minimum itself is fine');
    assert.equal(wallet.wallet.received.length, 1);
  });

  it('refuses a potential payout above the maximum', async () => {
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: {
        limits: {
          minStake: 100,
          maxStake: 50_00,
          maxPayout: 100_00,
          maxSelectionLiability: 1_000_00,
          maxEventLiability: 1_000_00,
        },
      },
    });
    const response = await single(48_00);
    assert.deepEqual([response.status, response.body.error.code], [400, 'payout_above_maximum']);
    assert.equal((await single(47_00)).status, 201);
  });

  it('bounds the slip: stake above the maximum, 21 legs, odds of 1.00', async () => {
    const above = await single(1_000_001);
    assert.deepEqual([above.status, above.body.error.code], [400, 'stake_out_of_range']);
    const legs = Array.from({ length: 21 }, (_, i) => ({ selectionId: `se_${i}`, odds: '2.00' }));
    assert.equal((await place({ stake: 100, legs })).body.error.details.field, 'legs');
    assert.equal((await single(100, '1.00')).body.error.details.field, 'legs.0.odds');
    assert.equal(wallet.wallet.received.length, 0);
  });

  it('refuses bets on a pre-match event whose start time has passed', async () => {
    const startsAt = new Date(t.clock.now().getTime() - 60_000).toISOString();
    await t.request('PATCH', `/api/v1/admin/trading/events/${book.events[0]!.id}`, {
      token: book.trader,
      body: { startsAt },
    });
    const response = await single();
    assert.deepEqual([response.status, response.body.error.code], [409, 'market_unavailable']);
  });

  it('needs a live player session', async () => {
    const response = await t.request('POST', '/api/v1/bets', {
      body: { requestId: newRequestId(), stake: 100, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
    });
    assert.equal(response.status, 401);
  });
});

describe('odds and markets', () => {
  it('refuses worse odds with the new odds, and accepts better odds at the current price', async () => {
    const selection = book.events[0]!.home;
    await t.request('PUT', `/api/v1/admin/trading/selections/${selection}/odds`, {
      token: book.trader,
      body: { odds: '1.95' },
    });
    const worse = await single(10_00, '2.10', selection);
    assert.equal(worse.status, 409);
    assert.deepEqual(worse.body.error.details, { legs: [{ selectionId: selection, odds: '1.95', oddsVersion: 2 }] });
    await t.request('PUT', `/api/v1/admin/trading/selections/${selection}/odds`, {
      token: book.trader,
      body: { odds: '2.30' },
    });
    const better = await single(10_00, '2.10', selection);
    assert.equal(better.status, 201);
    assert.equal(better.body.bet.odds, '2.30');
    assert.equal(better.body.bet.potentialPayout, 23_00);
    assert.equal(wallet.wallet.received.length, 1, 'the refused slip never reached the wallet');
  });

  it('refuses a suspended market, and accepts again once it reopens', async () => {
    const event = book.events[0]!;
    await t.request('PATCH', `/api/v1/admin/trading/markets/${event.marketId}`, {
      token: book.trader,
      body: { status: 'suspended' },
    });
    const refused = await single();
    assert.deepEqual(
      [refused.status, refused.body.error.code, refused.body.error.details.marketStatus],
      [409, 'market_unavailable', 'suspended'],
    );
    await t.request('PATCH', `/api/v1/admin/trading/markets/${event.marketId}`, {
      token: book.trader,
      body: { status: 'open' },
    });
    assert.equal((await single()).status, 201);
  });

  it('refuses an unknown selection', async () => {
    const response = await single(100, '2.10', 'se_missing');
    assert.deepEqual([response.status, response.body.error.code], [409, 'selection_unavailable']);
  });
});

describe('wallet refusals', () => {
  it('insufficient funds: its own code, nothing moved, exposure released', async () => {
    const response = await single(100_01);
    assert.deepEqual(response.body.error, {
      code: 'insufficient_funds',
      message: 'Not enough balance for this stake.',
    });
    assert.equal(response.status, 402);
    assert.equal(await wallet.balanceOf(player), 100_00);
    assert.ok((await exposure()).every((row) => row.reserved === 0));
    const bet = await t.db.selectFrom('bets').selectAll().executeTakeFirstOrThrow();
    assert.equal(bet.status, 'refused');
    assert.equal(
      (await t.db.selectFrom('wallet_obligations').selectAll().execute()).length,
      1,
      'no rollback for a refusal',
    );
  });

  it('any other wallet code is payment_rejected with details.operatorCode', async () => {
    await wallet.addPlayer(player, 100_00, 'BRL', true);
    const response = await single();
    assert.equal(response.status, 402);
    assert.deepEqual(response.body.error.details, { operatorCode: 'player_blocked' });
    assert.equal(response.body.error.code, 'payment_rejected');
  });
});

describe('unknown stake outcomes end in exactly one rollback and no bet', () => {
  const cases: Array<[string, Parameters<TestWallet['fault']>[0], string, boolean]> = [
    ['500', { mode: 'status_500' }, 'status_5xx', false],
    ['503 after applying', { mode: 'status_503', apply: true }, 'status_5xx', true],
    ['408', { mode: 'status_408' }, 'status_408', false],
    ['429', { mode: 'status_429' }, 'status_429', false],
    ['a malformed body', { mode: 'malformed', apply: true }, 'malformed_body', true],
    ['an empty 4xx', { mode: 'empty_4xx' }, 'malformed_body', false],
    ['a wrong txId', { mode: 'wrong_tx_id', apply: true }, 'txid_mismatch', true],
    ['a wrong currency', { mode: 'wrong_currency', apply: true }, 'currency_mismatch', true],
    ['a dropped connection', { mode: 'reset' }, 'connection_error', false],
  ];
  for (const [name, fault, reason, applied] of cases) {
    it(`${name}: refused as unavailable, stake ${applied ? 'returned' : 'never taken'}`, async () => {
      wallet.fault({ ...fault, endpoint: 'debit' });
      const response = await single(10_00);
      assert.equal(response.status, 503, response.text);
      assert.equal(response.body.error.code, 'wallet_unavailable');
      assert.equal(response.body.error.details, undefined, 'the player is not told transport reasons');
      const [call] = await t.db.selectFrom('wallet_calls').selectAll().where('endpoint', '=', 'debit').execute();
      assert.equal(call!.reason, reason, 'the wallet call log keeps the reason');
      await drainDeliveries(t);
      const bet = await t.db.selectFrom('bets').selectAll().executeTakeFirstOrThrow();
      assert.equal(bet.status, 'refused');
      const obligations = await t.db.selectFrom('wallet_obligations').selectAll().orderBy('sequence').execute();
      assert.deepEqual(
        obligations.map((o) => [o.tx_id, o.status]),
        [
          [`bet:${bet.id}`, 'unknown'],
          [`rollback:bet:${bet.id}`, 'applied'],
        ],
      );
      const rollbacks = wallet.wallet.received.filter((r) => r.endpoint === 'rollback');
      assert.equal(rollbacks.length, 1, 'exactly one rollback delivered');
      assert.equal(await wallet.balanceOf(player), 100_00);
      assert.ok(
        (await exposure()).every((row) => row.reserved === 0),
        'exposure released',
      );
      const myBets = await t.request('GET', '/api/v1/bets?status=open', { token });
      assert.deepEqual(myBets.body.bets, []);
    });
  }

  it('a timeout: the debit that arrives after its rollback is refused by the wallet, so no money ever moves', async () => {
    wallet.fault({ mode: 'delay', endpoint: 'debit', delayMs: 6_000, apply: true });
    const response = await single(10_00);
    assert.deepEqual([response.status, response.body.error.code], [503, 'wallet_unavailable']);
    await drainDeliveries(t);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const transactions = (await wallet.wallet.store.transactions()).filter((tx) => tx.player_id === player);
    assert.deepEqual(
      transactions.map((tx) => [tx.endpoint, tx.status]),
      [
        ['rollback', 200],
        ['debit', 409],
      ],
    );
    assert.equal(await wallet.balanceOf(player), 100_00);
  });

  it('the rollback is retried with the same txId and body until the wallet confirms it', async () => {
    wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    wallet.fault({ mode: 'status_503', endpoint: 'rollback', times: 2 });
    await single(10_00);
    await drainDeliveries(t);
    const bet = await t.db.selectFrom('bets').select('id').executeTakeFirstOrThrow();
    const calls = await walletCalls(`rollback:bet:${bet.id}`);
    assert.deepEqual(
      calls.map((c) => c.outcome),
      ['unknown', 'unknown', 'applied'],
    );
    const obligation = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('kind', '=', 'rollback')
      .executeTakeFirstOrThrow();
    assert.deepEqual([obligation.status, obligation.attempts], ['applied', 3]);
    assert.equal(
      obligation.body,
      JSON.stringify({
        txId: `rollback:bet:${bet.id}`,
        playerId: player,
        amount: 10_00,
        currency: 'BRL',
        kind: 'rollback',
        betId: bet.id,
        ref: `bet:${bet.id}`,
      }),
    );
  });

  it('a rollback still unknown after five attempts waits for the worker, which sends it again later', async () => {
    wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    wallet.fault({ mode: 'status_503', endpoint: 'rollback', times: 5 });
    await single(10_00);
    await drainDeliveries(t);
    const pending = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('kind', '=', 'rollback')
      .executeTakeFirstOrThrow();
    assert.deepEqual([pending.status, pending.attempts], ['pending', 5]);
    assert.equal(await t.app.services.delivery.runOnce(), 0, 'not due before 30 s');
    t.clock.advance(30_000);
    assert.equal(await t.app.services.delivery.runOnce(), 1);
    await drainDeliveries(t);
    const delivered = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('kind', '=', 'rollback')
      .executeTakeFirstOrThrow();
    assert.deepEqual([delivered.status, delivered.attempts], ['applied', 6]);
  });

  it('a rollback the wallet refuses is held for review and not retried', async () => {
    wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    wallet.fault({ mode: 'refuse', endpoint: 'rollback' });
    await single(10_00);
    await drainDeliveries(t);
    const held = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('kind', '=', 'rollback')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [held.status, held.hold_reason, held.operator_code, held.attempts],
      ['held', 'refused', 'refused_by_test', 1],
    );
    t.clock.advance(60_000);
    assert.equal(await t.app.services.delivery.runOnce(), 0);
  });
});

/** A placement of 10.00 whose stake debit the wallet holds for a second, once the debit is on its way. */
async function debitInFlight(stake = 10_00, delayMs = 1_000) {
  wallet.fault({ mode: 'delay', endpoint: 'debit', delayMs, apply: true });
  const response = single(stake);
  await new Promise((resolve) => setTimeout(resolve, 300));
  return { response };
}
/** A hand edit that breaks the rule that a pending bet's stake is the one being sent: it refuses the bet alone. */
const refuseByHand = () =>
  t.db
    .updateTable('bets')
    .set({ status: 'refused', refusal: JSON.stringify({ code: 'wallet_unavailable' }) })
    .execute();
const stakeObligation = () =>
  t.db.selectFrom('wallet_obligations').selectAll().where('kind', '=', 'bet').executeTakeFirstOrThrow();

describe('the stake debit is sent once', () => {
  it('a worker tick while the debit is in flight does not send it again', async () => {
    const placing = await debitInFlight();
    assert.equal(await t.app.services.delivery.runOnce(), 0, "the stake is not the engine's to send");
    const response = await placing.response;
    assert.equal(response.status, 201);
    assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'debit').length, 1);
    const stake = await t.db.selectFrom('wallet_obligations').selectAll().executeTakeFirstOrThrow();
    assert.deepEqual([stake.status, stake.attempts], ['applied', 1]);
  });

  it('a bet decided elsewhere while its debit was in flight stays decided: the late "applied" writes nothing', async () => {
    const placing = await debitInFlight();
    const bet = await t.db.selectFrom('bets').selectAll().executeTakeFirstOrThrow();
    assert.equal(await t.app.services.stakeDecisions.treatAsUnknown(bet, 'test'), true);
    const response = await placing.response;
    assert.deepEqual([response.status, response.body.error.code], [503, 'wallet_unavailable']);
    const stake = await stakeObligation();
    assert.deepEqual([stake.status, stake.last_outcome], ['unknown', 'test']);
    assert.deepEqual(
      (await walletCalls(stake.tx_id)).map((call) => call.outcome),
      ['applied'],
      'the call is logged once, on its own',
    );
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00, 'the stake was rolled back');
  });

  it('the stake applied and the bet accepted are written together or not at all', async () => {
    const placing = await debitInFlight();
    await refuseByHand();
    const response = await placing.response;
    assert.deepEqual([response.status, response.body.error.code], [503, 'wallet_unavailable']);
    const bet = await t.db.selectFrom('bets').selectAll().executeTakeFirstOrThrow();
    assert.equal(bet.status, 'refused', 'the bet was not accepted');
    const stake = await stakeObligation();
    assert.deepEqual(
      (await walletCalls(stake.tx_id)).map((call) => call.outcome),
      ['applied'],
      'the call is logged once: the acceptance wrote none of its parts',
    );
  });

  it('a stake taken for a bet refused elsewhere while its debit was in flight is rolled back', async () => {
    const placing = await debitInFlight();
    await refuseByHand();
    await placing.response;
    const stake = await stakeObligation();
    assert.deepEqual([stake.status, stake.attempts, stake.last_outcome], ['applied', 1, 'applied']);
    const rollback = await t.db
      .selectFrom('wallet_obligations')
      .select(['tx_id', 'amount'])
      .where('kind', '=', 'rollback')
      .executeTakeFirstOrThrow();
    assert.deepEqual([rollback.tx_id, Number(rollback.amount)], [`rollback:${stake.tx_id}`, 10_00]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00, 'the stake came back');
  });

  it('a debit timed out for a bet refused elsewhere while it was in flight is recorded unknown and rolled back', async () => {
    // past the wallet timeout: the service cannot know whether the debit moved money
    const placing = await debitInFlight(10_00, 6_000);
    await refuseByHand();
    const response = await placing.response;
    assert.deepEqual([response.status, response.body.error.code], [503, 'wallet_unavailable']);
    const stake = await stakeObligation();
    assert.deepEqual([stake.status, stake.last_outcome], ['unknown', 'timeout']);
    const owed = await t.db.selectFrom('wallet_obligations').select('tx_id').where('kind', '=', 'rollback').execute();
    assert.deepEqual(owed, [{ tx_id: `rollback:${stake.tx_id}` }]);
    await drainDeliveries(t);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    assert.equal(await wallet.balanceOf(player), 100_00, 'the late debit is refused after its rollback');
  });

  it('a refused debit for a bet refused elsewhere while it was in flight is recorded and owes nothing', async () => {
    // above the balance of 100.00: the wallet refuses it, after the delay
    const placing = await debitInFlight(150_00);
    await refuseByHand();
    const response = await placing.response;
    assert.deepEqual([response.status, response.body.error.code], [503, 'wallet_unavailable']);
    const stake = await stakeObligation();
    assert.deepEqual([stake.status, stake.operator_code], ['refused', 'insufficient_funds']);
    assert.equal((await walletCalls(stake.tx_id)).length, 1);
    const owed = await t.db.selectFrom('wallet_obligations').select('kind').where('kind', '<>', 'bet').execute();
    assert.deepEqual(owed, []);
    assert.equal(await wallet.balanceOf(player), 100_00);
  });

  it('a failure after the commit refuses the bet and rolls the stake back', async () => {
    await t.db.updateTable('tenants').set({ wallet_secret_enc: 'v1.corrupt.x.y.z' }).execute();
    const response = await single(10_00);
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details],
      [503, 'wallet_unavailable', undefined],
    );
    const bet = await t.db.selectFrom('bets').selectAll().executeTakeFirstOrThrow();
    assert.equal(bet.status, 'refused');
    const obligations = await t.db
      .selectFrom('wallet_obligations')
      .select(['kind', 'status'])
      .orderBy('sequence')
      .execute();
    assert.deepEqual(
      obligations.map((o) => [o.kind, o.status]),
      [
        ['bet', 'unknown'],
        ['rollback', 'pending'],
      ],
    );
    assert.ok((await exposure()).every((row) => row.reserved === 0));
  });

  it('start-up recovery leaves decided bets alone', async () => {
    await single(10_00);
    await single(100_01);
    assert.equal(await t.app.services.recovery.recoverPendingBets(), 0);
    const bets = await t.db.selectFrom('bets').select('status').orderBy('placed_at').execute();
    assert.deepEqual(bets.map((bet) => bet.status).sort(), ['accepted', 'refused']);
    assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'rollback').length, 0);
  });

  it('an owed rollback is never sent to another wallet URL: it is held for review', async () => {
    wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    wallet.fault({ mode: 'status_503', endpoint: 'rollback', times: 5 });
    await single(10_00);
    await drainDeliveries(t);
    // Out-of-band change (settings refuse it after the first stake): the engine must notice.
    await t.db.updateTable('tenants').set({ wallet_url: 'http://127.0.0.1:9' }).execute();
    t.clock.advance(30_000);
    await t.app.services.delivery.runOnce();
    await drainDeliveries(t);
    const held = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('kind', '=', 'rollback')
      .executeTakeFirstOrThrow();
    assert.deepEqual([held.status, held.hold_reason, held.attempts], ['held', 'destination_changed', 5]);
  });
});

describe('exposure limits', () => {
  it('concurrent bets never push the liability of a selection past its limit', async () => {
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: {
        limits: {
          minStake: 100,
          maxStake: 1_000_00,
          maxPayout: 10_000_00,
          maxSelectionLiability: 35_00,
          maxEventLiability: 1_000_00,
        },
      },
    });
    // Each bet: stake 10.00 at 2.10 -> liability 11.00; the limit 35.00 fits three.
    const results = await Promise.all(Array.from({ length: 8 }, () => single(10_00)));
    const statuses = results.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 201).length, 3, JSON.stringify(statuses));
    assert.ok(
      results.filter((r) => r.status !== 201).every((r) => r.status === 409 && r.body.error.code === 'exposure_limit'),
    );
    const selection = (await exposure()).find((row) => row.scope === 'selection')!;
    assert.equal(selection.reserved, 33_00);
    assert.equal(await wallet.balanceOf(player), 100_00 - 30_00);
  });

  it('an accumulator reserves its liability on every event, and the event limit holds too', async () => {
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: {
        limits: {
          minStake: 100,
          maxStake: 1_000_00,
          maxPayout: 10_000_00,
          maxSelectionLiability: 1_000_00,
          maxEventLiability: 20_00,
        },
      },
    });
    const [first, second] = book.events;
    const accumulator = await place({
      stake: 2_00,
      legs: [
        { selectionId: first!.home, odds: '2.10' },
        { selectionId: second!.home, odds: '2.10' },
      ],
    });
    assert.equal(accumulator.status, 201);
    const liability = accumulator.body.bet.potentialPayout - 2_00;
    const events = (await exposure()).filter((row) => row.scope === 'event');
    assert.deepEqual(
      events.map((row) => row.reserved),
      [liability, liability],
    );
    const refused = await single(10_00, '3.25', first!.draw);
    assert.deepEqual(
      [refused.status, refused.body.error.code, refused.body.error.details.scope],
      [409, 'exposure_limit', 'event'],
    );
  });

  it('a refused stake gives its reservation back', async () => {
    await single(100_01);
    assert.ok((await exposure()).every((row) => row.reserved === 0));
    const accepted = await single(10_00);
    assert.equal(accepted.status, 201);
    assert.deepEqual(
      (await exposure()).map((row) => row.reserved),
      [11_00, 11_00],
    );
  });
});

describe('double submission', () => {
  it('the same request id twice at once places one bet and debits once', async () => {
    const body = {
      requestId: newRequestId(),
      stake: 10_00,
      legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }],
    };
    const results = await Promise.all([1, 2].map(() => t.request('POST', '/api/v1/bets', { token, body })));
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 201]);
    const replay = results.find((r) => r.status === 200)!;
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.equal(replay.body.bet.id, results.find((r) => r.status === 201)!.body.bet.id);
    assert.equal(await wallet.balanceOf(player), 90_00);
    assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'debit').length, 1);
  });

  it('the same slip written with other odds digits ("2.1" for "2.10") is the same slip', async () => {
    const requestId = newRequestId();
    const first = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId, stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
    });
    const again = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId, stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.1' }] },
    });
    assert.deepEqual([again.status, again.body.bet.id], [200, first.body.bet.id]);
  });

  it("a request id repeated after the market was suspended gets the first request's bet, not a refusal", async () => {
    const body = {
      requestId: newRequestId(),
      stake: 10_00,
      legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }],
    };
    const first = await t.request('POST', '/api/v1/bets', { token, body });
    await t.request('PATCH', `/api/v1/admin/trading/markets/${book.events[0]!.marketId}`, {
      token: book.trader,
      body: { status: 'suspended' },
    });
    const again = await t.request('POST', '/api/v1/bets', { token, body });
    assert.deepEqual([again.status, again.body.bet.id], [200, first.body.bet.id]);
    assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'debit').length, 1);
  });

  for (const [closing, close] of [
    [
      'settled',
      (betId: string, marketId: string) => settleMarket(t, book, marketId, resultsOf(book.events[0]!, 'home')),
    ],
    ['void', (_betId: string, marketId: string) => settleMarket(t, book, marketId, resultsOf(book.events[0]!, 'void'))],
    [
      'cashed out',
      async (betId: string) => {
        const { amount } = (await t.request('GET', `/api/v1/bets/${betId}/cashout`, { token })).body.offer;
        return t.request('POST', `/api/v1/bets/${betId}/cashout`, {
          token,
          body: { requestId: newRequestId(), amount },
        });
      },
    ],
  ] as const) {
    it(`a request id repeated after the bet was ${closing} answers at once with the bet as it is now`, async () => {
      const body = {
        requestId: newRequestId(),
        stake: 10_00,
        legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }],
      };
      const first = await t.request('POST', '/api/v1/bets', { token, body });
      const closed = await close(first.body.bet.id, book.events[0]!.marketId);
      assert.equal(closed.status, 200, closed.text);
      const now = await t.request('GET', `/api/v1/bets/${first.body.bet.id}`, { token });
      const again = await t.request('POST', '/api/v1/bets', { token, body });
      assert.deepEqual([again.status, again.headers.get('idempotency-replayed')], [200, 'true']);
      assert.deepEqual(again.body.bet, now.body.bet);
      assert.notEqual(again.body.bet.status, 'accepted');
      assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'debit').length, 1);
    });
  }

  it('a repeated refused slip gets the same refusal, and another slip with the same id is refused', async () => {
    const requestId = newRequestId();
    const legs = [{ selectionId: book.events[0]!.home, odds: '2.10' }];
    const first = await t.request('POST', '/api/v1/bets', { token, body: { requestId, stake: 100_01, legs } });
    const again = await t.request('POST', '/api/v1/bets', { token, body: { requestId, stake: 100_01, legs } });
    assert.deepEqual([again.status, again.body], [first.status, first.body]);
    const other = await t.request('POST', '/api/v1/bets', { token, body: { requestId, stake: 5_00, legs } });
    assert.deepEqual([other.status, other.body.error.code], [409, 'request_id_reused']);
    assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'debit').length, 1);
  });
});

describe('balance and My Bets', () => {
  it('GET /api/v1/wallet/balance asks the wallet each time with a fresh balance txId, and logs the call', async () => {
    const first = await t.request('GET', '/api/v1/wallet/balance', { token });
    assert.deepEqual([first.status, first.body], [200, { balance: 100_00, currency: 'BRL' }]);
    await t.request('GET', '/api/v1/wallet/balance', { token });
    const calls = await t.db.selectFrom('wallet_calls').selectAll().where('endpoint', '=', 'balance').execute();
    assert.equal(calls.length, 2);
    assert.notEqual(calls[0]!.tx_id, calls[1]!.tx_id);
    assert.match(calls[0]!.tx_id, /^balance:[0-9a-f-]{36}$/);
  });

  it('shows no balance when the wallet fails, and says so without the transport reason', async () => {
    wallet.fault({ mode: 'status_503', endpoint: 'balance' });
    const response = await t.request('GET', '/api/v1/wallet/balance', { token });
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details],
      [503, 'balance_unavailable', undefined],
    );
    const [call] = await t.db.selectFrom('wallet_calls').selectAll().where('endpoint', '=', 'balance').execute();
    assert.deepEqual([call!.outcome, call!.reason], ['unknown', 'status_5xx']);
  });

  it('My Bets lists open bets newest first with their legs, paginated; settled is empty until settlement', async () => {
    const ids = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await single(1_00 + i)).body.bet.id);
      t.clock.advance(1000);
    }
    const first = await t.request('GET', '/api/v1/bets?status=open&limit=2', { token });
    assert.deepEqual(
      first.body.bets.map((bet: { id: string }) => bet.id),
      [ids[2], ids[1]],
    );
    const second = await t.request('GET', `/api/v1/bets?status=open&limit=2&cursor=${first.body.nextCursor}`, {
      token,
    });
    assert.deepEqual(
      second.body.bets.map((bet: { id: string }) => bet.id),
      [ids[0]],
    );
    assert.equal(second.body.nextCursor, '');
    assert.deepEqual((await t.request('GET', '/api/v1/bets?status=settled', { token })).body, {
      bets: [],
      nextCursor: '',
    });
    assert.equal((await t.request('GET', '/api/v1/bets?status=void', { token })).status, 400);
    assert.equal((await t.request('GET', '/api/v1/bets?limit=51', { token })).status, 400);
  });

  it("GET /api/v1/bets/{id} shows the player's own bet only", async () => {
    const bet = (await single()).body.bet;
    const own = await t.request('GET', `/api/v1/bets/${bet.id}`, { token });
    assert.deepEqual(own.body.bet, bet);
    const other = await playerWithBalance(t, book, wallet, `other-${player}`, 10_00);
    assert.equal((await t.request('GET', `/api/v1/bets/${bet.id}`, { token: other })).status, 404);
  });

  it("the first stake locks the tenant's wallet identity", async () => {
    await single();
    const response = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: { walletUrl: 'https://elsewhere.example' },
    });
    assert.equal(response.body.error.code, 'wallet_identity_locked');
  });
});

describe("staff look-up of a player's bets", () => {
  it("shows every bet of the player with its wallet postings, to the tenant's operators and platform administrators", async () => {
    await single(10_00);
    t.clock.advance(1000);
    wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    await single(5_00);
    await drainDeliveries(t);
    const playerId = (
      await t.db.selectFrom('players').select('id').where('external_id', '=', player).executeTakeFirstOrThrow()
    ).id;
    const operator = await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId });
    const response = await t.request('GET', `/api/v1/admin/bets?player=${playerId}`, { token: operator.token });
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.bets.map((bet: { status: string; money: Array<{ kind: string; status: string }> }) => [
        bet.status,
        bet.money.map((m) => `${m.kind}:${m.status}`),
      ]),
      [
        ['refused', ['bet:unknown', 'rollback:applied']],
        ['accepted', ['bet:applied']],
      ],
    );
    assert.equal((await t.request('GET', `/api/v1/admin/bets?player=${playerId}`, { token: book.admin })).status, 200);
    const foreign = await loginAsStaff(t, 'operator', { tenantId: 'tn_other' });
    assert.equal(
      (await t.request('GET', `/api/v1/admin/bets?player=${playerId}`, { token: foreign.token })).status,
      404,
    );
    assert.equal((await t.request('GET', `/api/v1/admin/bets?player=${playerId}`, { token: book.trader })).status, 403);
    assert.equal(
      (await t.request('GET', '/api/v1/admin/bets', { token: book.admin })).body.error.details.field,
      'player',
    );
  });
});
