import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { newIdempotencyKey } from '../helpers/aggregator.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { type Sportsbook, freshSportsbookPerTest } from '../helpers/sportsbook.ts';
import { createTenant } from '../helpers/tenant.ts';
import { type TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('adjusted', 50_00);
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let operator: string;
let operatorEmail: string;
let externalId: string;
let playerId: string;
beforeEach(async () => {
  ({ t, wallet, book, player: externalId } = fresh);
  playerId = (await t.db.selectFrom('players').select('id').executeTakeFirstOrThrow()).id;
  ({ token: operator, email: operatorEmail } = await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId }));
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
        externalPlayerId: externalId,
        direction: 'credit',
        amount: 7_50,
        currency: 'BRL',
        reason: 'goodwill for a delayed payout',
        madeBy: 'staff',
        createdBy: undefined,
        createdByEmail: operatorEmail,
        createdAt: undefined,
        status: 'approved',
        decision: null,
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

  it("an Idempotency-Key is its staff member's own: another operator's same key and body make another adjustment", async () => {
    const colleague = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
    const body = { direction: 'credit', amount: 2_00, reason: 'goodwill, same wording' };
    const key = newIdempotencyKey();
    const first = await adjust(body, { key });
    const second = await adjust(body, { key, as: colleague });
    assert.deepEqual([first.status, second.status], [201, 201], second.text);
    assert.equal(second.headers.get('idempotency-replayed'), null, 'not a replay of the first operator');
    assert.notEqual(second.body.adjustment.id, first.body.adjustment.id);
    const again = await adjust(body, { key, as: colleague });
    assert.deepEqual(
      [again.status, again.headers.get('idempotency-replayed'), again.body.adjustment.id],
      [200, 'true', second.body.adjustment.id],
      "the colleague's own retry replays the colleague's adjustment",
    );
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(externalId), 54_00, 'two adjustments, each once');
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

  it("names its player by the casino's id as well as ours: an operator's in its own tenant, platform staff's in the one named", async () => {
    const valid = { direction: 'credit', amount: 1_00, reason: 'by the casino id', playerId: undefined };
    const byExternal = await adjust({ ...valid, externalPlayerId: externalId });
    assert.equal(byExternal.status, 201, byExternal.text);
    assert.deepEqual(
      [byExternal.body.adjustment.playerId, byExternal.body.adjustment.externalPlayerId],
      [playerId, externalId],
    );
    const unknown = await adjust({ ...valid, externalPlayerId: 'nobody-here' });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
    const both = await adjust({ ...valid, playerId, externalPlayerId: externalId });
    assert.deepEqual([both.status, both.body.error.details.field], [400, 'externalPlayerId']);
    const neither = await adjust(valid);
    assert.deepEqual([neither.status, neither.body.error.details.field], [400, 'playerId']);
    // the bounds: a casino id of 1 to 128 characters, a tenant id of 1 to 64
    for (const [body, field] of [
      [{ ...valid, externalPlayerId: 'x'.repeat(129) }, 'externalPlayerId'],
      [{ ...valid, externalPlayerId: '' }, 'externalPlayerId'],
      [{ ...valid, externalPlayerId: externalId, tenantId: 't'.repeat(65) }, 'tenantId'],
    ] as const) {
      const refused = await adjust(body);
      assert.deepEqual([refused.status, refused.body.error.details.field], [400, field], JSON.stringify(body));
    }
    const longest = await adjust({ ...valid, externalPlayerId: 'x'.repeat(128) });
    assert.deepEqual([longest.status, longest.body.error.code], [404, 'not_found'], 'the longest id is looked up');
    // a platform administrator names the tenant; an operator naming another tenant finds no such player
    const adminWithout = await adjust({ ...valid, externalPlayerId: externalId }, { as: book.admin });
    assert.deepEqual([adminWithout.status, adminWithout.body.error.details.field], [400, 'tenantId']);
    const adminWith = await adjust(
      { ...valid, externalPlayerId: externalId, tenantId: book.tenant.tenantId },
      { as: book.admin },
    );
    assert.equal(adminWith.status, 201, adminWith.text);
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const elsewhere = await adjust({ ...valid, externalPlayerId: externalId, tenantId: other.tenantId });
    assert.deepEqual([elsewhere.status, elsewhere.body.error.code], [404, 'not_found']);
    // the list shows both ids
    const list = await t.request('GET', '/api/v1/admin/adjustments', { token: operator });
    assert.ok(list.body.adjustments.every((one: { externalPlayerId: string }) => one.externalPlayerId === externalId));
  });
});

