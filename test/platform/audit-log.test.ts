import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { AuditLog } from '../../src/platform/audit/log.ts';
import { MAX_EXPORT_ROWS } from '../../src/platform/audit/schemas.ts';
import { loginAsStaff, STAFF_PASSWORD, startTestApp, type LoggedInStaff, type TestApp } from '../helpers/app.ts';
import { createTenant, type TestTenant } from '../helpers/tenant.ts';

/** GET /api/v1/admin/audit: the platform reads every row, an operator the rows about their tenant; JSON or CSV. */
let t: TestApp;
let audit: AuditLog;
let admin: LoggedInStaff;
before(async () => {
  t = await startTestApp();
  audit = new AuditLog(t.clock);
});
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = await loginAsStaff(t, 'platform_admin', { email: 'admin@bookmaker.test' });
});

const read = (query = '', token = admin.token, headers: Record<string, string> = {}) =>
  t.request('GET', `/api/v1/admin/audit${query ? `?${query}` : ''}`, { token, headers });

const actions = async (query = '', token = admin.token) => {
  const response = await read(query, token);
  assert.equal(response.status, 200, `${query}: ${response.text}`);
  return response.body.entries.map((entry: { action: string }) => entry.action);
};

function record(action: string, extra: Partial<Parameters<AuditLog['record']>[1]> = {}) {
  return audit.record(t.db, { actor: { type: 'system', id: 'test' }, action, outcome: 'success', ...extra });
}

describe('reading the audit log', () => {
  it('newest first, each entry whole: actor, action, target, tenant, outcome, address and details', async () => {
    t.clock.advance(1000);
    await record('test.one', {
      actor: { type: 'staff', id: admin.id },
      target: { type: 'tenant', id: 'tn_one' },
      ip: '192.0.2.1',
      details: { reason: 'checking' },
    });
    const response = await read('limit=2');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8');
    const [newest, older] = response.body.entries;
    assert.deepEqual(newest, {
      id: newest.id,
      occurredAt: t.clock.now().toISOString(),
      actor: { type: 'staff', id: admin.id },
      action: 'test.one',
      target: { type: 'tenant', id: 'tn_one' },
      tenantId: 'tn_one',
      outcome: 'success',
      ip: '192.0.2.1',
      details: { reason: 'checking' },
    });
    assert.match(newest.id, /^[1-9][0-9]*$/);
    assert.equal(older.action, 'staff.login');
    assert.equal(response.body.nextCursor !== '', true, 'staff.create is on the next page');
  });

  it('filters by actor, action (exact or prefix), target and time; from is inclusive, to exclusive', async () => {
    const start = t.clock.now().getTime();
    t.clock.set(new Date(start + 1000));
    await record('test.alpha', { actor: { type: 'aggregator', id: 'ag_1' }, target: { type: 'client', id: 'cl_1' } });
    t.clock.set(new Date(start + 2000));
    await record('test.beta.one', { target: { type: 'client', id: 'cl_2' } });
    t.clock.set(new Date(start + 3000));
    await record('testing', { actor: { type: 'aggregator', id: 'ag_2' } });
    const at = (ms: number) => encodeURIComponent(new Date(start + ms).toISOString());

    assert.deepEqual(await actions('actorType=aggregator'), ['testing', 'test.alpha']);
    assert.deepEqual(await actions('actorType=aggregator&actorId=ag_1'), ['test.alpha']);
    assert.deepEqual(await actions('action=test.alpha'), ['test.alpha']);
    assert.deepEqual(await actions('action=test.'), ['test.beta.one', 'test.alpha']);
    assert.deepEqual(await actions('action=test.*'), ['test.beta.one', 'test.alpha']);
    assert.deepEqual(await actions('action=test*'), ['testing', 'test.beta.one', 'test.alpha']);
    assert.deepEqual(await actions('action=test'), [], 'without . or * the action is exact');
    assert.deepEqual(await actions('action=staff.'), ['staff.login', 'staff.create']);
    assert.deepEqual(await actions('targetType=client'), ['test.beta.one', 'test.alpha']);
    assert.deepEqual(await actions('targetType=client&targetId=cl_2'), ['test.beta.one']);
    assert.deepEqual(await actions(`from=${at(2000)}`), ['testing', 'test.beta.one']);
    assert.deepEqual(await actions(`to=${at(2000)}&action=test.`), ['test.alpha']);
    assert.deepEqual(await actions(`from=${at(1000)}&to=${at(3000)}`), ['test.beta.one', 'test.alpha']);
    const inverted = await read(`from=${at(2000)}&to=${at(2000)}`);
    assert.deepEqual(inverted.body, {
      error: { code: 'validation', message: 'to must be after from.', details: { field: 'to' } },
    });
  });

  it('order=oldest pages from the first entry, ties by id; the CSV follows the same order', async () => {
    for (let i = 0; i < 3; i++) await record(`test.page.${i}`);
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await read(`action=test.&order=oldest&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.entries.map((entry: { action: string }) => entry.action));
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['test.page.0', 'test.page.1', 'test.page.2']);
    const csv = await read('action=test.&order=oldest&format=csv');
    assert.deepEqual(
      csv.text
        .trim()
        .split('\r\n')
        .slice(1)
        .map((line: string) => line.split(',').find((cell) => cell.startsWith('test.page'))),
      ['test.page.0', 'test.page.1', 'test.page.2'],
    );
    assert.equal((await read('order=newest,oldest')).status, 400);
  });

  it('pages with a cursor: limit 1 and 100 accepted; 0, 101, a forged cursor or an unknown parameter refused', async () => {
    for (let i = 0; i < 3; i++) await record(`test.page.${i}`);
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await read(`action=test.&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.body.entries.length, 1);
      seen.push(page.body.entries[0].action);
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['test.page.2', 'test.page.1', 'test.page.0'], 'same instant: newest id first');
    assert.equal((await read('limit=100')).body.entries.length, 5);
    const forged = Buffer.from(`${t.clock.now().toISOString()}|not-a-number`).toString('base64url');
    for (const query of [
      'limit=0',
      'limit=101',
      'cursor=abc',
      `cursor=${forged}`,
      `cursor=${'x'.repeat(101)}`,
      'actorType=robot',
      'action=staff.%25',
      'action=Staff.login',
      `action=${'a'.repeat(101)}`,
      'targetType=client-1',
      'from=yesterday',
      'format=xml',
      'other=1',
      'actorId=',
      'actorId=a%00b',
      `targetId=${'x'.repeat(129)}`,
    ]) {
      const response = await read(query);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
    const surrogate = await read('actorId=%ED%A0%80');
    assert.deepEqual([surrogate.status, surrogate.body.error.code], [400, 'malformed_url']);
  });
});

