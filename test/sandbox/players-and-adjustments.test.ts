import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { newIdempotencyKey } from '../helpers/aggregator.ts';
import { loginAsStaff, type HttpResponse } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { openSession } from '../helpers/tenant.ts';
import { activateClient, sandboxPerTest, signIn, START_BALANCE, type SandboxFixture } from './fixture.ts';

/**
 * The sandbox controls for a partner's first day beyond its bets: an adjustment on one of its players (owed to its
 * sandbox wallet like any adjustment, approved at once, bounded by the tenant's largest single adjustment), and a
 * player blocked, paused, closed or made active again, so that its server sees the session refusals. Sandbox
 * tenants only, their own players only, bounds at the bound, audited with the tenant as actor.
 */
const fixture = sandboxPerTest();
let f: SandboxFixture;
beforeEach(() => {
  f = fixture;
});

type Environment = SandboxFixture['sandbox'];

const keyHeaders = (environment: Environment) => ({
  'x-tenant-id': environment.tenantId,
  'x-api-key': environment.apiKey,
});

function adjust(
  body: Record<string, unknown>,
  options: { environment?: Environment; key?: string } = {},
): Promise<HttpResponse> {
  return f.t.request('POST', '/api/v1/integration/sandbox/adjustments', {
    body,
    headers: { ...keyHeaders(options.environment ?? f.sandbox), 'idempotency-key': options.key ?? newIdempotencyKey() },
  });
}

function setStatus(externalPlayerId: string, body: Record<string, unknown>, environment = f.sandbox) {
  return f.t.request('PUT', `/api/v1/integration/sandbox/players/${encodeURIComponent(externalPlayerId)}/status`, {
    body,
    headers: keyHeaders(environment),
  });
}

const credit = (amount: number, extra: Record<string, unknown> = {}) => ({
  externalPlayerId: f.player,
  direction: 'credit',
  amount,
  reason: 'sandbox credit',
  ...extra,
});

/** What the sandbox wallet recorded for a txId: [endpoint, kind, amount, player, status]. */
async function walletRecord(txId: string, wallet = f.wallets.sandbox) {
  const rows = (await wallet.wallet.store.transactions()).filter((row) => row.tx_id === txId);
  return rows.map((row) => [row.endpoint, row.kind, Number(row.amount), row.player_id, Number(row.status)]);
}

