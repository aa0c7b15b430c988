import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { HttpResponse, TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  freshSportsbookPerTest,
  newRequestId,
  resultsOf,
  settleMarket,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import { createTenant, type TestTenant } from '../helpers/tenant.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * Money owed as the casino sees it with its integration key (GET /api/v1/integration/obligations, the transaction
 * look-up, the redelivery): a real server, a real database and the reference wallet.
 */
const fresh = freshSportsbookPerTest('casino-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => {
  ({ t, wallet, book, token, player } = fresh);
});

const casino = (method: string, path: string, body?: unknown, tenant: TestTenant = book.tenant) =>
  t.request(method, `/api/v1/integration${path}`, {
    headers: { 'x-tenant-id': tenant.tenantId, 'x-api-key': tenant.apiKey },
    ...(body === undefined ? {} : { body }),
  });
const list = (query = '', tenant?: TestTenant) => casino('GET', `/obligations${query}`, undefined, tenant);
const redeliver = (id: string, body: unknown = {}, tenant?: TestTenant) =>
  casino('POST', `/obligations/${id}/redeliver`, body, tenant);
const txIds = (response: HttpResponse) => response.body.obligations.map((o: { txId: string }) => o.txId);

async function placeBet(event = 0, stake = 10_00): Promise<string> {
  const placed = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake, legs: [{ selectionId: book.events[event]!.home, odds: '2.10' }] },
  });
  assert.equal(placed.status, 201, placed.text);
  return placed.body.bet.id;
}

/** A winning single whose payout the wallet answers with a 503, then refuses: failed (held, refused). */
async function failedPayout(event = 0): Promise<{ betId: string; id: string; txId: string }> {
  const betId = await placeBet(event);
  wallet.fault({ mode: 'status_503', endpoint: 'credit' });
  wallet.fault({ mode: 'refuse', endpoint: 'credit' });
  await settleMarket(t, book, book.events[event]!.marketId, resultsOf(book.events[event]!, 'home'));
  await drainDeliveries(t);
  const txId = `payout:${betId}:1`;
  const row = await t.db
    .selectFrom('wallet_obligations')
    .selectAll()
    .where('tx_id', '=', txId)
    .executeTakeFirstOrThrow();
  return { betId, id: row.id, txId };
}

/** A winning single whose payout the wallet keeps answering 503: pending, its next attempt 30 s away. */
async function pendingPayout(): Promise<{ betId: string; id: string; txId: string }> {
  const betId = await placeBet();
  wallet.fault({ mode: 'status_503', endpoint: 'credit', times: 5 });
  await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
  await drainDeliveries(t);
  const txId = `payout:${betId}:1`;
  const row = await t.db
    .selectFrom('wallet_obligations')
    .selectAll()
    .where('tx_id', '=', txId)
    .executeTakeFirstOrThrow();
  assert.deepEqual([row.status, row.attempts], ['pending', 5]);
  assert.ok(row.next_attempt_at > t.clock.now());
  return { betId, id: row.id, txId };
}

