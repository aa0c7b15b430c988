import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { newIdempotencyKey } from '../helpers/aggregator.ts';
import { loginAsStaff } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  activateClient,
  control,
  place,
  postings,
  sandboxPerTest,
  signIn,
  single,
  START_BALANCE,
  walletMoves,
  type SandboxFixture,
} from './fixture.ts';

/**
 * The rules around the sandbox outcome controls: who may use them (sandbox tenants, their own bets), that every call
 * happens once (Idempotency-Key; the bet's state), that bad input changes nothing, that a bet the partner decided is
 * left alone by the shared market's real results, and that every call is audited.
 */
const fixture = sandboxPerTest();
let f: SandboxFixture;
beforeEach(() => {
  f = fixture;
});

const home = () => single(f.events[0]!.home, '2.10');
const won = () => ({ results: [{ selectionId: f.events[0]!.home, result: 'won' }] });
const lost = () => ({ results: [{ selectionId: f.events[0]!.home, result: 'lost' }] });
const bet = (id: string) => f.t.db.selectFrom('bets').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const legResults = async (id: string) =>
  (await f.t.db.selectFrom('bet_legs').select('result').where('bet_id', '=', id).orderBy('position').execute()).map(
    (leg) => leg.result,
  );
const sandboxAudit = () =>
  f.t.db.selectFrom('audit_log').selectAll().where('action', 'like', 'sandbox.%').orderBy('id').execute();
const view = (id: string, environment = f.sandbox) =>
  f.t.request('GET', `/api/v1/integration/sandbox/bets/${id}`, {
    headers: { 'x-tenant-id': environment.tenantId, 'x-api-key': environment.apiKey },
  });

/** The bet's state, legs, postings and audit rows: a refused call must leave all of it as it was. */
async function snapshot(id: string) {
  const row = await bet(id);
  return {
    status: row.status,
    version: row.settled_version,
    override: row.outcome_override_at,
    legs: await legResults(id),
    postings: await postings(f, id),
    audit: (await sandboxAudit()).length,
  };
}

describe('who may use the controls', () => {
  it('a production tenant is refused with 403 sandbox_only, audited as denied, and nothing changes', async () => {
    const token = await signIn(f, f.production, f.wallets.production, 'prod-player', 100_00);
    const betId = await place(f, home(), 10_00, token);
    for (const action of ['settle', 'resettle', 'reopen', 'cancel'] as const) {
      const body = action === 'settle' || action === 'resettle' ? won() : {};
      const refused = await control(f, betId, action, body, { environment: f.production });
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'sandbox_only'], refused.text);
      assert.deepEqual(refused.body.error.details, { environment: 'production' });
    }
    const read = await view(betId, f.production);
    assert.deepEqual([read.status, read.body.error.code], [403, 'sandbox_only']);
    const row = await bet(betId);
    assert.deepEqual([row.status, row.outcome_override_at], ['accepted', null]);
    assert.deepEqual(await postings(f, betId), [[`bet:${betId}`, 'debit', 'bet', 10_00, 'applied']]);
    const audit = await sandboxAudit();
    assert.deepEqual(
      audit.map((entry) => [entry.action, entry.outcome, entry.actor_type, entry.actor_id, entry.tenant_id]),
      ['settle', 'resettle', 'reopen', 'cancel'].map((action) => [
        `sandbox.bet.${action}`,
        'denied',
        'tenant',
        f.production.tenantId,
        f.production.tenantId,
      ]),
    );
  });

  it("another tenant's bet is not found (404), with every control and the read, and nothing changes", async () => {
    const betId = await place(f, home());
    const other = await activateClient(f);
    // The reference wallets sign with one secret at a time: back to this client's.
    f.wallets.sandbox.setSecret(f.sandbox.walletSecret);
    f.wallets.production.setSecret(f.production.walletSecret);
    const before = await snapshot(betId);
    for (const action of ['settle', 'resettle', 'reopen', 'cancel'] as const) {
      const body = action === 'settle' || action === 'resettle' ? won() : {};
      const refused = await control(f, betId, action, body, { environment: other.sandbox });
      assert.deepEqual([refused.status, refused.body.error.code], [404, 'not_found'], refused.text);
    }
    assert.deepEqual([(await view(betId, other.sandbox)).status], [404]);
    const unknown = await control(f, 'bt_0000000000000000', 'settle', won());
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
    assert.deepEqual(await snapshot(betId), before);
  });
});