/** Everything an adjustment can change: adjustments, obligations, the wallet's journal and the audit trail. */
async function moneySnapshot() {
  const count = async (table: 'adjustments' | 'wallet_obligations') =>
    Number(
      (
        await f.t.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    adjustments: await count('adjustments'),
    obligations: await count('wallet_obligations'),
    walletRows: (await f.wallets.sandbox.wallet.store.transactions()).length,
    balance: await f.wallets.sandbox.balanceOf(f.player),
  };
}

const sandboxAudit = (action: string) =>
  f.t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();

const playerStatus = async (tenantId: string, externalId: string) =>
  (
    await f.t.db
      .selectFrom('players')
      .select('status')
      .where('tenant_id', '=', tenantId)
      .where('external_id', '=', externalId)
      .executeTakeFirstOrThrow()
  ).status;

describe('a sandbox adjustment', () => {
  it('a credit and a debit reach the sandbox wallet as adjustment movements, adjustment:<id>, approved at once', async () => {
    const credited = await adjust(credit(25_00, { reason: 'a goodwill credit to test' }));
    assert.equal(credited.status, 201, credited.text);
    assert.equal(credited.headers.get('idempotency-replayed'), null);
    const { adjustment, owed } = credited.body;
    assert.match(adjustment.id, /^adj_[0-9a-f]{16}$/);
    assert.deepEqual(
      { ...adjustment, id: undefined, createdAt: undefined },
      {
        id: undefined,
        externalPlayerId: f.player,
        direction: 'credit',
        amount: 25_00,
        currency: 'BRL',
        reason: 'a goodwill credit to test',
        status: 'approved',
        madeBy: 'sandbox_server',
        createdAt: undefined,
      },
    );
    assert.deepEqual(owed, [
      { txId: `adjustment:${adjustment.id}`, kind: 'adjustment', endpoint: 'credit', amount: 25_00 },
    ]);

    const debited = await adjust({ externalPlayerId: f.player, direction: 'debit', amount: 40_00, reason: 'a debit' });
    assert.equal(debited.status, 201, debited.text);
    const debit = debited.body.adjustment;
    assert.deepEqual(debited.body.owed, [
      { txId: `adjustment:${debit.id}`, kind: 'adjustment', endpoint: 'debit', amount: 40_00 },
    ]);

    await drainDeliveries(f.t);
    assert.deepEqual(await walletRecord(`adjustment:${adjustment.id}`), [
      ['credit', 'adjustment', 25_00, f.player, 200],
    ]);
    assert.deepEqual(await walletRecord(`adjustment:${debit.id}`), [['debit', 'adjustment', 40_00, f.player, 200]]);
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE + 25_00 - 40_00);

    // The row names its maker (no staff member), approved with no decision, its movement owed.
    const rows = await f.t.db.selectFrom('adjustments').selectAll().orderBy('created_at').orderBy('id').execute();
    assert.deepEqual(
      rows.map((row) => [row.made_by, row.staff_id, row.status, row.decided_by, row.obligation_id !== null]),
      [
        ['sandbox_server', null, 'approved', null, true],
        ['sandbox_server', null, 'approved', null, true],
      ],
    );

    // Audited with the tenant as actor, in the tenant's trail.
    const audit = await sandboxAudit('sandbox.adjustment.create');
    assert.deepEqual(
      audit.map((entry) => [entry.outcome, entry.actor_type, entry.actor_id, entry.tenant_id, entry.target_type]),
      [
        ['success', 'tenant', f.sandbox.tenantId, f.sandbox.tenantId, 'player'],
        ['success', 'tenant', f.sandbox.tenantId, f.sandbox.tenantId, 'player'],
      ],
    );
    const details = audit[0]!.details;
    assert.deepEqual(
      [details.adjustmentId, details.amount, details.direction, details.reason, details.txId],
      [adjustment.id, 25_00, 'credit', 'a goodwill credit to test', `adjustment:${adjustment.id}`],
    );

    // The operator's list shows who made it: the casino's sandbox server, approved with no second person.
    const operator = (await loginAsStaff(f.t, 'operator', { tenantId: f.sandbox.tenantId })).token;
    const listed = await f.t.request('GET', '/api/v1/admin/adjustments?status=approved', { token: operator });
    assert.equal(listed.status, 200, listed.text);
    // Made in the same instant of the test's clock: compared in id order.
    const byId = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    assert.deepEqual(
      listed.body.adjustments
        .map((row: any) => [row.id, row.madeBy, row.createdBy, row.createdByEmail, row.decision, row.movement])
        .sort(byId),
      [
        [adjustment.id, 'sandbox_server', null, null, null, { txId: `adjustment:${adjustment.id}`, status: 'applied' }],
        [debit.id, 'sandbox_server', null, null, null, { txId: `adjustment:${debit.id}`, status: 'applied' }],
      ].sort(byId),
    );
  });

  it('the same Idempotency-Key replays the first answer and moves no money again; another body is a mismatch', async () => {
    const key = newIdempotencyKey();
    const first = await adjust(credit(5_00), { key });
    const again = await adjust(credit(5_00), { key });
    assert.equal(first.status, 201, first.text);
    assert.deepEqual([again.status, again.headers.get('idempotency-replayed')], [201, 'true']);
    assert.deepEqual(again.body, first.body);
    const before = await moneySnapshot();
    const otherBody = await adjust(credit(6_00), { key });
    assert.deepEqual(
      [otherBody.status, otherBody.body.error.code, otherBody.body.error.details],
      [409, 'idempotency_mismatch', { reason: 'body' }],
    );
    assert.deepEqual(await moneySnapshot(), before);
    await drainDeliveries(f.t);
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE + 5_00);
    assert.equal((await f.t.db.selectFrom('adjustments').select('id').execute()).length, 1);
    assert.equal((await sandboxAudit('sandbox.adjustment.create')).length, 1, 'a replay is not audited again');
  });

  it('a production key is refused with 403 sandbox_only, audited as denied, and nothing changes', async () => {
    await signIn(f, f.production, f.wallets.production, 'prod-player', 100_00);
    const before = await moneySnapshot();
    const refused = await adjust(credit(5_00, { externalPlayerId: 'prod-player' }), { environment: f.production });
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'sandbox_only'], refused.text);
    assert.deepEqual(refused.body.error.details, { environment: 'production' });
    assert.deepEqual(await moneySnapshot(), before);
    await drainDeliveries(f.t);
    assert.equal(await f.wallets.production.balanceOf('prod-player'), 100_00);
    const audit = await sandboxAudit('sandbox.adjustment.create');
    assert.deepEqual(
      audit.map((entry) => [entry.outcome, entry.actor_type, entry.actor_id, entry.tenant_id]),
      [['denied', 'tenant', f.production.tenantId, f.production.tenantId]],
    );
  });

  it("above the tenant's largest single adjustment: 400 adjustment_above_maximum, nothing owed, the key still free", async () => {
    const max = 10_000_00; // the default maxAmount
    const key = newIdempotencyKey();
    const before = await moneySnapshot();
    const refused = await adjust(credit(max + 1), { key });
    assert.deepEqual([refused.status, refused.body.error.code], [400, 'adjustment_above_maximum'], refused.text);
    assert.deepEqual(refused.body.error.details, { maxAmount: max, amount: max + 1 });
    assert.deepEqual(await moneySnapshot(), before);
    const atMax = await adjust(credit(max), { key });
    assert.equal(atMax.status, 201, atMax.text);
  });

  it("another tenant's player, or one that never opened a session, is not found (404), and nothing changes", async () => {
    const other = await activateClient(f);
    // The reference wallets sign with one secret at a time: back to this client's.
    f.wallets.sandbox.setSecret(f.sandbox.walletSecret);
    f.wallets.production.setSecret(f.production.walletSecret);
    const before = await moneySnapshot();
    const foreign = await adjust(credit(5_00), { environment: other.sandbox });
    assert.deepEqual([foreign.status, foreign.body.error.code], [404, 'not_found'], foreign.text);
    const unknown = await adjust(credit(5_00, { externalPlayerId: 'nobody-here' }));
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found'], unknown.text);
    assert.deepEqual(await moneySnapshot(), before);
  });

  it('bounds at the bound: amount 0, 1 and the largest; reason of 0, 1, 500 and 501 characters; an unknown field', async () => {
    const admin = (await loginAsStaff(f.t, 'platform_admin')).token;
    const largest = 1_000_000_000_000;
    const policy = await f.t.request('PUT', `/api/v1/admin/tenant?tenantId=${f.sandbox.tenantId}`, {
      token: admin,
      body: { adjustments: { maxAmount: largest, approvalAbove: 1_000_00 } },
    });
    assert.equal(policy.status, 200, policy.text);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [credit(0), 'amount'],
      [credit(largest + 1), 'amount'],
      [credit(1.5), 'amount'],
      [credit(1, { reason: '' }), 'reason'],
      [credit(1, { reason: 'x'.repeat(501) }), 'reason'],
      [credit(1, { direction: 'sideways' }), 'direction'],
      [credit(1, { externalPlayerId: '' }), 'externalPlayerId'],
      [credit(1, { externalPlayerId: 'p'.repeat(129) }), 'externalPlayerId'],
      [credit(1, { playerId: 'pl_0000000000000000' }), 'playerId'],
      [{ externalPlayerId: f.player, direction: 'credit', amount: 1 }, 'reason'],
    ];
    const before = await moneySnapshot();
    for (const [body, field] of refusals) {
      const refused = await adjust(body);
      assert.deepEqual(
        [refused.status, refused.body.error.code, refused.body.error.details?.field],
        [400, 'validation', field],
        `${JSON.stringify(body).slice(0, 120)}: ${refused.text}`,
      );
    }
    assert.deepEqual(await moneySnapshot(), before);

    const accepted = [
      credit(1),
      credit(largest),
      credit(2, { reason: 'x' }),
      credit(3, { reason: 'y'.repeat(500) }),
      credit(4, { externalPlayerId: f.player }),
    ];
    for (const body of accepted) {
      const made = await adjust(body);
      assert.equal(made.status, 201, made.text);
    }
    await drainDeliveries(f.t);
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE + 1 + largest + 2 + 3 + 4);
  });

  it('a debit above the balance is refused by the wallet (insufficient_funds) and held for review, never partly taken', async () => {
    const made = await adjust({
      externalPlayerId: f.player,
      direction: 'debit',
      amount: START_BALANCE + 1,
      reason: 'x',
    });
    assert.equal(made.status, 201, made.text);
    await drainDeliveries(f.t);
    const row = await f.t.db
      .selectFrom('wallet_obligations')
      .select(['status', 'hold_reason'])
      .where('tx_id', '=', `adjustment:${made.body.adjustment.id}`)
      .executeTakeFirstOrThrow();
    assert.equal(row.status, 'held');
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE);
  });
});

