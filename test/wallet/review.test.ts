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
import { createTenant } from '../helpers/tenant.ts';
import type { TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('review-player');
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

/** A winning single whose payout the wallet refuses: one held obligation. */
async function heldPayout(): Promise<{ betId: string; id: string }> {
  const placed = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
  });
  const betId = placed.body.bet.id;
  wallet.fault({ mode: 'status_503', endpoint: 'credit' });
  wallet.fault({ mode: 'refuse', endpoint: 'credit' });
  await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
  await drainDeliveries(t);
  const row = await t.db
    .selectFrom('wallet_obligations')
    .select('id')
    .where('tx_id', '=', `payout:${betId}:1`)
    .executeTakeFirstOrThrow();
  return { betId, id: row.id };
}
const list = (query: string, as = operator) => t.request('GET', `/api/v1/admin/obligations${query}`, { token: as });
const act = (id: string, action: string, body: unknown, as = operator) =>
  t.request('POST', `/api/v1/admin/obligations/${id}/${action}`, { token: as, body });

describe('the operator workspace lists money owed', () => {
  it('with each movement, its state and its attempts from the wallet call log, newest first', async () => {
    const { betId, id } = await heldPayout();
    const response = await list(`?bet=${betId}`);
    assert.equal(response.status, 200, response.text);
    type Listed = { kind: string } & Record<string, any>;
    const payout = response.body.obligations.find((o: Listed) => o.kind === 'payout');
    const stake = response.body.obligations.find((o: Listed) => o.kind === 'bet');
    assert.deepEqual(
      [stake.txId, stake.status, stake.kind, stake.endpoint],
      [`bet:${betId}`, 'applied', 'bet', 'debit'],
    );
    assert.deepEqual(
      {
        id: payout.id,
        tenantId: payout.tenantId,
        txId: payout.txId,
        externalPlayerId: payout.externalPlayerId,
        amount: payout.amount,
        currency: payout.currency,
        walletUrl: payout.walletUrl,
        status: payout.status,
        holdReason: payout.holdReason,
        attempts: payout.attempts,
        operatorCode: payout.operatorCode,
        nextAttemptAt: payout.nextAttemptAt,
        actions: payout.actions,
      },
      {
        id,
        tenantId: book.tenant.tenantId,
        txId: `payout:${betId}:1`,
        externalPlayerId: player,
        amount: 21_00,
        currency: 'BRL',
        walletUrl: wallet.url,
        status: 'held',
        holdReason: 'refused',
        attempts: 2,
        operatorCode: 'refused_by_test',
        nextAttemptAt: null,
        actions: ['retry', 'resolve', 'cancel'],
      },
    );
    assert.deepEqual(
      payout.calls.map((call: { outcome: string; httpStatus: number; reason: string | null }) => [
        call.outcome,
        call.httpStatus,
        call.reason,
      ]),
      [
        ['refused', 400, null],
        ['unknown', 503, 'status_5xx'],
      ],
    );
    const row = await t.db
      .selectFrom('wallet_obligations')
      .select('body')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.equal(payout.body, row.body, 'the exact bytes sent on every attempt');
    assert.equal(wallet.wallet.received.filter((request) => request.txId === payout.txId).length, 2);
  });

  it('filters by state, player and bet, and pages with a cursor', async () => {
    const { betId } = await heldPayout();
    assert.deepEqual(
      (await list('?state=held')).body.obligations.map((o: { txId: string }) => o.txId),
      [`payout:${betId}:1`],
    );
    const player = (await t.db.selectFrom('bets').select('player_id').executeTakeFirstOrThrow()).player_id;
    assert.equal((await list(`?player=${player}`)).body.obligations.length, 2);
    assert.equal((await list('?player=pl_nobody')).body.obligations.length, 0);
    const first = await list('?limit=1');
    assert.equal(first.body.obligations.length, 1);
    const second = await list(`?limit=1&cursor=${first.body.nextCursor}`);
    assert.equal(second.body.obligations.length, 1);
    assert.notEqual(second.body.obligations[0].id, first.body.obligations[0].id);
    assert.equal(second.body.nextCursor, '');
  });

  it('order=oldest lists the oldest movement first, paging on in that order', async () => {
    await heldPayout();
    const newest = (await list('')).body.obligations.map((o: { id: string }) => o.id);
    const oldestFirst = await list('?order=oldest&limit=1');
    const then = await list(`?order=oldest&limit=1&cursor=${oldestFirst.body.nextCursor}`);
    assert.deepEqual(
      [...oldestFirst.body.obligations, ...then.body.obligations].map((o: { id: string }) => o.id),
      [...newest].reverse(),
    );
    assert.equal((await list('?order=sideways')).status, 400);
  });

  it('refuses what it cannot read: limits out of range, an unknown state or parameter, a forged cursor', async () => {
    for (const query of ['?limit=0', '?limit=101', '?state=failed', '?status=held', '?cursor=bm90LWEtY3Vyc29y']) {
      const response = await list(query);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
  });

  it('shows an operator their own tenant only; a platform administrator any, or the one named', async () => {
    await heldPayout();
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const outsider = (await loginAsStaff(t, 'operator', { tenantId: other.tenantId })).token;
    assert.deepEqual((await list('', outsider)).body.obligations, []);
    const forbidden = await list(`?tenantId=${book.tenant.tenantId}`, outsider);
    assert.deepEqual([forbidden.status, forbidden.body.error.code], [403, 'forbidden']);
    assert.equal((await list('', book.admin)).body.obligations.length, 2);
    assert.equal((await list(`?tenantId=${other.tenantId}`, book.admin)).body.obligations.length, 0);
    const trader = await list('', book.trader);
    assert.deepEqual([trader.status, trader.body.error.code], [403, 'forbidden']);
  });
});

describe('decisions on a held movement', () => {
  it('resolve: counts as applied, with who and why, audited', async () => {
    const { id } = await heldPayout();
    const response = await act(id, 'resolve', { reason: 'paid by the casino by hand' });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      [response.body.obligation.status, response.body.obligation.review.reason, response.body.obligation.actions],
      ['resolved', 'paid by the casino by hand', []],
    );
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'obligation.resolve')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [audit.target_id, (audit.details as { reason: string }).reason],
      [id, 'paid by the casino by hand'],
    );
  });

  it('retry: sent again with the same txId to the same wallet', async () => {
    const { id, betId } = await heldPayout();
    const response = await act(id, 'retry', {});
    assert.deepEqual([response.status, response.body.obligation.status], [200, 'pending']);
    await drainDeliveries(t);
    const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual([row.tx_id, row.status, row.attempts], [`payout:${betId}:1`, 'applied', 3]);
  });

  it('retry at most once every 10 s per movement: sooner is 429 sent_again_too_soon with Retry-After', async () => {
    const { id } = await heldPayout();
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    assert.equal((await act(id, 'retry', { reason: 'the casino unblocked the player' })).status, 200);
    await drainDeliveries(t);
    const tooSoon = await act(id, 'retry', { reason: 'once more' });
    assert.deepEqual(
      [tooSoon.status, tooSoon.body.error.code, tooSoon.body.error.details, tooSoon.headers.get('retry-after')],
      [429, 'sent_again_too_soon', { retryAfterSeconds: 10 }, '10'],
    );
    t.clock.advance(10_000);
    assert.equal((await act(id, 'retry', { reason: 'once more' })).status, 200);
  });

  it('retry is refused while the tenant points at another wallet: a movement never goes elsewhere', async () => {
    const { id, betId } = await heldPayout();
    await t.db.updateTable('tenants').set({ wallet_url: 'http://127.0.0.1:9' }).execute();
    const listed = await list(`?bet=${betId}&state=held`);
    assert.deepEqual(
      listed.body.obligations.map((o: { actions: string[] }) => o.actions),
      [['resolve', 'cancel']],
      'retry is not offered',
    );
    const response = await act(id, 'retry', { reason: 'try again' });
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details],
      [409, 'retry_not_allowed', { reason: 'destination_changed', walletUrl: wallet.url }],
    );
  });

  it('needs a held movement, a reason (resolve, cancel) within bounds, and a visible tenant', async () => {
    const { id, betId } = await heldPayout();
    const stake = (
      await t.db
        .selectFrom('wallet_obligations')
        .select('id')
        .where('tx_id', '=', `bet:${betId}`)
        .executeTakeFirstOrThrow()
    ).id;
    const notHeld = await act(stake, 'cancel', { reason: 'not owed' });
    assert.deepEqual(
      [notHeld.status, notHeld.body.error.code, notHeld.body.error.details],
      [409, 'obligation_not_held', { status: 'applied' }],
    );
    for (const body of [
      {},
      { reason: '' },
      { reason: 'x'.repeat(501) },
      { reason: 'ok\u0000' },
      { reason: 'fine', x: 1 },
    ]) {
      const response = await act(id, 'cancel', body);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], JSON.stringify(body));
    }
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const outsider = (await loginAsStaff(t, 'operator', { tenantId: other.tenantId })).token;
    const hidden = await act(id, 'cancel', { reason: 'not mine' }, outsider);
    assert.deepEqual([hidden.status, hidden.body.error.code], [404, 'not_found']);
    const unknown = await act('ob_nope', 'cancel', { reason: 'nothing' });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
    const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'held', 'nothing changed');
  });
});