describe('every call happens once', () => {
  it('the same Idempotency-Key replays the first answer (Idempotency-Replayed: true) and moves no money again', async () => {
    const betId = await place(f, home());
    const key = newIdempotencyKey();
    const first = await control(f, betId, 'settle', won(), { key });
    const again = await control(f, betId, 'settle', won(), { key });
    assert.equal(first.status, 200, first.text);
    assert.deepEqual([again.status, again.headers.get('idempotency-replayed')], [200, 'true']);
    assert.equal(first.headers.get('idempotency-replayed'), null);
    assert.deepEqual(again.body, first.body);
    const otherBody = await control(f, betId, 'settle', lost(), { key });
    assert.deepEqual([otherBody.status, otherBody.body.error.code], [409, 'idempotency_mismatch']);
    const otherBet = await control(f, await place(f, home()), 'settle', won(), { key });
    assert.deepEqual([otherBet.status, otherBet.body.error.code], [409, 'idempotency_mismatch']);
    await drainDeliveries(f.t);
    assert.equal((await walletMoves(f, betId)).length, 2);
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE - 20_00 + 21_00);
  });

  it('an Idempotency-Key is bound to the integration key that sent it: after a rotation, a retry is refused, not replayed', async () => {
    const betId = await place(f, home());
    const key = newIdempotencyKey();
    assert.equal((await control(f, betId, 'settle', won(), { key })).status, 200);
    const admin = (await loginAsStaff(f.t, 'platform_admin')).token;
    const rotated = await f.t.request('POST', `/api/v1/admin/integration/api-key?tenantId=${f.sandbox.tenantId}`, {
      token: admin,
    });
    assert.equal(rotated.status, 200, rotated.text);
    const environment = { ...f.sandbox, apiKey: rotated.body.integrationApiKey };
    const retried = await control(f, betId, 'settle', won(), { key, environment });
    assert.deepEqual(
      [retried.status, retried.body.error.code, retried.body.error.details],
      [409, 'idempotency_mismatch', { reason: 'credential' }],
    );
  });

  it("a call whose target is already the bet's state changes nothing and owes nothing, whatever its key", async () => {
    const betId = await place(f, home());
    await control(f, betId, 'settle', won());
    const before = await snapshot(betId);
    const again = await control(f, betId, 'settle', won());
    assert.equal(again.status, 200, again.text);
    assert.deepEqual([again.body.changed, again.body.owed, again.body.bet.status], [false, [], 'won']);
    const otherResult = await control(f, betId, 'settle', lost());
    assert.deepEqual([otherResult.status, otherResult.body.error.code], [409, 'bet_settled']);
    const { audit, ...state } = await snapshot(betId);
    const { audit: auditBefore, ...stateBefore } = before;
    assert.deepEqual(state, stateBefore);
    assert.equal(audit, auditBefore + 1, 'the call that changed nothing is audited all the same; the refused one not');
    const cancelled = await place(f, home());
    await control(f, cancelled, 'cancel');
    const cancelAgain = await control(f, cancelled, 'cancel');
    assert.deepEqual([cancelAgain.status, cancelAgain.body.changed, cancelAgain.body.owed], [200, false, []]);
  });

  it('concurrent calls move money once: one payout for many settles, one rollback for many cancels', async () => {
    const settledBet = await place(f, home());
    const cancelledBet = await place(f, home());
    const key = newIdempotencyKey();
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => control(f, settledBet, 'settle', won(), { key })),
      ...Array.from({ length: 4 }, () => control(f, settledBet, 'settle', won())),
      ...Array.from({ length: 4 }, () => control(f, cancelledBet, 'cancel')),
    ]);
    assert.deepEqual(
      answers.map((answer) => answer.status),
      answers.map(() => 200),
      answers.map((answer) => answer.text).join('\n'),
    );
    const changed = (some: typeof answers) =>
      some.filter((answer) => answer.body.changed && !answer.headers.get('idempotency-replayed')).length;
    assert.equal(changed(answers.slice(0, 8)), 1, 'one settle changed the bet');
    assert.equal(changed(answers.slice(8)), 1, 'one cancel changed the bet');
    await drainDeliveries(f.t);
    assert.deepEqual(
      (await walletMoves(f, settledBet)).map(([txId]) => txId),
      [`bet:${settledBet}`, `payout:${settledBet}:1`],
    );
    assert.deepEqual(
      (await walletMoves(f, cancelledBet)).map(([txId]) => txId),
      [`bet:${cancelledBet}`, `rollback:bet:${cancelledBet}`],
    );
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE - 10_00 + 21_00);
  });
});