describe('the casino lists the money owed in its environment', () => {
  it('each movement with its state, every attempt, and exactly what was sent and where', async () => {
    const { betId, id, txId } = await failedPayout();
    const response = await list(`?bet=${betId}`);
    assert.equal(response.status, 200, response.text);
    type Listed = { kind: string } & Record<string, any>;
    const payout = response.body.obligations.find((o: Listed) => o.kind === 'payout');
    const stake = response.body.obligations.find((o: Listed) => o.kind === 'bet');
    assert.deepEqual([stake.txId, stake.state, stake.status], [`bet:${betId}`, 'delivered', 'applied']);
    const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual(
      {
        id: payout.id,
        txId: payout.txId,
        betId: payout.betId,
        playerId: payout.playerId,
        kind: payout.kind,
        amount: payout.amount,
        currency: payout.currency,
        state: payout.state,
        status: payout.status,
        holdReason: payout.holdReason,
        attemptCount: payout.attemptCount,
        operatorCode: payout.operatorCode,
        request: payout.request,
        redeliverable: payout.redeliverable,
      },
      {
        id,
        txId,
        betId,
        playerId: player,
        kind: 'payout',
        amount: 21_00,
        currency: 'BRL',
        state: 'failed',
        status: 'held',
        holdReason: 'refused',
        attemptCount: 2,
        operatorCode: 'refused_by_test',
        request: { method: 'POST', url: `${wallet.url}/credit`, body: row.body },
        redeliverable: true,
      },
    );
    assert.deepEqual(JSON.parse(payout.request.body), {
      txId,
      playerId: player,
      amount: 21_00,
      currency: 'BRL',
      kind: 'payout',
      betId,
      ref: JSON.parse(row.body).ref,
    });
    assert.deepEqual(
      payout.attempts.map((a: Record<string, unknown>) => [a.outcome, a.httpStatus, a.code, a.reason]),
      [
        ['refused', 400, 'refused_by_test', null],
        ['unknown', 503, null, 'status_5xx'],
      ],
    );
    for (const attempt of payout.attempts) {
      assert.ok(Number.isInteger(attempt.latencyMs) && attempt.latencyMs >= 0);
      assert.ok(!Number.isNaN(Date.parse(attempt.at)));
    }
    assert.deepEqual(
      payout.history.map((h: Record<string, unknown>) => [h.from, h.to, h.by, h.cause]),
      [['pending', 'held', 'system', 'refused']],
    );
    assert.ok(!response.text.includes(book.tenant.walletSecret) && !response.text.includes(book.tenant.apiKey));
    assert.ok(!t.logs.text.includes(book.tenant.apiKey), 'the integration key is never logged');
  });

  it('filters by state, by the casino’s own player id, by bet and by time owed, and pages with a cursor', async () => {
    const failed = await failedPayout(0);
    t.clock.set(new Date(t.clock.now().getTime() + 60_000).toISOString());
    const middle = t.clock.now().toISOString();
    const second = await placeBet(1);
    assert.deepEqual(txIds(await list('?state=failed')), [failed.txId]);
    assert.deepEqual(txIds(await list('?state=delivered')), [`bet:${second}`, `bet:${failed.betId}`]);
    assert.deepEqual(txIds(await list('?state=pending')), []);
    assert.deepEqual(txIds(await list('?state=held')), []);
    assert.equal((await list(`?player=${player}`)).body.obligations.length, 3);
    assert.deepEqual((await list('?player=somebody-else')).body.obligations, []);
    assert.deepEqual(txIds(await list(`?bet=${second}`)), [`bet:${second}`]);
    assert.deepEqual(txIds(await list(`?from=${middle}`)), [`bet:${second}`]);
    assert.deepEqual(txIds(await list(`?to=${middle}`)).sort(), [`bet:${failed.betId}`, failed.txId]);
    const pages: string[] = [];
    let cursor = '';
    do {
      const page = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200, page.text);
      assert.ok(page.body.obligations.length <= 1);
      pages.push(...txIds(page));
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(pages, txIds(await list()));
    assert.equal(pages.length, 3);
  });

  it('refuses what it cannot read: bounds, unknown states and parameters, forged cursors, impossible times', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=99999999999999999999',
      '?state=applied',
      '?status=held',
      '?tenantId=x',
      '?cursor=bm90LWEtY3Vyc29y',
      '?from=yesterday',
      '?to=2026-03-01T23:59:60Z',
      '?from=0000-01-01T00:00:00Z',
      `?player=${'p'.repeat(129)}`,
      '?player=a%00b',
      '?bet=a%00',
    ]) {
      const response = await list(query);
      assert.deepEqual([response.status, response.body?.error?.code], [400, 'validation'], query);
    }
  });

  it('needs the integration key of the environment', async () => {
    const missing = await t.request('GET', '/api/v1/integration/obligations', {
      headers: { 'x-tenant-id': book.tenant.tenantId },
    });
    assert.deepEqual([missing.status, missing.body.error.code], [401, 'unauthorized']);
    const wrong = await t.request('GET', '/api/v1/integration/obligations', {
      headers: { 'x-tenant-id': book.tenant.tenantId, 'x-api-key': 'bm_int_wrong' },
    });
    assert.deepEqual([wrong.status, wrong.body.error.code], [401, 'unauthorized']);
  });

  it("never shows another tenant's movements: empty list, and 404 for its look-up and its redelivery", async () => {
    const { id, txId } = await failedPayout();
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    assert.deepEqual((await list('', other)).body.obligations, []);
    assert.deepEqual((await list(`?player=${player}`, other)).body.obligations, []);
    const lookUp = await casino('GET', `/transactions/${encodeURIComponent(txId)}`, undefined, other);
    assert.deepEqual([lookUp.status, lookUp.body.error.code], [404, 'not_found']);
    const asked = await redeliver(id, {}, other);
    assert.deepEqual([asked.status, asked.body.error.code], [404, 'not_found']);
    const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(row.status, 'held', 'nothing changed');
  });
});