describe('the workspace badges', () => {
  const counts = (query: string, as = operator) =>
    t.request('GET', `/api/v1/admin/obligations/counts${query}`, { token: as });
  const states = { sending: 0, pending: 0, applied: 0, refused: 0, unknown: 0, held: 0, resolved: 0, cancelled: 0 };
  const reasons = {
    refused: 0,
    refused_address: 0,
    destination_changed: 0,
    obsolete_credit_requires_review: 0,
    obsolete_debit_requires_review: 0,
    correction_insufficient_funds: 0,
  };

  it('count obligations per state and held ones per reason, every one listed, as the list has them', async () => {
    const empty = await counts('');
    assert.deepEqual(empty.body, { tenantId: book.tenant.tenantId, states, held: reasons });
    await heldPayout();
    const response = await counts('');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      tenantId: book.tenant.tenantId,
      states: { ...states, applied: 1, held: 1 },
      held: { ...reasons, refused: 1 },
    });
    assert.equal((await list('?state=held')).body.obligations.length, response.body.states.held);
    assert.equal((await list('?state=applied')).body.obligations.length, response.body.states.applied);
  });

  it("count an operator's own tenant only; a platform administrator's every tenant, or the one named", async () => {
    await heldPayout();
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const outsider = (await loginAsStaff(t, 'operator', { tenantId: other.tenantId })).token;
    assert.deepEqual((await counts('', outsider)).body, { tenantId: other.tenantId, states, held: reasons });
    assert.deepEqual((await counts(`?tenantId=${other.tenantId}`, outsider)).body.tenantId, other.tenantId);
    const forbidden = await counts(`?tenantId=${book.tenant.tenantId}`, outsider);
    assert.deepEqual([forbidden.status, forbidden.body.error.code], [403, 'forbidden']);
    const all = await counts('', book.admin);
    assert.deepEqual(all.body, {
      tenantId: null,
      states: { ...states, applied: 1, held: 1 },
      held: { ...reasons, refused: 1 },
    });
    assert.deepEqual((await counts(`?tenantId=${other.tenantId}`, book.admin)).body.states, states);
    const trader = await counts('', book.trader);
    assert.deepEqual([trader.status, trader.body.error.code], [403, 'forbidden']);
  });

  it('a tenant that does not exist is not found, not a row of zeros: for the counts, the list and the adjustments', async () => {
    for (const path of [
      '/api/v1/admin/obligations/counts?tenantId=tn_nobody',
      '/api/v1/admin/obligations?tenantId=tn_nobody',
      '/api/v1/admin/adjustments?tenantId=tn_nobody',
    ]) {
      const response = await t.request('GET', path, { token: book.admin });
      assert.deepEqual(
        [response.status, response.body.error.code, response.body.error.message],
        [404, 'not_found', 'Tenant not found.'],
        path,
      );
    }
  });

  it('refuses what it cannot read', async () => {
    for (const query of ['?state=held', '?tenantId=', '?tenantId=tn%00x', `?tenantId=${'t'.repeat(65)}`]) {
      const response = await counts(query, book.admin);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
  });
});