describe('adjustment bounds and four eyes', () => {
  const setPolicy = (adjustments: { maxAmount: number; approvalAbove: number }, as = book.admin) =>
    t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, { token: as, body: { adjustments } });
  const decide = (id: string, action: 'approve' | 'reject', as: string, body: Record<string, unknown> = {}) =>
    t.request('POST', `/api/v1/admin/adjustments/${id}/${action}`, { token: as, body });
  const obligations = () =>
    t.db.selectFrom('wallet_obligations').select('tx_id').where('kind', '=', 'adjustment').execute();
  const audits = (action: string) =>
    t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

  it("every tenant starts with a maximum of 10,000.00 and approval above 1,000.00; the review's 1,000,000,000,000 is refused", async () => {
    const tenant = await t.request('GET', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
    });
    assert.deepEqual(tenant.body.tenant.adjustments, { maxAmount: 10_000_00, approvalAbove: 1_000_00 });
    const huge = await adjust({ direction: 'credit', amount: 1_000_000_000_000, reason: 'fat finger' });
    assert.deepEqual(
      [huge.status, huge.body.error.code, huge.body.error.details],
      [400, 'adjustment_above_maximum', { maxAmount: 10_000_00, amount: 1_000_000_000_000 }],
    );
    assert.deepEqual(await t.db.selectFrom('adjustments').select('id').execute(), []);
    assert.deepEqual(await obligations(), []);
  });

  it('the maximum is a bound: exactly it is accepted (for approval), one more refused', async () => {
    await setPolicy({ maxAmount: 500_00, approvalAbove: 100_00 });
    const atMax = await adjust({ direction: 'credit', amount: 500_00, reason: 'at the bound' });
    assert.deepEqual([atMax.status, atMax.body.adjustment.status], [201, 'proposed']);
    const over = await adjust({ direction: 'credit', amount: 500_01, reason: 'past the bound' });
    assert.deepEqual([over.status, over.body.error.code], [400, 'adjustment_above_maximum']);
  });

  it('the approval threshold is a bound: exactly it is owed at once, one more is proposed and owes nothing', async () => {
    await setPolicy({ maxAmount: 500_00, approvalAbove: 100_00 });
    const atThreshold = await adjust({ direction: 'credit', amount: 100_00, reason: 'at the threshold' });
    assert.deepEqual(
      [atThreshold.body.adjustment.status, atThreshold.body.adjustment.movement?.status],
      ['approved', 'pending'],
    );
    const above = await adjust({ direction: 'credit', amount: 100_01, reason: 'above the threshold' });
    assert.equal(above.status, 201, above.text);
    assert.deepEqual(
      [above.body.adjustment.status, above.body.adjustment.decision, above.body.adjustment.movement],
      ['proposed', null, null],
    );
    await drainDeliveries(t);
    assert.deepEqual(await obligations(), [{ tx_id: `adjustment:${atThreshold.body.adjustment.id}` }]);
    assert.equal(await wallet.balanceOf(externalId), 150_00, 'only the one within the threshold moved');
    assert.equal((await audits('adjustment.propose')).length, 1);
  });

  it('the staff member who proposed it cannot approve or reject it; the attempt is audited as denied', async () => {
    await setPolicy({ maxAmount: 500_00, approvalAbove: 0 });
    const proposed = (await adjust({ direction: 'credit', amount: 1_00, reason: 'needs four eyes' })).body.adjustment;
    for (const action of ['approve', 'reject'] as const) {
      const self = await decide(proposed.id, action, operator, { reason: 'my own' });
      assert.deepEqual([self.status, self.body.error.code], [403, 'second_approver_required']);
    }
    const denied = await t.db
      .selectFrom('audit_log')
      .select(['action', 'outcome'])
      .where('outcome', '=', 'denied')
      .execute();
    assert.deepEqual(denied, [
      { action: 'adjustment.approve', outcome: 'denied' },
      { action: 'adjustment.reject', outcome: 'denied' },
    ]);
    assert.deepEqual(await obligations(), []);
  });

  it('another staff member approves it: then, and only then, it is owed and delivered; both steps audited', async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 1_000_00 });
    const proposed = (await adjust({ direction: 'credit', amount: 2_000_00, reason: 'settlement of a complaint' })).body
      .adjustment;
    const second = await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId });
    const approved = await decide(proposed.id, 'approve', second.token, { reason: 'checked the complaint file' });
    assert.equal(approved.status, 200, approved.text);
    const { adjustment } = approved.body;
    assert.deepEqual(
      [adjustment.status, adjustment.decision.by, adjustment.decision.reason, adjustment.movement],
      ['approved', second.id, 'checked the complaint file', { txId: `adjustment:${proposed.id}`, status: 'pending' }],
    );
    // people named as they know each other: by e-mail
    assert.deepEqual([adjustment.createdByEmail, adjustment.decision.byEmail], [operatorEmail, second.email]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(externalId), 2_050_00);
    const [propose] = await audits('adjustment.propose');
    const [approve] = await audits('adjustment.approve');
    assert.deepEqual([propose!.actor_id === approve!.actor_id, approve!.actor_id], [false, second.id]);
    assert.deepEqual(approve!.details, {
      tenantId: book.tenant.tenantId,
      adjustmentId: proposed.id,
      direction: 'credit',
      amount: 2_000_00,
      reason: 'checked the complaint file',
      proposedBy: propose!.actor_id,
    });
    const again = await decide(proposed.id, 'approve', book.admin);
    assert.deepEqual(
      [again.status, again.body.error.code, again.body.error.details],
      [409, 'adjustment_not_proposed', { status: 'approved' }],
    );
  });

  it('four eyes cannot be dodged by splitting: what was approved alone in 24 hours adds up, per staff member and per player', async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 100_00 });
    const first = await adjust({ direction: 'credit', amount: 60_00, reason: 'first half' });
    const second = await adjust({ direction: 'debit', amount: 40_00, reason: 'debits count too' });
    const third = await adjust({ direction: 'credit', amount: 1, reason: 'one unit past it' });
    assert.deepEqual(
      [first.body.adjustment.status, second.body.adjustment.status, third.body.adjustment.status],
      ['approved', 'approved', 'proposed'],
    );
    const colleague = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
    const samePlayer = await adjust({ direction: 'credit', amount: 1, reason: 'same player' }, { as: colleague });
    assert.equal(samePlayer.body.adjustment.status, 'proposed', 'the player received 100.00 approved alone already');
    t.clock.advance(24 * 60 * 60 * 1000 + 1_000);
    const later = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token; // tokens expired
    const nextDay = await adjust({ direction: 'credit', amount: 100_00, reason: 'a day later' }, { as: later });
    assert.equal(nextDay.body.adjustment.status, 'approved');
  });

  it('two staff members approving at once: one approval, one movement', async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 0 });
    const proposed = (await adjust({ direction: 'credit', amount: 5_00, reason: 'approved twice at once' })).body
      .adjustment;
    const second = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
    const answers = await Promise.all([
      decide(proposed.id, 'approve', second),
      decide(proposed.id, 'approve', book.admin),
    ]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
    assert.deepEqual(await obligations(), [{ tx_id: `adjustment:${proposed.id}` }]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(externalId), 55_00);
  });

  it('the database refuses a decision by the proposer, a proposal with a decision, and a rejection by no one', async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 0 });
    const { id } = (await adjust({ direction: 'credit', amount: 5_00, reason: 'checked by the database' })).body
      .adjustment;
    const staffId = (await t.db.selectFrom('adjustments').select('staff_id').executeTakeFirstOrThrow()).staff_id;
    for (const change of [{ decided_by: staffId, decided_at: t.clock.now() }, { status: 'rejected' as const }]) {
      await assert.rejects(
        t.db.updateTable('adjustments').set(change).where('id', '=', id).execute(),
        /adjustments_four_eyes/,
      );
    }
  });

  it('another staff member rejects it (with a reason): nothing is owed, ever', async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 0 });
    const proposed = (await adjust({ direction: 'debit', amount: 10_00, reason: 'suspected abuse' })).body.adjustment;
    const noReason = await decide(proposed.id, 'reject', book.admin);
    assert.deepEqual([noReason.status, noReason.body.error.code], [400, 'validation']);
    const rejected = await decide(proposed.id, 'reject', book.admin, { reason: 'no evidence of abuse' });
    assert.deepEqual(
      [rejected.status, rejected.body.adjustment.status, rejected.body.adjustment.movement],
      [200, 'rejected', null],
    );
    const approveLater = await decide(proposed.id, 'approve', book.admin);
    assert.deepEqual([approveLater.status, approveLater.body.error.code], [409, 'adjustment_not_proposed']);
    await drainDeliveries(t);
    assert.deepEqual(await obligations(), []);
    assert.equal(await wallet.balanceOf(externalId), 50_00);
    assert.equal((await audits('adjustment.reject')).length, 1);
  });

  it("lists the proposals waiting for a second staff member, for the tenant's staff only", async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 5_00 });
    await adjust({ direction: 'credit', amount: 1_00, reason: 'small one' });
    const waiting = (await adjust({ direction: 'credit', amount: 6_00, reason: 'bigger one' })).body.adjustment;
    const queue = await t.request('GET', '/api/v1/admin/adjustments?status=proposed', { token: operator });
    assert.equal(queue.status, 200, queue.text);
    assert.deepEqual(
      [queue.body.adjustments.map((a: { id: string }) => a.id), queue.body.nextCursor],
      [[waiting.id], ''],
    );
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const outsider = (await loginAsStaff(t, 'operator', { tenantId: other.tenantId })).token;
    const theirs = await t.request('GET', '/api/v1/admin/adjustments', { token: outsider });
    assert.deepEqual(theirs.body.adjustments, []);
    const decideOthers = await decide(waiting.id, 'approve', outsider);
    assert.deepEqual([decideOthers.status, decideOthers.body.error.code], [404, 'not_found']);
    const named = await t.request('GET', `/api/v1/admin/adjustments?tenantId=${book.tenant.tenantId}`, {
      token: outsider,
    });
    assert.deepEqual([named.status, named.body.error.code], [403, 'forbidden']);
  });

  it('the list refuses what it cannot read: limits out of range, an unknown status or parameter, a forged cursor', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'status=pending',
      'cursor=' + 'x'.repeat(101),
      'cursor=abc',
      'other=1',
    ]) {
      const response = await t.request('GET', `/api/v1/admin/adjustments?${query}`, { token: operator });
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
    for (const query of ['limit=1', 'limit=100']) {
      const response = await t.request('GET', `/api/v1/admin/adjustments?${query}`, { token: operator });
      assert.equal(response.status, 200, query);
    }
  });

  it("the policy is the platform's: an operator cannot change it, and the threshold is at most the maximum", async () => {
    const byOperator = await setPolicy({ maxAmount: 1_000_000_00, approvalAbove: 1_000_000_00 }, operator);
    assert.deepEqual([byOperator.status, byOperator.body.error.code], [403, 'forbidden']);
    const inverted = await setPolicy({ maxAmount: 100_00, approvalAbove: 100_01 });
    assert.deepEqual(
      [inverted.status, inverted.body.error.code, inverted.body.error.details],
      [400, 'validation', { field: 'adjustments.approvalAbove' }],
    );
    for (const adjustments of [
      { maxAmount: 0, approvalAbove: 0 },
      { maxAmount: 1_000_000_000_001, approvalAbove: 0 },
      { maxAmount: 1_00, approvalAbove: -1 },
      { maxAmount: 1_00 },
    ]) {
      const response = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
        token: book.admin,
        body: { adjustments },
      });
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], JSON.stringify(adjustments));
    }
    const set = await setPolicy({ maxAmount: 100_00, approvalAbove: 100_00 });
    assert.deepEqual(set.body.tenant.adjustments, { maxAmount: 100_00, approvalAbove: 100_00 });
  });

  it("a platform administrator's approval of an operator's adjustment is in the tenant's audit log, for its operators", async () => {
    await setPolicy({ maxAmount: 5_000_00, approvalAbove: 1_000_00 });
    const proposed = (await adjust({ direction: 'credit', amount: 2_000_00, reason: 'a large goodwill credit' })).body
      .adjustment;
    const approved = await decide(proposed.id, 'approve', book.admin, { reason: 'platform checked it' });
    assert.equal(approved.status, 200, approved.text);
    const log = await t.request('GET', '/api/v1/admin/audit?action=adjustment.', { token: operator });
    assert.equal(log.status, 200, log.text);
    const actions = log.body.entries.map((entry: { action: string; actor: { id: string } }) => [
      entry.action,
      entry.actor.id,
    ]);
    assert.deepEqual(
      actions.find(([action]: string[]) => action === 'adjustment.approve'),
      ['adjustment.approve', approved.body.adjustment.decision.by],
    );
  });
});