describe('bad input is refused with 400 and changes nothing', () => {
  it('invalid results: half_won on a whole line, a selection not in the bet, twice the same leg', async () => {
    const onWhole = await place(f, single(f.whole.over, '1.90'));
    const on1x2 = await place(f, home());
    const before = [await snapshot(onWhole), await snapshot(on1x2)];
    const refusals: Array<[string, unknown, string]> = [
      [onWhole, { results: [{ selectionId: f.whole.over, result: 'half_won' }] }, 'results.0.result'],
      [on1x2, { results: [{ selectionId: f.events[0]!.home, result: 'half_lost' }] }, 'results.0.result'],
      [on1x2, { results: [{ selectionId: f.events[0]!.away, result: 'won' }] }, 'results.0.selectionId'],
      [on1x2, { results: [{ selectionId: f.quarter.over, result: 'half_won' }] }, 'results.0.selectionId'],
      [
        on1x2,
        {
          results: [
            { selectionId: f.events[0]!.home, result: 'won' },
            { selectionId: f.events[0]!.home, result: 'lost' },
          ],
        },
        'results.1.selectionId',
      ],
    ];
    for (const [betId, body, field] of refusals) {
      for (const action of ['settle', 'resettle'] as const) {
        const refused = await control(f, betId, action, body);
        assert.deepEqual([refused.status, refused.body.error.code], [400, 'validation'], refused.text);
        assert.equal(refused.body.error.details.field, field);
      }
    }
    assert.deepEqual([await snapshot(onWhole), await snapshot(on1x2)], before);
    assert.equal(
      (
        await f.t.db
          .selectFrom('idempotency_records')
          .select('scope')
          .where('scope', '=', `tenant:${f.sandbox.tenantId}`)
          .execute()
      ).length,
      0,
      'a refused call leaves its key free',
    );
  });

  it('unknown fields, wrong types, bounds and headers: 400 validation naming the field', async () => {
    const betId = await place(f, home());
    const before = await snapshot(betId);
    const legs21 = Array.from({ length: 21 }, () => ({ selectionId: f.events[0]!.home, result: 'won' }));
    const cases: Array<[string, Parameters<typeof control>[2], unknown, Record<string, string>, string]> = [
      ['unknown field', 'settle', { ...won(), amount: 5 }, {}, 'amount'],
      ['unknown field of a result', 'settle', { results: [{ ...won().results[0], odds: '9' }] }, {}, 'odds'],
      ['unknown field on reopen', 'reopen', { results: [] }, {}, 'results'],
      ['no results', 'settle', {}, {}, 'results'],
      ['empty results', 'settle', { results: [] }, {}, 'results'],
      ['21 results: one more than a bet has legs', 'settle', { results: legs21 }, {}, 'results'],
      ['an unknown result', 'settle', { results: [{ selectionId: f.events[0]!.home, result: 'draw' }] }, {}, ''],
      [
        'a selection id over 64 characters',
        'settle',
        { results: [{ selectionId: 'x'.repeat(65), result: 'won' }] },
        {},
        '',
      ],
      ['a reason over 500 characters', 'cancel', { reason: 'x'.repeat(501) }, {}, 'reason'],
      ['an empty reason', 'reopen', { reason: '' }, {}, 'reason'],
      ['a number for a text', 'cancel', { reason: 5 }, {}, 'reason'],
      ['an Idempotency-Key too short', 'settle', won(), { 'idempotency-key': 'short' }, 'idempotency-key'],
      ['an Idempotency-Key with a space', 'settle', won(), { 'idempotency-key': 'has a space' }, 'idempotency-key'],
    ];
    for (const [name, action, body, headers, field] of cases) {
      const refused = await control(f, betId, action, body, { headers });
      assert.deepEqual([refused.status, refused.body?.error?.code], [400, 'validation'], `${name}: ${refused.text}`);
      if (field) assert.ok(String(refused.body.error.details.field).endsWith(field), `${name}: ${refused.text}`);
    }
    const longId = await control(f, 'x'.repeat(65), 'settle', won());
    assert.deepEqual([longId.status, longId.body.error.details.field], [400, 'id']);
    const noKey = await f.t.request('POST', `/api/v1/integration/sandbox/bets/${betId}/settle`, {
      body: won(),
      headers: { 'x-tenant-id': f.sandbox.tenantId, 'x-api-key': f.sandbox.apiKey },
    });
    assert.deepEqual([noKey.status, noKey.body.error.details.field], [400, 'idempotency-key']);
    const reasonAtBound = await control(f, betId, 'reopen', { reason: 'x'.repeat(500) });
    assert.deepEqual([reasonAtBound.status, reasonAtBound.body.changed], [200, false]);
    const { audit, ...state } = await snapshot(betId);
    const { audit: auditBefore, ...stateBefore } = before;
    assert.deepEqual(state, stateBefore);
    assert.equal(audit, auditBefore + 1, 'only the valid reopen');
  });

  it('no input makes a 5xx: arbitrary bodies are answered in the error shape or applied', async () => {
    const betId = await place(f, home());
    const results = fc.oneof(
      fc.constantFrom(f.events[0]!.home, f.events[0]!.away, f.whole.over, ''),
      fc.string({ maxLength: 70 }),
    );
    const outcome = fc.oneof(fc.constantFrom('won', 'lost', 'void', 'half_won', 'half_lost'), fc.string());
    const body = fc.oneof(
      fc.record({ results: fc.array(fc.record({ selectionId: results, result: outcome }), { maxLength: 22 }) }),
      fc.jsonValue(),
    );
    const action = fc.constantFrom<Parameters<typeof control>[2]>('settle', 'resettle', 'reopen', 'cancel');
    await fc.assert(
      fc.asyncProperty(action, body, async (act, sent) => {
        const answer = await control(f, betId, act, sent);
        assert.ok(answer.status < 500, answer.text);
        if (answer.status >= 400) assert.equal(typeof answer.body.error.code, 'string');
      }),
      { seed: 20_260_301, numRuns: 60 },
    );
  });
});

