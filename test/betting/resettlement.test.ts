import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  newRequestId,
  resultsOf,
  settleMarket,
  freshSportsbookPerTest,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('resettle-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
let operator: string;
beforeEach(async () => {
  ({ t, wallet, book, token, player } = fresh);
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
});

async function place(legs: Array<{ selectionId: string; odds: string }>, stake = 10_00): Promise<string> {
  const response = await t.request('POST', '/api/v1/bets', { token, body: { requestId: newRequestId(), stake, legs } });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
const event = () => book.events[0]!;
const single = () => place([{ selectionId: event().home, odds: '2.10' }]);
const settle = (winner: Parameters<typeof resultsOf>[1], action: 'settle' | 'resettle' = 'settle') =>
  settleMarket(t, book, event().marketId, resultsOf(event(), winner), action);
const bet = async (id: string) => t.db.selectFrom('bets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const postings = async (betId: string) =>
  (
    await t.db.selectFrom('wallet_obligations').selectAll().where('bet_id', '=', betId).orderBy('sequence').execute()
  ).map((row) => [row.tx_id, row.endpoint, row.amount, row.status, row.hold_reason]);
const exposure = () =>
  t.db.selectFrom('exposure').select(['scope', 'ref_id', 'reserved']).orderBy('scope').orderBy('ref_id').execute();
const obligationId = async (txId: string) =>
  (await t.db.selectFrom('wallet_obligations').select('id').where('tx_id', '=', txId).executeTakeFirstOrThrow()).id;
const review = (action: string, txId: string, reason = 'checked with the casino') =>
  obligationId(txId).then((id) =>
    t.request('POST', `/api/v1/admin/obligations/${id}/${action}`, { token: operator, body: { reason } }),
  );

describe('resettling a market', () => {
  it('won to lost after the payout was paid: the bet owes its payout back as a correction debit', async () => {
    const betId = await single();
    await settle('home');
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 111_00);
    const corrected = await settle('away', 'resettle');
    assert.equal(corrected.status, 200, corrected.text);
    assert.deepEqual(corrected.body, {
      market: { id: event().marketId, status: 'settled', settlementVersion: 2 },
      bets: { settled: 0, resettled: 1, reopened: 0, unchanged: 0 },
      owed: [{ currency: 'BRL', credits: 0, debits: 21_00, movements: 1 }],
    });
    await drainDeliveries(t);
    assert.deepEqual(await postings(betId), [
      [`bet:${betId}`, 'debit', 10_00, 'applied', null],
      [`payout:${betId}:1`, 'credit', 21_00, 'applied', null],
      [`resettle:${betId}:2:1`, 'debit', 21_00, 'applied', null],
    ]);
    const row = await bet(betId);
    assert.deepEqual([row.status, row.settled_return, row.settled_version], ['lost', 0, 2]);
    assert.equal(await wallet.balanceOf(player), 90_00);
  });

  it('lost to won: the bet is owed the difference as a correction credit', async () => {
    const betId = await single();
    await settle('away');
    await drainDeliveries(t);
    const corrected = await settle('home', 'resettle');
    assert.deepEqual(corrected.body.owed, [{ currency: 'BRL', credits: 21_00, debits: 0, movements: 1 }]);
    await drainDeliveries(t);
    assert.deepEqual((await postings(betId)).at(-1), [`resettle:${betId}:2:1`, 'credit', 21_00, 'applied', null]);
    assert.equal(await wallet.balanceOf(player), 111_00);
  });

  it('the same results again change nothing and owe nothing (a retried request is harmless)', async () => {
    await single();
    await settle('home');
    const again = await settle('home', 'resettle');
    assert.deepEqual(again.body, {
      market: { id: event().marketId, status: 'settled', settlementVersion: 1 },
      bets: { settled: 0, resettled: 0, reopened: 0, unchanged: 0 },
      owed: [],
    });
  });

  it('a correction debit refused for insufficient funds is kept, collects nothing, and stops that bet', async () => {
    const betId = await single();
    await settle('home');
    await drainDeliveries(t);
    await wallet.addPlayer(player, 5_00);
    await settle('away', 'resettle');
    await drainDeliveries(t);
    assert.deepEqual((await postings(betId)).at(-1), [
      `resettle:${betId}:2:1`,
      'debit',
      21_00,
      'held',
      'correction_insufficient_funds',
    ]);
    assert.equal(await wallet.balanceOf(player), 5_00, 'no partial collection');
    t.clock.advance(120_000);
    assert.equal(await t.app.services.delivery.runOnce(), 0, 'not sent again automatically');
    const retry = await review('retry', `resettle:${betId}:2:1`);
    assert.deepEqual([retry.status, retry.body.error.code], [409, 'retry_not_allowed']);
    const listed = await t.request('GET', `/api/v1/admin/obligations?state=held&bet=${betId}`, { token: operator });
    assert.deepEqual(
      listed.body.obligations.map((o: { txId: string; operatorCode: string; actions: string[] }) => [
        o.txId,
        o.operatorCode,
        o.actions,
      ]),
      [[`resettle:${betId}:2:1`, 'insufficient_funds', ['resolve', 'cancel']]],
    );
  });

  it('an unresolved payout superseded by a resettlement stops, held as an obsolete credit; cancelled, the correction flows', async () => {
    const betId = await single();
    wallet.fault({ mode: 'status_503', endpoint: 'credit', times: 5 });
    await settle('home');
    await drainDeliveries(t);
    const corrected = await settle('void', 'resettle');
    assert.deepEqual(corrected.body.owed, [{ currency: 'BRL', credits: 10_00, debits: 0, movements: 1 }]);
    await drainDeliveries(t);
    assert.deepEqual(await postings(betId), [
      [`bet:${betId}`, 'debit', 10_00, 'applied', null],
      [`payout:${betId}:1`, 'credit', 21_00, 'held', 'obsolete_credit_requires_review'],
      [`resettle:${betId}:2:1`, 'credit', 10_00, 'pending', null],
    ]);
    assert.equal(await wallet.balanceOf(player), 90_00, 'the correction waits behind the held payout');
    const seen = await t.request('GET', `/api/v1/bets/${betId}`, { token });
    assert.deepEqual(
      seen.body.bet.movements.map((m: { txId: string; status: string }) => [m.txId, m.status]),
      [
        [`bet:${betId}`, 'applied'],
        [`payout:${betId}:1`, 'in_review'],
        [`resettle:${betId}:2:1`, 'owed'],
      ],
      'the player is owed the correction, not the superseded payout',
    );
    const retry = await review('retry', `payout:${betId}:1`);
    assert.deepEqual([retry.status, retry.body.error.code], [409, 'retry_not_allowed']);
    const cancelled = await review('cancel', `payout:${betId}:1`, 'the wallet never applied it');
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(
      [cancelled.body.obligation.status, cancelled.body.obligation.review],
      ['cancelled', { by: cancelled.body.obligation.review.by, reason: 'the wallet never applied it' }],
    );
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00, 'stake back, as the void result says');
  });

  it('an obsolete credit the wallet had applied after all, once resolved, is corrected by the exact difference in place of the unsent correction', async () => {
    const betId = await single();
    wallet.fault({ mode: 'status_503', endpoint: 'credit', times: 5, apply: true });
    await settle('home');
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 111_00, 'the wallet applied it and answered 503');
    await settle('void', 'resettle');
    await drainDeliveries(t);
    const resolved = await review('resolve', `payout:${betId}:1`, 'the casino shows it credited');
    assert.equal(resolved.body.obligation.status, 'resolved');
    await drainDeliveries(t);
    assert.deepEqual(await postings(betId), [
      [`bet:${betId}`, 'debit', 10_00, 'applied', null],
      [`payout:${betId}:1`, 'credit', 21_00, 'resolved', 'obsolete_credit_requires_review'],
      [`resettle:${betId}:2:1`, 'credit', 10_00, 'cancelled', null],
      [`resettle:${betId}:2:2`, 'debit', 11_00, 'applied', null],
    ]);
    const sent = wallet.wallet.received.filter((r) => r.txId?.startsWith('resettle:')).map((r) => r.txId);
    assert.deepEqual(sent, [`resettle:${betId}:2:2`], 'the replaced correction never reached the wallet');
    assert.equal(await wallet.balanceOf(player), 100_00);
  });

  it('an accumulator lost early opens again when its losing leg is corrected, and settles with its last leg', async () => {
    const [first, second] = book.events;
    const betId = await place([
      { selectionId: first!.home, odds: '2.10' },
      { selectionId: second!.away, odds: '3.60' },
    ]);
    await settleMarket(t, book, first!.marketId, resultsOf(first!, 'draw'));
    await drainDeliveries(t);
    assert.equal((await bet(betId)).status, 'lost');
    const reopened = await settleMarket(t, book, first!.marketId, resultsOf(first!, 'home'), 'resettle');
    assert.deepEqual(reopened.body.bets, { settled: 0, resettled: 0, reopened: 1, unchanged: 0 });
    assert.deepEqual([(await bet(betId)).status, (await bet(betId)).settled_return], ['accepted', null]);
    const last = await settleMarket(t, book, second!.marketId, resultsOf(second!, 'away'));
    assert.deepEqual(last.body.owed, [{ currency: 'BRL', credits: 75_60, debits: 0, movements: 1 }]);
    await drainDeliveries(t);
    assert.deepEqual((await postings(betId)).slice(1), [
      [`payout:${betId}:1`, 'credit', 0, 'applied', null],
      [`resettle:${betId}:3:1`, 'credit', 75_60, 'applied', null],
    ]);
    assert.equal(await wallet.balanceOf(player), 90_00 + 75_60);
  });

  it('a reopened accumulator holds again the exposure it held before its first settlement, and a bet past the limit is refused', async () => {
    const [first, second] = book.events;
    // Stake 10.00 at 2.10 x 3.60 pays 75.60: liability 65.60 on each selection and event. The limit fits one.
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: {
        limits: {
          minStake: 100,
          maxStake: 1_000_00,
          maxPayout: 10_000_00,
          maxSelectionLiability: 70_00,
          maxEventLiability: 1_000_00,
        },
      },
    });
    const legs = [
      { selectionId: first!.home, odds: '2.10' },
      { selectionId: second!.away, odds: '3.60' },
    ];
    const betId = await place(legs);
    const beforeSettlement = await exposure();
    assert.deepEqual(
      beforeSettlement.map((row) => row.reserved),
      [65_60, 65_60, 65_60, 65_60],
    );
    await settleMarket(t, book, first!.marketId, resultsOf(first!, 'draw'));
    assert.deepEqual(
      (await exposure()).map((row) => row.reserved),
      [0, 0, 0, 0],
      'a lost bet gives its exposure back',
    );
    await settleMarket(t, book, first!.marketId, resultsOf(first!, 'home'), 'resettle');
    assert.equal((await bet(betId)).status, 'accepted');
    assert.deepEqual(await exposure(), beforeSettlement, 'reopened, it holds what it held when open');
    const past = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 2_00, legs: [{ selectionId: second!.away, odds: '3.60' }] },
    });
    assert.deepEqual([past.status, past.body.error.code], [409, 'exposure_limit']);
    await settleMarket(t, book, second!.marketId, resultsOf(second!, 'away'));
    assert.deepEqual(
      (await exposure()).map((row) => row.reserved),
      [0, 0, 0, 0],
      'settled again, it gives it back again, once',
    );
  });
});

