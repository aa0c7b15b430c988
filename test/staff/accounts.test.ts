import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { LOGIN_FAILURE_LIMIT, LOCKOUT_MS } from '../../src/staff/attempts.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { STAFF_PASSWORD, loginAsStaff, startTestApp, type LoggedInStaff, type TestApp } from '../helpers/app.ts';
import { createTenant } from '../helpers/tenant.ts';

let t: TestApp;
let admin: LoggedInStaff;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = await loginAsStaff(t, 'platform_admin', { email: 'admin@bookmaker.test' });
});

const BASE = '/api/v1/admin/staff';
const VIEW_KEYS = [
  'id',
  'email',
  'role',
  'tenantId',
  'status',
  'enrolled',
  'enrolledAt',
  'lockedUntil',
  'createdAt',
  'lastLoginAt',
];

function create(body: Record<string, unknown>, token = admin.token) {
  return t.request('POST', BASE, { token, body });
}

function act(
  id: string,
  action: 'disable' | 'enable' | 'reset-totp',
  body: Record<string, unknown> = {},
  token = admin.token,
) {
  return t.request('POST', `${BASE}/${id}/${action}`, { token, body });
}

function list(query = '', token = admin.token) {
  return t.request('GET', `${BASE}${query ? `?${query}` : ''}`, { token });
}

async function auditRows(action: string) {
  return t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

const me = (token: string) => t.request('GET', '/api/v1/admin/me', { token });

describe('staff accounts: who may manage them', () => {
  it('platform administrators only: traders and operators get 403, no token 401', async () => {
    const tenant = await createTenant(t, admin.token);
    const trader = await loginAsStaff(t, 'trader');
    const operator = await loginAsStaff(t, 'operator', { tenantId: tenant.tenantId });
    for (const token of [trader.token, operator.token]) {
      for (const response of [
        await list('', token),
        await create({ email: 'x@bookmaker.test', password: STAFF_PASSWORD, role: 'trader' }, token),
        await act(admin.id, 'disable', {}, token),
        await act(admin.id, 'enable', {}, token),
        await act(admin.id, 'reset-totp', {}, token),
      ]) {
        assert.equal(response.status, 403);
        assert.deepEqual(response.body.error.details, { requiredRoles: ['platform_admin'] });
      }
    }
    const anonymous = await t.request('GET', BASE);
    assert.deepEqual([anonymous.status, anonymous.body.error.code], [401, 'unauthorized']);
  });
});

describe('creating a staff account', () => {
  it('creates it without an authenticator: it enrols at first sign-in; the answer holds no secret', async () => {
    const tenant = await createTenant(t, admin.token);
    const response = await create({
      email: 'Ana.Operator@Casino.example',
      password: STAFF_PASSWORD,
      role: 'operator',
      tenantId: tenant.tenantId,
    });
    assert.equal(response.status, 201, response.text);
    assert.deepEqual(response.body, {
      staff: {
        id: response.body.staff.id,
        email: 'ana.operator@casino.example',
        role: 'operator',
        tenantId: tenant.tenantId,
        status: 'active',
        enrolled: false,
        enrolledAt: null,
        lockedUntil: null,
        createdAt: t.clock.now().toISOString(),
        lastLoginAt: null,
      },
    });
    const [row] = await auditRows('staff.create').then((rows) => rows.filter((r) => r.actor_id === admin.id));
    assert.deepEqual(
      [row!.actor_type, row!.target_id, row!.ip, row!.details, row!.tenant_id],
      [
        'staff',
        response.body.staff.id,
        '127.0.0.1',
        { email: 'ana.operator@casino.example', role: 'operator', tenantId: tenant.tenantId, enrolled: false },
        tenant.tenantId,
      ],
    );
    assert.ok(!JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute()).includes(STAFF_PASSWORD));

    const login = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'ana.operator@casino.example', password: STAFF_PASSWORD },
    });
    assert.ok(login.body.enrolment, login.text);
  });

  it('binds operators to one existing tenant and the other roles to none', async () => {
    const tenant = await createTenant(t, admin.token);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { role: 'operator' },
        'tenantId',
        'An operator is bound to exactly one tenant: give its id as tenantId; other roles take none.',
      ],
      [
        { role: 'trader', tenantId: tenant.tenantId },
        'tenantId',
        'An operator is bound to exactly one tenant: give its id as tenantId; other roles take none.',
      ],
      [
        { role: 'platform_admin', tenantId: tenant.tenantId },
        'tenantId',
        'An operator is bound to exactly one tenant: give its id as tenantId; other roles take none.',
      ],
      [{ role: 'operator', tenantId: 'tn_0000000000000000' }, 'tenantId', 'There is no tenant tn_0000000000000000.'],
    ];
    for (const [fields, field, message] of cases) {
      const response = await create({ email: 'o@bookmaker.test', password: STAFF_PASSWORD, ...fields });
      assert.deepEqual(
        response.body,
        { error: { code: 'validation', message, details: { field } } },
        JSON.stringify(fields),
      );
      assert.equal(response.status, 400);
    }
    assert.equal((await list('role=operator')).body.staff.length, 0, 'nothing was created');
  });

  it('holds the password policy of the CLI (12 to 256 characters) and refuses what it cannot read', async () => {
    const valid = { email: 'p@bookmaker.test', password: STAFF_PASSWORD, role: 'trader' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...valid, password: 'x'.repeat(11) }, 'password'],
      [{ ...valid, password: 'x'.repeat(257) }, 'password'],
      [{ ...valid, role: 'root' }, 'role'],
      [{ ...valid, email: 'not-an-email' }, 'email'],
      [{ ...valid, email: 'p\u0000@bookmaker.test' }, 'email'],
      [{ ...valid, password: 'twelve chars\ud800' }, 'password'],
      [{ ...valid, totpSecret: 'ABCDEFGH' }, 'totpSecret'],
      [{ email: valid.email, role: 'trader' }, 'password'],
      [{ ...valid, tenantId: '' }, 'tenantId'],
      [{ ...valid, tenantId: 'x'.repeat(65) }, 'tenantId'],
    ];
    for (const [body, field] of cases) {
      const response = await create(body);
      assert.deepEqual(
        [response.status, response.body.error.code, response.body.error.details.field],
        [400, 'validation', field],
      );
    }
    assert.equal((await create({ ...valid, password: 'x'.repeat(12) })).status, 201);
    assert.equal((await create({ ...valid, email: 'q@bookmaker.test', password: 'x'.repeat(256) })).status, 201);
    const again = await create({ ...valid, email: 'P@Bookmaker.test' });
    assert.deepEqual([again.status, again.body.error.code], [409, 'staff_exists']);
  });
});