describe('the bet states the controls refuse', () => {
  it('resettle needs a settled bet; a cancelled bet is closed to every control but a repeated cancel', async () => {
    const open = await place(f, home());
    const notSettled = await control(f, open, 'resettle', won());
    assert.deepEqual([notSettled.status, notSettled.body.error.code], [409, 'bet_not_settled']);
    await control(f, open, 'cancel');
    for (const [action, body] of [
      ['settle', won()],
      ['resettle', won()],
      ['reopen', {}],
    ] as const) {
      const closed = await control(f, open, action, body);
      assert.deepEqual(
        [closed.status, closed.body.error.code, closed.body.error.details],
        [409, 'bet_closed', { status: 'refused' }],
      );
    }
  });
});

describe("the shared market's real results", () => {
  it('a later settlement and resettlement of the shared market never touch a sandbox-settled bet', async () => {
    const decided = await place(f, home());
    const untouched = await place(f, home());
    const prodToken = await signIn(f, f.production, f.wallets.production, 'prod-player', 100_00);
    const production = await place(f, home(), 10_00, prodToken);
    await control(f, decided, 'settle', won());
    await drainDeliveries(f.t);
    // The sandbox control decided one bet only: the shared market and every other bet are as they were.
    const market = await f.t.request('GET', `/api/v1/catalog/events/${f.events[0]!.id}`);
    assert.deepEqual(
      [market.body.event.markets[0].status, market.body.event.markets[0].settlementVersion],
      ['open', 0],
    );
    assert.deepEqual([(await bet(untouched)).status, (await bet(production)).status], ['accepted', 'accepted']);
    const before = await snapshot(decided);

    const trade = (action: string, winner: 'home' | 'away') =>
      f.t.request('POST', `/api/v1/admin/trading/markets/${f.events[0]!.marketId}/${action}`, {
        token: f.trader,
        body: {
          results: [
            { selectionId: f.events[0]!.home, result: winner === 'home' ? 'won' : 'lost' },
            { selectionId: f.events[0]!.draw, result: 'lost' },
            { selectionId: f.events[0]!.away, result: winner === 'away' ? 'won' : 'lost' },
          ],
        },
      });
    const settled = await trade('settle', 'away');
    assert.equal(settled.status, 200, settled.text);
    assert.deepEqual(settled.body.bets, { settled: 2, resettled: 0, reopened: 0, unchanged: 0 });
    await drainDeliveries(f.t);
    assert.deepEqual(await snapshot(decided), before);
    assert.deepEqual([(await bet(untouched)).status, (await bet(production)).status], ['lost', 'lost']);

    const resettled = await trade('resettle', 'home');
    assert.deepEqual(resettled.body.bets, { settled: 0, resettled: 2, reopened: 0, unchanged: 0 });
    await drainDeliveries(f.t);
    assert.deepEqual(await snapshot(decided), before);
    assert.deepEqual([(await bet(untouched)).status, (await bet(production)).status], ['won', 'won']);
    assert.deepEqual(await legResults(decided), ['won']);
    assert.equal(
      await f.wallets.sandbox.balanceOf(f.player),
      START_BALANCE - 20_00 + 21_00 + 0 + 21_00,
      'the decided bet was paid once, by its control',
    );
  });
});