describe('who reads which rows', () => {
  let tenant: TestTenant;
  let otherTenant: TestTenant;
  let operator: LoggedInStaff;

  beforeEach(async () => {
    tenant = await createTenant(t, admin.token);
    otherTenant = await createTenant(t, admin.token, { name: 'Other Casino' });
    operator = await loginAsStaff(t, 'operator', { tenantId: tenant.tenantId, email: 'ops@casino.example' });
    await loginAsStaff(t, 'operator', { tenantId: otherTenant.tenantId, email: 'ops@other.example' });
    await record('test.players', { actor: { type: 'staff', id: operator.id }, target: { type: 'player', id: 'pl_1' } });
    await record('test.launch', { target: { type: 'session', id: 's_1' }, details: { tenantId: tenant.tenantId } });
    await record('test.elsewhere', {
      target: { type: 'session', id: 's_2' },
      details: { tenantId: otherTenant.tenantId },
    });
    await record('test.platform', { target: { type: 'aggregator', id: 'ag_1' } });
  });

  it("an operator reads the rows about their tenant: the tenant's own, and its staff's actions and log-ins", async () => {
    const mine = await actions('limit=100', operator.token);
    assert.deepEqual(mine, ['test.launch', 'test.players', 'staff.login', 'staff.create', 'tenant.create']);
    const response = await read('limit=100', operator.token);
    assert.deepEqual(
      response.body.entries.map((entry: { tenantId: string | null }) => entry.tenantId),
      [tenant.tenantId, null, null, tenant.tenantId, tenant.tenantId],
    );
    assert.deepEqual(await actions(`tenantId=${tenant.tenantId}&action=test.`, operator.token), [
      'test.launch',
      'test.players',
    ]);
    const other = await read(`tenantId=${otherTenant.tenantId}`, operator.token);
    assert.deepEqual([other.status, other.body.error.code], [403, 'forbidden']);
  });

  it('the platform reads every row, or the rows about one tenant exactly as its operators do', async () => {
    const all = await actions('limit=100&action=test.');
    assert.deepEqual(all, ['test.platform', 'test.elsewhere', 'test.launch', 'test.players']);
    assert.deepEqual(
      await actions(`limit=100&tenantId=${tenant.tenantId}`),
      await actions('limit=100', operator.token),
    );
  });

  it('traders get 403; no token 401', async () => {
    const trader = await loginAsStaff(t, 'trader');
    const refused = await read('', trader.token);
    assert.deepEqual(
      [refused.status, refused.body.error.code, refused.body.error.details],
      [403, 'forbidden', { requiredRoles: ['operator', 'platform_admin'] }],
    );
    assert.equal((await t.request('GET', '/api/v1/admin/audit')).status, 401);
  });
});