describe('listing staff accounts', () => {
  it('newest first, with the fields the console shows and never a password hash, secret or token', async () => {
    t.clock.advance(1000);
    const created = (await create({ email: 'later@bookmaker.test', password: STAFF_PASSWORD, role: 'trader' })).body
      .staff;
    const response = await list();
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.staff.map((view: { email: string }) => view.email),
      ['later@bookmaker.test', 'admin@bookmaker.test'],
    );
    for (const view of response.body.staff) assert.deepEqual(Object.keys(view), VIEW_KEYS);
    const mine = response.body.staff[1];
    assert.deepEqual([mine.enrolled, mine.lastLoginAt, mine.status], [true, mine.createdAt, 'active']);
    assert.deepEqual(response.body.staff[0], created);
    assert.equal(response.body.nextCursor, '');
    const text = response.text;
    for (const secret of [admin.totpSecret, admin.token, STAFF_PASSWORD, 'scrypt$']) assert.ok(!text.includes(secret));
  });

  it('filters by role, tenant, status and part of the e-mail, any case', async () => {
    const tenant = await createTenant(t, admin.token);
    await create({
      email: 'ops.one@casino.example',
      password: STAFF_PASSWORD,
      role: 'operator',
      tenantId: tenant.tenantId,
    });
    const trader = (await create({ email: 'odds@bookmaker.test', password: STAFF_PASSWORD, role: 'trader' })).body
      .staff;
    await act(trader.id, 'disable');
    const emails = async (query: string) => (await list(query)).body.staff.map((view: { email: string }) => view.email);
    assert.deepEqual(await emails('role=operator'), ['ops.one@casino.example']);
    assert.deepEqual(await emails(`tenantId=${tenant.tenantId}`), ['ops.one@casino.example']);
    assert.deepEqual(await emails('status=disabled'), ['odds@bookmaker.test']);
    assert.deepEqual(await emails('q=CASINO'), ['ops.one@casino.example']);
    assert.deepEqual(await emails('q=%25'), [], 'no wildcard');
    assert.deepEqual(await emails('q=bookmaker&status=active'), ['admin@bookmaker.test']);
  });

  it('pages with a cursor: limit 1 and 100 accepted; 0, 101, a forged cursor or an unknown parameter refused', async () => {
    for (let i = 0; i < 3; i++) {
      t.clock.advance(1000);
      await create({ email: `s${i}@bookmaker.test`, password: STAFF_PASSWORD, role: 'trader' });
    }
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await list(`limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.status, 200);
      assert.equal(page.body.staff.length, 1);
      seen.push(page.body.staff[0].email);
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['s2@bookmaker.test', 's1@bookmaker.test', 's0@bookmaker.test', 'admin@bookmaker.test']);
    assert.equal((await list('limit=100')).body.staff.length, 4);
    for (const query of [
      'limit=0',
      'limit=101',
      'cursor=abc',
      `cursor=${'x'.repeat(101)}`,
      'role=root',
      'status=locked',
      'other=1',
      'q=',
      'q=a%00b',
      `q=${'x'.repeat(255)}`,
    ]) {
      const response = await list(query);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
    // A lone surrogate cannot be percent-encoded as UTF-8: its bytes are a malformed URL, refused before the route.
    const surrogate = await list('q=%ED%A0%80');
    assert.deepEqual([surrogate.status, surrogate.body.error.code], [400, 'malformed_url']);
  });

  it('order=oldest pages from the first account created; any other order is refused', async () => {
    for (let i = 0; i < 2; i++) {
      t.clock.advance(1000);
      await create({ email: `s${i}@bookmaker.test`, password: STAFF_PASSWORD, role: 'trader' });
    }
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await list(`order=oldest&limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(page.body.staff[0].email);
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, ['admin@bookmaker.test', 's0@bookmaker.test', 's1@bookmaker.test']);
    const refused = await list('order=alphabetical');
    assert.deepEqual([refused.status, refused.body.error.code], [400, 'validation']);
  });
});