describe('superseded movements', () => {
  const workspace = async (betId: string) =>
    (await t.request('GET', `/api/v1/admin/obligations?bet=${betId}`, { token: operator })).body.obligations as Array<
      Record<string, any>
    >;
  const record = async (txId: string) => (await workspace(txId.split(':')[1]!)).find((o) => o.txId === txId)!;
  /** Runs `meanwhile` once, after the wallet answered the first attempt at `txId` and before the answer is recorded. */
  const whileInFlight = (txId: string, meanwhile: () => Promise<void>) => {
    const wallets = t.app.services.wallets;
    const send = wallets.send.bind(wallets);
    wallets.send = async (target, endpoint, body, expected) => {
      const attempt = await send(target, endpoint, body, expected);
      if (expected.txId === txId) {
        wallets.send = send;
        await meanwhile();
      }
      return attempt;
    };
  };

  it('a credit the wallet confirmed while a resettlement superseded it counts, keeps the answer, and the bet owes the exact correction', async () => {
    const betId = await single();
    await settle('home');
    whileInFlight(`payout:${betId}:1`, async () => {
      const corrected = await settle('void', 'resettle');
      assert.deepEqual(corrected.body.owed, [{ currency: 'BRL', credits: 10_00, debits: 0, movements: 1 }]);
    });
    await drainDeliveries(t);
    assert.deepEqual(await postings(betId), [
      [`bet:${betId}`, 'debit', 10_00, 'applied', null],
      [`payout:${betId}:1`, 'credit', 21_00, 'applied', 'obsolete_credit_requires_review'],
      [`resettle:${betId}:2:1`, 'credit', 10_00, 'cancelled', null],
      [`resettle:${betId}:2:2`, 'debit', 11_00, 'applied', null],
    ]);
    assert.equal(await wallet.balanceOf(player), 100_00, 'stake back, as the void result says');
    const payout = await record(`payout:${betId}:1`);
    assert.deepEqual(
      [payout.attempts, payout.confirmation, payout.supersededBy, payout.actions],
      [1, { txId: `payout:${betId}:1`, balance: 111_00 }, `result:${event().marketId}:2`, []],
    );
    const held = await t.request('GET', '/api/v1/admin/obligations?state=held', { token: operator });
    assert.deepEqual(held.body.obligations, [], 'nothing waits for a person: the rules decided');
  });

  it('a superseded credit that was never sent is held showing nothing left, and is cancelled in one step naming the resettlement', async () => {
    const betId = await single();
    await settle('home');
    await settle('void', 'resettle');
    const payout = await record(`payout:${betId}:1`);
    const by = `result:${event().marketId}:2`;
    assert.deepEqual(
      [payout.status, payout.holdReason, payout.attempts, payout.calls, payout.requestSent, payout.supersededBy],
      ['held', 'obsolete_credit_requires_review', 0, [], false, by],
    );
    assert.deepEqual(payout.actions, ['resolve', 'cancel']);
    const cancelled = await t.request('POST', `/api/v1/admin/obligations/${payout.id}/cancel`, {
      token: operator,
      body: {},
    });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.deepEqual(
      [cancelled.body.obligation.status, cancelled.body.obligation.review.reason],
      ['cancelled', `never sent; superseded by ${by}`],
    );
    const audit = await t.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'obligation.cancel')
      .executeTakeFirstOrThrow();
    assert.deepEqual(audit.details, {
      txId: `payout:${betId}:1`,
      holdReason: 'obsolete_credit_requires_review',
      reason: `never sent; superseded by ${by}`,
      supersededBy: by,
      requestSent: false,
    });
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00);
    assert.equal(wallet.wallet.received.filter((r) => r.txId === `payout:${betId}:1`).length, 0);
  });

  it('a superseded credit that may have reached the wallet is cancelled only with a reason', async () => {
    const betId = await single();
    wallet.fault({ mode: 'status_503', endpoint: 'credit', times: 5 });
    await settle('home');
    await drainDeliveries(t);
    await settle('void', 'resettle');
    const payout = await record(`payout:${betId}:1`);
    assert.deepEqual([payout.requestSent, payout.attempts], [true, 5]);
    const bare = await t.request('POST', `/api/v1/admin/obligations/${payout.id}/cancel`, {
      token: operator,
      body: {},
    });
    assert.deepEqual(
      [bare.status, bare.body.error.code, bare.body.error.details],
      [400, 'validation', { field: 'reason' }],
    );
    assert.equal((await record(`payout:${betId}:1`)).status, 'held');
  });

  it('no one decides a superseded movement while its attempt is on its way: the answer decides', async () => {
    const betId = await single();
    await settle('home');
    wallet.fault({ mode: 'status_503', endpoint: 'credit' });
    let refused: { status: number; code: string } | undefined;
    whileInFlight(`payout:${betId}:1`, async () => {
      await settle('void', 'resettle');
      const payout = await record(`payout:${betId}:1`);
      assert.deepEqual([payout.inFlight, payout.actions, payout.requestSent], [true, [], true]);
      const cancel = await review('cancel', `payout:${betId}:1`, 'the wallet never applied it');
      refused = { status: cancel.status, code: cancel.body.error.code };
    });
    await drainDeliveries(t);
    assert.deepEqual(refused, { status: 409, code: 'obligation_in_flight' });
    const payout = await record(`payout:${betId}:1`);
    assert.deepEqual(
      [payout.status, payout.attempts, payout.lastOutcome, payout.inFlight, payout.actions],
      ['held', 1, 'status_5xx', false, ['resolve', 'cancel']],
      'unknown: still held, the attempt on its count',
    );
  });

  it('a superseded credit the wallet had refused is cancelled by the rules, the history saying why: nothing moved', async () => {
    const betId = await single();
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    await settle('home');
    await drainDeliveries(t);
    assert.deepEqual((await postings(betId)).at(-1), [`payout:${betId}:1`, 'credit', 21_00, 'held', 'refused']);
    const corrected = await settle('void', 'resettle');
    assert.deepEqual(corrected.body.owed, [{ currency: 'BRL', credits: 10_00, debits: 0, movements: 1 }]);
    await drainDeliveries(t);
    assert.deepEqual(await postings(betId), [
      [`bet:${betId}`, 'debit', 10_00, 'applied', null],
      [`payout:${betId}:1`, 'credit', 21_00, 'cancelled', 'refused'],
      [`resettle:${betId}:2:1`, 'credit', 10_00, 'applied', null],
    ]);
    assert.equal(await wallet.balanceOf(player), 100_00, 'void: the stake back, and no person was needed');
    const listed = await t.request('GET', `/api/v1/admin/obligations?bet=${betId}`, { token: operator });
    const payout = listed.body.obligations.find((o: { kind: string }) => o.kind === 'payout');
    assert.deepEqual(
      [payout.supersededBy, payout.actions, payout.history.at(-1).cause, payout.history.at(-1).note],
      [
        `result:${event().marketId}:2`,
        [],
        'superseded',
        `superseded by result:${event().marketId}:2; the wallet refused it and keeps that refusal under its txId: ` +
          'nothing moved',
      ],
    );
  });

  it('a superseded credit refused after an attempt that may have applied is held for review: a refusal proves nothing of it', async () => {
    const betId = await single();
    wallet.fault({ mode: 'status_503', endpoint: 'credit', apply: true });
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    await settle('home');
    await drainDeliveries(t);
    assert.deepEqual((await postings(betId)).at(-1), [`payout:${betId}:1`, 'credit', 21_00, 'held', 'refused']);
    await settle('void', 'resettle');
    assert.deepEqual(
      (await postings(betId))[1],
      [`payout:${betId}:1`, 'credit', 21_00, 'held', 'obsolete_credit_requires_review'],
      'its first answer was unknown (the wallet had in fact applied it): only a person with the casino can say',
    );
  });

  it('a superseded credit the wallet refused while in flight is cancelled by the rules: nothing moved', async () => {
    const betId = await single();
    await settle('home');
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    whileInFlight(`payout:${betId}:1`, async () => void (await settle('void', 'resettle')));
    await drainDeliveries(t);
    assert.deepEqual(await postings(betId), [
      [`bet:${betId}`, 'debit', 10_00, 'applied', null],
      [`payout:${betId}:1`, 'credit', 21_00, 'cancelled', 'obsolete_credit_requires_review'],
      [`resettle:${betId}:2:1`, 'credit', 10_00, 'applied', null],
    ]);
    assert.equal(await wallet.balanceOf(player), 100_00);
  });
});

