import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { newIdempotencyKey } from '../helpers/aggregator.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { playerWithBalance, setUpSportsbook, type Sportsbook } from '../helpers/sportsbook.ts';
import { createTenant } from '../helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let operator: string;
let externalId: string;
let playerId: string;
let n = 0;
before(async () => {
  t = await startTestApp();
  wallet = await startTestWallet(t.clock);
});
after(async () => {
  await t.close();
  await wallet.close();
});
beforeEach(async () => {
  await t.reset();
  book = await setUpSportsbook(t, wallet);
  n += 1;
  externalId = `adjusted-${n}`;
  await playerWithBalance(t, book, wallet, externalId, 50_00);
  playerId = (await t.db.selectFrom('players').select('id').executeTakeFirstOrThrow()).id;
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
});

const adjust = (body: Record<string, unknown>, options: { key?: string; as?: string } = {}) =>
  t.request('POST', '/api/v1/admin/adjustments', {
    token: options.as ?? operator,
    headers: { 'idempotency-key': options.key ?? newIdempotencyKey() },
    body: { playerId, ...body },
  });
const movement = (txId: string) =>
  t.db.selectFrom('wallet_obligations').selectAll().where('tx_id', '=', txId).executeTakeFirstOrThrow();

describe('adjustments', () => {
  it('a credit: adjustment:<id> is owed and delivered, with its reason, audited', async () => {
    const response = await adjust({ direction: 'credit', amount: 7_50, reason: 'goodwill for a delayed payout' });
    assert.equal(response.status, 201, response.text);
    const { adjustment } = response.body;
    assert.deepEqual(
      {
        ...adjustment,
        id: undefined,
        createdBy: undefined,
        createdAt: undefined,
      },
      {
        id: undefined,
        tenantId: book.tenant.tenantId,
        playerId,
        direction: 'credit',
        amount: 7_50,
        currency: 'BRL',
        reason: 'goodwill for a delayed payout',
        createdBy: undefined,
        createdAt: undefined,
        movement: { txId: `adjustment:${adjustment.id}`, status: 'pending' },
      },
    );
    await drainDeliveries(t);
    const row = await movement(`adjustment:${adjustment.id}`);
    assert.deepEqual([row.endpoint, row.kind, row.status, row.bet_id], ['credit', 'adjustment', 'applied', null]);
    assert.equal(await wallet.balanceOf(externalId), 57_50);
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'adjustment.create')
      .executeTakeFirstOrThrow();
    assert.equal((audit.details as { reason: string }).reason, 'goodwill for a delayed payout');
  });

  it("the first adjustment locks the tenant's wallet identity, as a first stake does", async () => {
    const tenantRow = () =>
      t.db.selectFrom('tenants').select('first_financial_at').where('id', '=', book.tenant.tenantId);
    assert.equal((await tenantRow().executeTakeFirstOrThrow()).first_financial_at, null, 'no money has moved yet');
    const response = await adjust({ direction: 'credit', amount: 1_00, reason: 'welcome credit' });
    assert.equal(response.status, 201, response.text);
    const change = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: { walletUrl: 'https://elsewhere.example' },
    });
    assert.deepEqual([change.status, change.body.error.code], [409, 'wallet_identity_locked']);
  });

  it('a debit takes the full amount', async () => {
    const response = await adjust({ direction: 'debit', amount: 20_00, reason: 'duplicate bonus reversed' });
    await drainDeliveries(t);
    assert.equal((await movement(`adjustment:${response.body.adjustment.id}`)).status, 'applied');
    assert.equal(await wallet.balanceOf(externalId), 30_00);
  });

  it('a debit above the balance is refused whole, kept as held for review, and moves nothing', async () => {
    const response = await adjust({ direction: 'debit', amount: 60_00, reason: 'chargeback' });
    await drainDeliveries(t);
    const row = await movement(`adjustment:${response.body.adjustment.id}`);
    assert.deepEqual(
      [row.status, row.hold_reason, row.operator_code],
      ['held', 'correction_insufficient_funds', 'insufficient_funds'],
    );
    assert.equal(await wallet.balanceOf(externalId), 50_00);
  });

  it('the same Idempotency-Key and body make one adjustment; with another body the key is refused', async () => {
    const key = newIdempotencyKey();
    const body = { direction: 'credit', amount: 1_00, reason: 'double click' };
    const first = await adjust(body, { key });
    const again = await adjust(body, { key });
    assert.deepEqual([first.status, again.status, again.headers.get('idempotency-replayed')], [201, 200, 'true']);
    assert.equal(again.body.adjustment.id, first.body.adjustment.id);
    const other = await adjust({ ...body, amount: 2_00 }, { key });
    assert.deepEqual([other.status, other.body.error.code], [409, 'idempotency_mismatch']);
    assert.equal((await t.db.selectFrom('adjustments').select('id').execute()).length, 1);
  });

  it('refuses bodies outside the schema, and a request without Idempotency-Key', async () => {
    const valid = { direction: 'credit', amount: 1_00, reason: 'fine reason' };
    for (const body of [
      { ...valid, amount: 0 },
      { ...valid, amount: -1 },
      { ...valid, amount: 1_000_000_000_001 },
      { ...valid, amount: 1.5 },
      { ...valid, direction: 'sideways' },
      { ...valid, reason: undefined },
      { ...valid, reason: 'no' },
      { ...valid, reason: 'x'.repeat(501) },
      { ...valid, note: 'extra' },
    ]) {
      const response = await adjust(body);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], JSON.stringify(body));
    }
    const keyless = await t.request('POST', '/api/v1/admin/adjustments', {
      token: operator,
      body: { playerId, ...valid },
    });
    assert.deepEqual([keyless.status, keyless.body.error.details.field], [400, 'idempotency-key']);
    assert.equal((await t.db.selectFrom('adjustments').select('id').execute()).length, 0);
  });

  it("another tenant's player is unknown to an operator; a platform administrator may adjust any", async () => {
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const outsider = (await loginAsStaff(t, 'operator', { tenantId: other.tenantId })).token;
    const hidden = await adjust({ direction: 'credit', amount: 1_00, reason: 'not mine' }, { as: outsider });
    assert.deepEqual([hidden.status, hidden.body.error.code], [404, 'not_found']);
    const byAdmin = await adjust({ direction: 'credit', amount: 1_00, reason: 'platform fix' }, { as: book.admin });
    assert.equal(byAdmin.status, 201, byAdmin.text);
    const trader = await adjust({ direction: 'credit', amount: 1_00, reason: 'no' }, { as: book.trader });
    assert.equal(trader.status, 403);
  });
});