describe('the transaction look-up', () => {
  it('by txId: what was sent, where, when, and every answer', async () => {
    const { txId, id } = await failedPayout();
    const response = await casino('GET', `/transactions/${encodeURIComponent(txId)}`);
    assert.equal(response.status, 200, response.text);
    const listed = (await list()).body.obligations.find((o: { id: string }) => o.id === id);
    assert.deepEqual(response.body.transaction, listed);
    assert.equal(response.body.transaction.attempts.length, 2);
    assert.ok(!Number.isNaN(Date.parse(response.body.transaction.createdAt)));
    const unknown = await casino('GET', '/transactions/balance:00000000-0000-0000-0000-000000000000');
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
  });
});

describe('redelivery', () => {
  it('of a failed movement: the same txId, body and wallet; money moves once even when asked concurrently', async () => {
    const { id, txId, betId } = await failedPayout();
    const before = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const balanceBefore = (await wallet.balanceOf(player))!;
    const count = await t.db
      .selectFrom('wallet_obligations')
      .select(t.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    wallet.wallet.received.length = 0;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        i % 2 === 0 ? redeliver(id, { reason: 'player unblocked' }) : redeliver(id),
      ),
    );
    for (const answer of answers) assert.equal(answer.status, 202, answer.text);
    assert.deepEqual(answers.map((a) => a.body.redelivery).sort(), [
      'already_due',
      'already_due',
      'already_due',
      'already_due',
      'already_due',
      'already_due',
      'already_due',
      'scheduled',
    ]);
    await Promise.all([drainDeliveries(t), ...Array.from({ length: 3 }, () => redeliver(id))]);
    await drainDeliveries(t);
    const after = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      [after.tx_id, after.body, after.wallet_url, after.status],
      [before.tx_id, before.body, before.wallet_url, 'applied'],
    );
    assert.equal(await wallet.balanceOf(player), balanceBefore + 21_00, 'paid once');
    const journal = (await wallet.wallet.store.transactions()).filter((row) => row.tx_id === txId);
    assert.equal(journal.length, 1);
    assert.ok(wallet.wallet.received.every((request) => request.txId === txId && request.endpoint === 'credit'));
    const countAfter = await t.db
      .selectFrom('wallet_obligations')
      .select(t.db.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    assert.equal(Number(countAfter.n), Number(count.n), 'no new movement');
    const listed = (await list(`?bet=${betId}&state=delivered`)).body.obligations;
    assert.deepEqual(txIds({ body: { obligations: listed } } as HttpResponse).sort(), [`bet:${betId}`, txId]);
  });

  it('is audited, with who asked, from where, and what it did', async () => {
    const { id, txId } = await failedPayout();
    await redeliver(id, { reason: 'player unblocked' });
    await redeliver(id);
    const rows = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'obligation.redeliver')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((row) => {
        const details = row.details;
        return [row.actor_type, row.actor_id, row.target_id, details.txId, details.effect, details.reason];
      }),
      [
        ['tenant', book.tenant.tenantId, id, txId, 'scheduled', 'player unblocked'],
        ['tenant', book.tenant.tenantId, id, txId, 'already_due', null],
      ],
    );
    assert.ok(rows.every((row) => row.ip !== null));
    const history = await t.db
      .selectFrom('wallet_obligation_history')
      .selectAll()
      .where('obligation_id', '=', id)
      .where('cause', '=', 'redelivery')
      .execute();
    assert.deepEqual(
      history.map((h) => [h.from_status, h.to_status, h.actor_type, h.actor_id]),
      [['held', 'pending', 'system', 'integration']],
    );
  });

  it('of a pending movement: due now instead of in 30 s, with no new movement', async () => {
    const { id, txId } = await pendingPayout();
    const balanceBefore = (await wallet.balanceOf(player))!;
    const asked = await redeliver(id);
    assert.deepEqual([asked.status, asked.body.redelivery], [202, 'scheduled']);
    assert.equal(asked.body.obligation.nextAttemptAt, t.clock.now().toISOString());
    const again = await redeliver(id);
    assert.deepEqual([again.status, again.body.redelivery], [202, 'already_due']);
    await t.app.services.delivery.idle();
    const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual([row.tx_id, row.status, row.attempts], [txId, 'applied', 6]);
    assert.equal(await wallet.balanceOf(player), balanceBefore + 21_00);
  });

  it('one attempt at a time: refused while an attempt is on its way (409), its answer decides', async () => {
    const { id } = await pendingPayout();
    t.clock.advance(30_000);
    wallet.setLatency(500);
    const attempt = t.app.services.delivery.runOnce();
    try {
      while (wallet.wallet.stats.inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      const asked = await redeliver(id);
      assert.deepEqual([asked.status, asked.body.error.code], [409, 'obligation_in_flight'], asked.text);
      assert.ok(Date.parse(asked.body.error.details.claimedUntil) > t.clock.now().getTime());
    } finally {
      await attempt;
      wallet.setLatency(0);
    }
    const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.attempts], ['applied', 6], 'the attempt on its way decided');
  });

  it('at most once every 10 s per movement: sooner is 429 sent_again_too_soon with Retry-After', async () => {
    const { id } = await failedPayout();
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    assert.equal((await redeliver(id)).body.redelivery, 'scheduled');
    await drainDeliveries(t);
    t.clock.advance(4_000);
    const tooSoon = await redeliver(id);
    assert.deepEqual(
      [tooSoon.status, tooSoon.body.error.code, tooSoon.body.error.details, tooSoon.headers.get('retry-after')],
      [429, 'sent_again_too_soon', { retryAfterSeconds: 6 }, '6'],
    );
    t.clock.advance(6_000);
    const asked = await redeliver(id);
    assert.deepEqual([asked.status, asked.body.redelivery], [202, 'scheduled']);
  });

  it('of a delivered movement is refused, and changes nothing', async () => {
    const { betId } = await failedPayout();
    const stake = (await list(`?bet=${betId}&state=delivered`)).body.obligations[0];
    assert.equal(stake.redeliverable, false);
    const refused = await redeliver(stake.id);
    assert.deepEqual(
      [refused.status, refused.body.error.code, refused.body.error.details],
      [409, 'redelivery_not_allowed', { state: 'delivered', status: 'applied', reason: 'delivered' }],
    );
    const audits = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'obligation.redeliver')
      .execute();
    assert.deepEqual(audits, [], 'a refusal changes nothing');
  });

  it('follows the retry rule: never to a wallet URL other than the recorded one', async () => {
    const { id } = await failedPayout();
    await t.db.updateTable('tenants').set({ wallet_url: 'http://127.0.0.1:9' }).execute();
    const listed = (await list('?state=failed')).body.obligations[0];
    assert.equal(listed.redeliverable, false);
    const refused = await redeliver(id);
    assert.deepEqual(
      [refused.status, refused.body.error.code, refused.body.error.details],
      [
        409,
        'redelivery_not_allowed',
        { state: 'failed', status: 'held', reason: 'destination_changed', walletUrl: wallet.url },
      ],
    );
  });

  it('refuses bodies it does not read and unknown movements', async () => {
    const { id } = await failedPayout();
    for (const body of [{ reason: 'x'.repeat(501) }, { reason: 'ok\u0000' }, { reason: 'fine', x: 1 }, []]) {
      const response = await redeliver(id, body);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], JSON.stringify(body));
    }
    const unknown = await redeliver('ob_nope');
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
  });
});