describe('the history of an obligation', () => {
  it('every change of state or hold reason is kept, with who or what made it and why, and the workspace shows it', async () => {
    const betId = await single();
    wallet.fault({ mode: 'status_503', endpoint: 'credit', times: 4 });
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    await settle('home');
    await drainDeliveries(t);
    await review('retry', `payout:${betId}:1`, 'the casino unblocked the player');
    wallet.fault({ mode: 'status_503', endpoint: 'credit', times: 5 });
    await drainDeliveries(t);
    await settle('void', 'resettle');
    await review('cancel', `payout:${betId}:1`, 'the casino confirms it never applied it');
    const obligations = (await t.request('GET', `/api/v1/admin/obligations?bet=${betId}`, { token: operator })).body
      .obligations as Array<Record<string, any>>;
    const payout = obligations.find((o) => o.kind === 'payout')!;
    const staffId = payout.review.by;
    const history = payout.history.map(({ at, ...change }: { at: string }) => (assert.ok(Date.parse(at)), change));
    assert.deepEqual(history, [
      {
        from: 'pending',
        to: 'held',
        holdReason: 'refused',
        by: { type: 'system', id: 'delivery' },
        cause: 'refused',
        note: 'HTTP 400 refused_by_test: refused by an injected fault',
      },
      {
        from: 'held',
        to: 'pending',
        holdReason: null,
        by: { type: 'staff', id: staffId },
        cause: 'retry',
        note: 'the casino unblocked the player',
      },
      {
        from: 'pending',
        to: 'held',
        holdReason: 'obsolete_credit_requires_review',
        by: { type: 'system', id: 'settlement' },
        cause: 'superseded',
        note: `superseded by result:${event().marketId}:2; it may have reached the wallet`,
      },
      {
        from: 'held',
        to: 'cancelled',
        holdReason: 'obsolete_credit_requires_review',
        by: { type: 'staff', id: staffId },
        cause: 'cancel',
        note: 'the casino confirms it never applied it',
      },
    ]);
    const stake = obligations.find((o) => o.kind === 'bet')!;
    assert.deepEqual(
      stake.history.map((change: Record<string, unknown>) => [change.from, change.to, change.by, change.cause]),
      [['sending', 'applied', { type: 'system', id: 'placement' }, 'applied']],
    );
    assert.deepEqual(stake.confirmation, { txId: `bet:${betId}`, balance: 90_00 }, "the wallet's answer is kept");
  });
});