describe('CSV export', () => {
  it('exports the filtered rows, newest first, as exact CSV with formulas neutralised, as a download', async () => {
    t.clock.advance(1000);
    await record('test.csv', {
      actor: { type: 'staff', id: '=1+2' },
      target: { type: 'tenant', id: 'tn_a' },
      ip: '-1.2.3.4',
      details: { note: 'a "quoted", comma\nand a line' },
    });
    t.clock.advance(1000);
    await record('test.csv', {
      actor: { type: 'system', id: '@SUM(A1)' },
      target: { type: 'player', id: '+447' },
      outcome: 'failure',
      details: { tenantId: '\tTAB', formula: '=cmd' },
    });
    const ids = (await read('action=test.csv')).body.entries.map((entry: { id: string }) => entry.id);
    const response = await read('action=test.csv&format=csv');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(response.headers.get('content-disposition'), 'attachment; filename="audit-20260301T120002Z.csv"');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(
      response.text,
      'id,occurredAt,actorType,actorId,action,targetType,targetId,tenantId,outcome,ip,details\r\n' +
        `${ids[0]},2026-03-01T12:00:02.000Z,system,'@SUM(A1),test.csv,player,'+447,'\tTAB,failure,,` +
        '"{""formula"":""=cmd"",""tenantId"":""\\tTAB""}"\r\n' +
        `${ids[1]},2026-03-01T12:00:01.000Z,staff,'=1+2,test.csv,tenant,tn_a,tn_a,success,'-1.2.3.4,` +
        '"{""note"":""a \\""quoted\\"", comma\\nand a line""}"\r\n',
    );
  });

  it('is chosen by Accept: text/csv too, ignores limit and cursor, and format=json keeps JSON', async () => {
    for (let i = 0; i < 3; i++) await record('test.accept');
    const byAccept = await read('action=test.accept&limit=1', admin.token, { accept: 'text/csv' });
    assert.equal(byAccept.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(byAccept.text.trim().split('\r\n').length, 4, 'a header and every matching row');
    const json = await read('action=test.accept&format=json', admin.token, { accept: 'text/csv' });
    assert.equal(json.body.entries.length, 3);
    const empty = await read('action=test.none&format=csv');
    assert.equal(
      empty.text,
      'id,occurredAt,actorType,actorId,action,targetType,targetId,tenantId,outcome,ip,details\r\n',
    );
  });

  it(`refuses an export of more than ${MAX_EXPORT_ROWS} rows: narrow the filter`, async () => {
    await sql`
      insert into audit_log (occurred_at, actor_type, action, outcome)
      select ${t.clock.now()}, 'system', 'test.bulk', 'success' from generate_series(1, ${MAX_EXPORT_ROWS + 1})`.execute(
      t.db,
    );
    const refused = await read('action=test.bulk&format=csv');
    assert.deepEqual(refused.body, {
      error: {
        code: 'export_too_large',
        message: `More than ${MAX_EXPORT_ROWS} rows match: narrow the filter (from, to, action, ...).`,
        details: { maxRows: MAX_EXPORT_ROWS },
      },
    });
    assert.equal(refused.status, 400);
    const narrowed = await read('action=staff.&format=csv');
    assert.equal(narrowed.status, 200);
  });

  it("follows the operator's scope", async () => {
    const tenant = await createTenant(t, admin.token);
    const operator = await loginAsStaff(t, 'operator', { tenantId: tenant.tenantId });
    await record('test.platform');
    const csv = await read('format=csv', operator.token);
    assert.equal(csv.status, 200);
    assert.ok(!csv.text.includes('test.platform'));
    assert.match(csv.text, /tenant\.create/);
  });
});

describe('secrets', () => {
  it('never appear in the audit log as the API reads or exports it, nor in the logs', async () => {
    const tenant = await createTenant(t, admin.token);
    const created = await t.request('POST', '/api/v1/admin/aggregators', {
      token: admin.token,
      body: { name: 'Acme' },
    });
    const aggregatorId = created.body.aggregator.id;
    await t.request('PUT', `/api/v1/admin/aggregators/${aggregatorId}/authorization`, {
      token: admin.token,
      body: {
        enabled: true,
        clientQuota: 1,
        currencies: ['BRL'],
        jurisdictions: ['BR'],
        territories: ['BR'],
        walletOrigins: ['https://wallet.example'],
        autoActivation: true,
        agreementRef: 'AGR-1',
        expiresAt: new Date(t.clock.now().getTime() + 86_400_000 * 30).toISOString(),
      },
    });
    const key = await t.request('POST', `/api/v1/admin/aggregators/${aggregatorId}/keys`, {
      token: admin.token,
      body: { scopes: ['clients:read'] },
    });
    const pending = await t.app.services.staff.createForEnrolment({
      email: 'pending@bookmaker.test',
      password: STAFF_PASSWORD,
      role: 'trader',
    });
    const enrolment = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: pending.email, password: STAFF_PASSWORD },
    });
    const secrets = [
      admin.token,
      admin.totpSecret,
      STAFF_PASSWORD,
      tenant.apiKey,
      tenant.walletSecret,
      key.body.key,
      enrolment.body.enrolment.enrolmentToken,
      enrolment.body.enrolment.secret,
    ];
    const texts = [(await read('limit=100')).text, (await read('format=csv')).text, t.logs.text];
    for (const secret of secrets) {
      for (const text of texts) assert.ok(!text.includes(secret), `${secret.slice(0, 12)}… appears`);
    }
  });
});