describe('disabling and enabling an account', () => {
  it('disabling ends its sessions and its log-ins; enabling lets it sign in again; each is audited once', async () => {
    const trader = await loginAsStaff(t, 'trader');
    const disabled = await act(trader.id, 'disable', { reason: 'left the company' });
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.staff.status, 'disabled');
    const ended = await me(trader.token);
    assert.deepEqual(
      [ended.status, ended.body.error.code, ended.body.error.details],
      [401, 'session_expired', { reason: 'revoked' }],
    );
    const login = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: trader.email, password: STAFF_PASSWORD, totp: totpCode(trader.totpSecret, t.clock.now()) },
    });
    assert.deepEqual([login.status, login.body.error.code], [401, 'invalid_credentials']);

    assert.equal((await act(trader.id, 'disable')).status, 200, 'already disabled: nothing to do');
    const rows = await auditRows('staff.disable');
    assert.deepEqual(
      rows.map((row) => [row.actor_id, row.target_id, row.details]),
      [
        [
          admin.id,
          trader.id,
          { email: trader.email, role: 'trader', tenantId: null, reason: 'left the company', sessionsEnded: 1 },
        ],
      ],
    );

    const enabled = await act(trader.id, 'enable');
    assert.deepEqual([enabled.status, enabled.body.staff.status], [200, 'active']);
    t.clock.advance(30_000);
    const again = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: trader.email, password: STAFF_PASSWORD, totp: totpCode(trader.totpSecret, t.clock.now()) },
    });
    assert.equal(again.status, 200, again.text);
    assert.equal((await auditRows('staff.enable')).length, 1);
    assert.equal((await act(trader.id, 'enable')).status, 200);
    assert.equal((await auditRows('staff.enable')).length, 1, 'already enabled: nothing audited');
  });

  it('a platform administrator cannot disable their own account', async () => {
    const response = await act(admin.id, 'disable');
    assert.deepEqual(response.body, {
      error: {
        code: 'cannot_disable_self',
        message: 'You cannot disable your own account; ask another administrator.',
      },
    });
    assert.equal(response.status, 409);
    assert.equal((await me(admin.token)).status, 200);
  });

  it('the last enabled platform administrator cannot be disabled, even by two disabling each other at once', async () => {
    const other = await loginAsStaff(t, 'platform_admin');
    const answers = await Promise.all([act(other.id, 'disable'), act(admin.id, 'disable', {}, other.token)]);
    const outcomes = answers.map((answer) => [answer.status, answer.body.error?.code ?? null]);
    assert.ok(
      outcomes.some(([status]) => status === 200),
      JSON.stringify(outcomes),
    );
    assert.ok(
      outcomes.some(
        ([status, code]) =>
          (status === 409 && code === 'last_platform_admin') || (status === 401 && code === 'session_expired'),
      ),
      JSON.stringify(outcomes),
    );
    // Asked by whoever is still enabled: on PostgreSQL either disabling may win.
    const adminDisabled = answers[1].status === 200;
    const enabled = await list('role=platform_admin&status=active', adminDisabled ? other.token : admin.token);
    assert.equal(enabled.status, 200, enabled.text);
    assert.equal(enabled.body.staff.length, 1);

    // Whoever is left is the last one: the rule holds whatever the caller's own state.
    const [last] = enabled.body.staff;
    const gone = last.id === admin.id ? other : admin;
    const caller = {
      staff: {
        id: gone.id,
        email: gone.email,
        role: 'platform_admin' as const,
        tenantId: null,
        sessionExpiresAt: t.clock.now(),
        idleExpiresAt: t.clock.now(),
      },
      ip: '127.0.0.1',
    };
    await assert.rejects(
      t.app.services.staffAccounts.disable(caller, last.id, undefined),
      (error: { code: string; status: number }) => error.code === 'last_platform_admin' && error.status === 409,
    );
  });

  it('answers 404 for an unknown account and refuses a bad body', async () => {
    for (const action of ['disable', 'enable', 'reset-totp'] as const) {
      const unknown = await act('00000000-0000-0000-0000-000000000000', action);
      assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
      for (const body of [
        { other: 1 },
        { reason: '' },
        { reason: ' padded' },
        { reason: 'x'.repeat(501) },
        { reason: 'a\u0000b' },
      ]) {
        const response = await act(admin.id, action, body);
        assert.deepEqual(
          [response.status, response.body.error.code],
          [400, 'validation'],
          `${action} ${JSON.stringify(body)}`,
        );
      }
    }
    const tooLong = await t.request('POST', `${BASE}/${'x'.repeat(65)}/disable`, { token: admin.token, body: {} });
    assert.deepEqual([tooLong.status, tooLong.body.error.details.field], [400, 'id']);
  });

  it('shows an account locked by failed log-ins until the lock ends', async () => {
    const trader = await loginAsStaff(t, 'trader');
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      await t.request('POST', '/api/v1/admin/auth/login', {
        body: { email: trader.email, password: 'wrong password!' },
      });
    }
    const view = async () =>
      (await list('role=trader')).body.staff.find((s: { id: string }) => s.id === trader.id).lockedUntil;
    assert.equal(await view(), new Date(t.clock.now().getTime() + LOCKOUT_MS).toISOString());
    t.clock.advance(LOCKOUT_MS);
    admin = await loginAsStaff(t, 'platform_admin');
    assert.equal(await view(), null);
  });
});