describe('the audit trail', () => {
  it('every control is audited with the tenant, the bet, the key, the move and the movements it owed', async () => {
    const betId = await place(f, home());
    const key = newIdempotencyKey();
    await control(f, betId, 'settle', { ...won(), reason: 'partner test 1' }, { key });
    await control(f, betId, 'settle', { ...won(), reason: 'partner test 1' }, { key });
    await drainDeliveries(f.t);
    await control(f, betId, 'resettle', lost());
    await drainDeliveries(f.t);
    await control(f, betId, 'reopen');
    await control(f, betId, 'cancel');
    const audit = await sandboxAudit();
    assert.deepEqual(
      audit.map((entry) => [
        entry.action,
        entry.outcome,
        entry.actor_type,
        entry.actor_id,
        entry.target_type,
        entry.target_id,
        entry.tenant_id,
      ]),
      ['settle', 'resettle', 'reopen', 'cancel'].map((action) => [
        `sandbox.bet.${action}`,
        'success',
        'tenant',
        f.sandbox.tenantId,
        'bet',
        betId,
        f.sandbox.tenantId,
      ]),
      'the replay is not audited again: nothing happened',
    );
    const details = audit.map((entry) =>
      typeof entry.details === 'string' ? JSON.parse(entry.details) : entry.details,
    );
    assert.deepEqual(details[0], {
      tenantId: f.sandbox.tenantId,
      idempotencyKey: key,
      results: won().results,
      reason: 'partner test 1',
      changed: true,
      from: 'accepted',
      to: 'won',
      owed: [`payout:${betId}:1`],
      superseded: [],
    });
    assert.deepEqual(
      details.map((entry) => [entry.from, entry.to, entry.owed]),
      [
        ['accepted', 'won', [`payout:${betId}:1`]],
        ['won', 'lost', [`resettle:${betId}:2:1`]],
        ['lost', 'accepted', []],
        ['accepted', 'void', [`resettle:${betId}:4:2`]],
      ],
    );
    assert.ok(audit.every((entry) => entry.ip === '127.0.0.1'));
  });
});