describe("a sandbox player's status", () => {
  it('blocked: sessions refused with 403 account_blocked and open ones ended; active again: sessions open again', async () => {
    const blocked = await setStatus(f.player, { status: 'blocked', reason: 'testing account_blocked' });
    assert.equal(blocked.status, 200, blocked.text);
    assert.deepEqual(
      [blocked.body.player.externalId, blocked.body.player.status, blocked.body.previousStatus],
      [f.player, 'blocked', 'active'],
    );
    const refused = await openSession(f.t, f.sandbox, { externalPlayerId: f.player });
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'account_blocked'], refused.text);
    const ended = await f.t.request('GET', '/api/v1/session', { token: f.token });
    assert.equal(ended.status, 401, 'the session open when the player was blocked has ended');

    for (const [status, code] of [
      ['paused', 'account_paused'],
      ['closed', 'account_closed'],
    ] as const) {
      assert.equal((await setStatus(f.player, { status })).status, 200);
      const answer = await openSession(f.t, f.sandbox, { externalPlayerId: f.player });
      assert.deepEqual([answer.status, answer.body.error.code], [403, code], answer.text);
    }

    const active = await setStatus(f.player, { status: 'active' });
    assert.deepEqual([active.status, active.body.player.status, active.body.previousStatus], [200, 'active', 'closed']);
    const opened = await openSession(f.t, f.sandbox, { externalPlayerId: f.player });
    assert.equal(opened.status, 200, opened.text);

    const audit = await sandboxAudit('sandbox.player.status.set');
    assert.deepEqual(
      audit.map((entry) => {
        const details = entry.details;
        return [entry.outcome, entry.actor_type, entry.actor_id, entry.tenant_id, details.from, details.to];
      }),
      [
        ['success', 'tenant', f.sandbox.tenantId, f.sandbox.tenantId, 'active', 'blocked'],
        ['success', 'tenant', f.sandbox.tenantId, f.sandbox.tenantId, 'blocked', 'paused'],
        ['success', 'tenant', f.sandbox.tenantId, f.sandbox.tenantId, 'paused', 'closed'],
        ['success', 'tenant', f.sandbox.tenantId, f.sandbox.tenantId, 'closed', 'active'],
      ],
    );
    assert.equal(audit[0]!.details.reason, 'testing account_blocked');
  });

  it('a production key is refused with 403 sandbox_only, audited as denied, and the player stays as it was', async () => {
    await signIn(f, f.production, f.wallets.production, 'prod-player', 100_00);
    const refused = await setStatus('prod-player', { status: 'blocked' }, f.production);
    assert.deepEqual([refused.status, refused.body.error.code], [403, 'sandbox_only'], refused.text);
    assert.deepEqual(refused.body.error.details, { environment: 'production' });
    assert.equal(await playerStatus(f.production.tenantId, 'prod-player'), 'active');
    assert.equal((await openSession(f.t, f.production, { externalPlayerId: 'prod-player' })).status, 200);
    const audit = await sandboxAudit('sandbox.player.status.set');
    assert.deepEqual(
      audit.map((entry) => [entry.outcome, entry.actor_type, entry.actor_id, entry.tenant_id]),
      [['denied', 'tenant', f.production.tenantId, f.production.tenantId]],
    );
  });

  it("another tenant's player, or an unknown one, is not found (404), and nothing changes", async () => {
    const other = await activateClient(f);
    f.wallets.sandbox.setSecret(f.sandbox.walletSecret);
    f.wallets.production.setSecret(f.production.walletSecret);
    const foreign = await setStatus(f.player, { status: 'blocked' }, other.sandbox);
    assert.deepEqual([foreign.status, foreign.body.error.code], [404, 'not_found'], foreign.text);
    const unknown = await setStatus('nobody-here', { status: 'blocked' });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found'], unknown.text);
    assert.equal(await playerStatus(f.sandbox.tenantId, f.player), 'active');
    assert.deepEqual(await sandboxAudit('sandbox.player.status.set'), []);
  });

  it('bounds at the bound: reason of 0, 1, 500 and 501 characters, an unknown status or field, a 129-character id', async () => {
    const refusals: Array<[string, Record<string, unknown>, string]> = [
      [f.player, { status: 'blocked', reason: '' }, 'reason'],
      [f.player, { status: 'blocked', reason: 'r'.repeat(501) }, 'reason'],
      [f.player, { status: 'suspended' }, 'status'],
      [f.player, { status: 'blocked', until: '2030-01-01' }, 'until'],
      [f.player, {}, 'status'],
      ['p'.repeat(129), { status: 'blocked' }, 'externalPlayerId'],
    ];
    for (const [player, body, field] of refusals) {
      const refused = await setStatus(player, body);
      assert.deepEqual(
        [refused.status, refused.body.error.code, refused.body.error.details?.field],
        [400, 'validation', field],
        `${JSON.stringify(body)}: ${refused.text}`,
      );
    }
    assert.equal(await playerStatus(f.sandbox.tenantId, f.player), 'active');
    for (const body of [
      { status: 'blocked', reason: 'r' },
      { status: 'active', reason: 'r'.repeat(500) },
      { status: 'active' },
    ]) {
      const answer = await setStatus(f.player, body);
      assert.equal(answer.status, 200, answer.text);
    }
    // An id of 128 characters is within the bound: unknown here, so not found rather than refused.
    const longest = await setStatus('p'.repeat(128), { status: 'blocked' });
    assert.deepEqual([longest.status, longest.body.error.code], [404, 'not_found']);
  });
});