describe('resetting an authenticator', () => {
  it('ends the sessions; the next sign-in enrols a new secret and the old codes never work again', async () => {
    const trader = await loginAsStaff(t, 'trader');
    const reset = await act(trader.id, 'reset-totp', { reason: 'lost phone' });
    assert.equal(reset.status, 200);
    assert.deepEqual([reset.body.staff.enrolled, reset.body.staff.enrolledAt], [false, null]);
    const ended = await me(trader.token);
    assert.deepEqual([ended.status, ended.body.error.details], [401, { reason: 'revoked' }]);

    t.clock.advance(30_000);
    const withOldCode = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: trader.email, password: STAFF_PASSWORD, totp: totpCode(trader.totpSecret, t.clock.now()) },
    });
    assert.deepEqual([withOldCode.status, withOldCode.body.error.code], [401, 'invalid_credentials']);
    const login = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: trader.email, password: STAFF_PASSWORD },
    });
    assert.notEqual(login.body.enrolment.secret, trader.totpSecret);
    const enrolled = await t.request('POST', '/api/v1/admin/auth/enrol', {
      body: {
        enrolmentToken: login.body.enrolment.enrolmentToken,
        totp: totpCode(login.body.enrolment.secret, t.clock.now()),
      },
    });
    assert.equal(enrolled.status, 200, enrolled.text);

    const rows = await auditRows('staff.totp.reset');
    assert.deepEqual(
      rows.map((row) => [row.actor_id, row.target_id, row.details]),
      [
        [
          admin.id,
          trader.id,
          { email: trader.email, role: 'trader', tenantId: null, reason: 'lost phone', sessionsEnded: 1 },
        ],
      ],
    );
    const everything = JSON.stringify(await t.db.selectFrom('audit_log').selectAll().execute());
    for (const secret of [trader.totpSecret, login.body.enrolment.secret, enrolled.body.token]) {
      assert.ok(!everything.includes(secret));
      assert.ok(!t.logs.text.includes(secret));
    }
  });
});
