import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { LOCKOUT_MS, LOGIN_FAILURE_LIMIT } from '../../src/staff/attempts.ts';
import { STAFF_IDLE_TIMEOUT_MS, STAFF_TOKEN_TTL_MS } from '../../src/staff/sessions.ts';
import { hashPassword, PASSWORD_COST, verifyPassword } from '../../src/staff/password.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { STAFF_PASSWORD, TEST_PASSWORD_COST, loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(() => t.reset());

const EMAIL = 'trader@bookmaker.test';

async function createTrader() {
  return t.app.services.staff.create({ email: EMAIL, password: STAFF_PASSWORD, role: 'trader' });
}

function login(body: { email?: string; password?: string; totp: string }) {
  return t.request('POST', '/api/v1/admin/auth/login', {
    body: { email: EMAIL, password: STAFF_PASSWORD, ...body },
  });
}

const stepMs = 30_000;
const code = (secret: string, offsetMs = 0) => totpCode(secret, new Date(t.clock.now().getTime() + offsetMs));

async function auditRows(action: string) {
  return t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

const INVALID = { error: { code: 'invalid_credentials', message: 'E-mail, password or authenticator code is wrong.' } };

describe('passwords', () => {
  it("are hashed with scrypt at production's cost (N=2^15, r=8, p=1) unless told otherwise; each hash records its own", async () => {
    assert.deepEqual(PASSWORD_COST, { N: 32_768, r: 8, p: 1 });
    const hash = await hashPassword(STAFF_PASSWORD);
    assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    assert.equal(await verifyPassword(STAFF_PASSWORD, hash), true);
    assert.equal(await verifyPassword(`${STAFF_PASSWORD}!`, hash), false);
    const cheap = await hashPassword(STAFF_PASSWORD, TEST_PASSWORD_COST);
    assert.match(cheap, /^scrypt\$2\$1\$1\$/, "the tests' throwaway accounts, verified at the cost they record");
    assert.equal(await verifyPassword(STAFF_PASSWORD, cheap), true);
  });
});

describe('staff login', () => {
  it('returns an opaque staff token valid for 12 hours', async () => {
    const { totpSecret } = await createTrader();
    const response = await login({ totp: code(totpSecret) });
    assert.equal(response.status, 200);
    assert.match(response.body.token, /^bm_staff_[A-Za-z0-9_-]{43}$/);
    assert.equal(response.body.expiresAt, new Date(t.clock.now().getTime() + STAFF_TOKEN_TTL_MS).toISOString());
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });

  it('GET /api/v1/admin/me accepts the token and describes the account', async () => {
    const created = await createTrader();
    const { body } = await login({ totp: code(created.totpSecret) });
    const me = await t.request('GET', '/api/v1/admin/me', { token: body.token });
    assert.equal(me.status, 200);
    assert.deepEqual(me.body, {
      staff: {
        id: created.id,
        email: EMAIL,
        role: 'trader',
        tenantId: null,
        sessionExpiresAt: body.expiresAt,
        idleExpiresAt: new Date(t.clock.now().getTime() + STAFF_IDLE_TIMEOUT_MS).toISOString(),
        idleTimeoutSeconds: 1800,
      },
    });
  });

  it('stores only the SHA-256 hash of the token, and the TOTP secret encrypted', async () => {
    const created = await createTrader();
    const { body } = await login({ totp: code(created.totpSecret) });
    const tokens = await t.db.selectFrom('staff_tokens').selectAll().execute();
    assert.deepEqual(
      tokens.map((row) => row.token_hash),
      [sha256Hex(body.token)],
    );
    const dump = JSON.stringify(await t.db.selectFrom('staff_users').selectAll().execute());
    assert.ok(!dump.includes(body.token));
    assert.ok(!dump.includes(created.totpSecret));
    assert.ok(!dump.includes(STAFF_PASSWORD));
  });

  it('e-mail is matched case-insensitively', async () => {
    const { totpSecret } = await createTrader();
    assert.equal((await login({ email: 'Trader@Bookmaker.TEST', totp: code(totpSecret) })).status, 200);
  });

  it('refuses a wrong password with 401 invalid_credentials', async () => {
    const { totpSecret } = await createTrader();
    const response = await login({ password: 'wrong password!', totp: code(totpSecret) });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, INVALID);
  });

  it('refuses an unknown e-mail with the same answer as a wrong password', async () => {
    const response = await login({ email: 'nobody@bookmaker.test', totp: '123456' });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, INVALID);
  });

  it('refuses a wrong TOTP code', async () => {
    const { totpSecret } = await createTrader();
    const right = code(totpSecret);
    const wrong = right === '000000' ? '000001' : '000000';
    const response = await login({ totp: wrong });
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, INVALID);
  });

  it('refuses a TOTP code used once already', async () => {
    const { totpSecret } = await createTrader();
    const used = code(totpSecret);
    assert.equal((await login({ totp: used })).status, 200);
    const replay = await login({ totp: used });
    assert.equal(replay.status, 401);
    assert.deepEqual(replay.body, INVALID);
  });

  it('refuses an older code once a newer one was used', async () => {
    const { totpSecret } = await createTrader();
    const previous = code(totpSecret, -stepMs);
    assert.equal((await login({ totp: code(totpSecret) })).status, 200);
    assert.equal((await login({ totp: previous })).status, 401);
  });

  it('accepts one step of clock drift either way, not two', async () => {
    const { totpSecret } = await createTrader();
    assert.equal((await login({ totp: code(totpSecret, -stepMs) })).status, 200);
    assert.equal((await login({ totp: code(totpSecret, stepMs) })).status, 200);
    t.clock.advance(10 * stepMs);
    assert.equal((await login({ totp: code(totpSecret, 2 * stepMs) })).status, 401);
    assert.equal((await login({ totp: code(totpSecret, -2 * stepMs) })).status, 401);
  });

  it('lets exactly one of two concurrent logins with the same code through', async () => {
    const { totpSecret } = await createTrader();
    const same = code(totpSecret);
    const results = await Promise.all([login({ totp: same }), login({ totp: same })]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 401]);
  });

  it(`locks the account after ${LOGIN_FAILURE_LIMIT} failures, even for the right credentials, then unlocks`, async () => {
    const { totpSecret } = await createTrader();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) {
      assert.equal((await login({ password: 'wrong password!', totp: code(totpSecret) })).status, 401);
    }
    const locked = await login({ totp: code(totpSecret) });
    assert.equal(locked.status, 429);
    assert.equal(locked.body.error.code, 'account_locked');
    assert.equal(locked.headers.get('retry-after'), String(LOCKOUT_MS / 1000));
    assert.deepEqual(locked.body.error.details, { retryAfterSeconds: LOCKOUT_MS / 1000 });

    t.clock.advance(LOCKOUT_MS - 1000);
    assert.equal((await login({ totp: code(totpSecret) })).status, 429);
    t.clock.advance(1000);
    assert.equal((await login({ totp: code(totpSecret) })).status, 200);
  });

  it('parallel guesses cannot run past the limit: only the first attempts are checked', async () => {
    await createTrader();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => login({ password: 'wrong password!', totp: '000000' })),
    );
    assert.equal(results.filter((r) => r.status === 401).length, LOGIN_FAILURE_LIMIT);
    assert.equal(results.filter((r) => r.status === 429).length, 20 - LOGIN_FAILURE_LIMIT);
    const rows = await auditRows('staff.login');
    assert.equal(rows.filter((row) => row.details.reason === 'wrong_password').length, LOGIN_FAILURE_LIMIT);
    assert.equal(rows.filter((row) => row.details.reason === 'locked').length, 20 - LOGIN_FAILURE_LIMIT);
  });

  it('counts wrong TOTP codes toward the lockout too', async () => {
    const { totpSecret } = await createTrader();
    const wrong = code(totpSecret) === '000000' ? '000001' : '000000';
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) assert.equal((await login({ totp: wrong })).status, 401);
    assert.equal((await login({ totp: code(totpSecret) })).status, 429);
  });

  it('a success resets the failure count', async () => {
    const { totpSecret } = await createTrader();
    for (let i = 0; i < LOGIN_FAILURE_LIMIT - 1; i++) await login({ password: 'wrong password!', totp: '000000' });
    assert.equal((await login({ totp: code(totpSecret) })).status, 200);
    t.clock.advance(stepMs);
    await login({ password: 'wrong password!', totp: '000000' });
    assert.equal((await login({ totp: code(totpSecret) })).status, 200);
  });

  it('audits every attempt with its real reason and the caller IP', async () => {
    const created = await createTrader();
    await login({ email: 'nobody@bookmaker.test', totp: '123456' });
    await login({ password: 'wrong password!', totp: '123456' });
    const used = code(created.totpSecret);
    await login({ totp: used });
    await login({ totp: used });
    const rows = await auditRows('staff.login');
    assert.deepEqual(
      rows.map((row) => [row.outcome, row.details.reason ?? null, row.ip]),
      [
        ['failure', 'unknown_email', '127.0.0.1'],
        ['failure', 'wrong_password', '127.0.0.1'],
        ['success', null, '127.0.0.1'],
        ['failure', 'totp_reused', '127.0.0.1'],
      ],
    );
    assert.equal(rows[2]!.actor_type, 'staff');
    assert.equal(rows[2]!.actor_id, created.id);
    assert.deepEqual(rows[2]!.occurred_at, t.clock.now());
    assert.ok(!JSON.stringify(rows).includes(STAFF_PASSWORD));
  });
});

describe('staff tokens', () => {
  it('logout ends the token: 204, then 401 with it', async () => {
    const staff = await loginAsStaff(t);
    const logout = await t.request('POST', '/api/v1/admin/auth/logout', { token: staff.token });
    assert.equal(logout.status, 204);
    assert.equal(logout.text, '');
    const me = await t.request('GET', '/api/v1/admin/me', { token: staff.token });
    assert.equal(me.status, 401);
    assert.deepEqual(me.body.error, {
      code: 'session_expired',
      message: 'The staff session was ended (logged out, account disabled or authenticator reset); sign in again.',
      details: { reason: 'revoked' },
    });
    const audit = await auditRows('staff.logout');
    assert.deepEqual(
      audit.map((row) => [row.actor_id, row.outcome]),
      [[staff.id, 'success']],
    );
  });

  it('expires 12 hours after login, however busy it is', async () => {
    const staff = await loginAsStaff(t);
    const end = t.clock.now().getTime() + STAFF_TOKEN_TTL_MS;
    while (t.clock.now().getTime() + 25 * 60_000 < end) {
      t.clock.advance(25 * 60_000);
      assert.equal((await t.request('GET', '/api/v1/admin/me', { token: staff.token })).status, 200);
    }
    t.clock.set(new Date(end - 1000));
    const last = await t.request('GET', '/api/v1/admin/me', { token: staff.token });
    assert.equal(last.status, 200);
    assert.equal(last.body.staff.idleExpiresAt, new Date(end).toISOString(), 'the idle end never passes the lifetime');
    t.clock.advance(1000);
    const expired = await t.request('GET', '/api/v1/admin/me', { token: staff.token });
    assert.deepEqual(
      [expired.status, expired.body.error.code, expired.body.error.details],
      [401, 'session_expired', { reason: 'expired' }],
    );
  });

  it('is accepted only as Authorization: Bearer', async () => {
    const staff = await loginAsStaff(t);
    const cases: { headers: Record<string, string> }[] = [
      { headers: {} },
      { headers: { authorization: `Basic ${staff.token}` } },
      { headers: { authorization: staff.token } },
      { headers: { 'x-api-key': staff.token } },
      { headers: { cookie: `token=${staff.token}` } },
    ];
    for (const options of cases) {
      const response = await t.request('GET', `/api/v1/admin/me?token=${staff.token}`, options);
      assert.equal(response.status, 401, JSON.stringify(Object.keys(options.headers)));
      assert.equal(response.body.error.code, 'unauthorized');
    }
  });

  it('refuses a token of another kind or an unknown one, saying it is invalid rather than missing', async () => {
    for (const token of ['bm_int_' + 'a'.repeat(43), 'bm_staff_' + 'a'.repeat(43), 'bm_staff_short']) {
      const response = await t.request('GET', '/api/v1/admin/me', { token });
      assert.deepEqual(response.body.error, {
        code: 'unauthorized',
        message: 'The staff token is invalid, expired or logged out.',
      });
      assert.equal(response.status, 401);
    }
    const missing = await t.request('GET', '/api/v1/admin/me');
    assert.equal(missing.body.error.message, 'A staff token is required (Authorization: Bearer).');
  });

  it('stale tokens are purged a day after they expire, idle out or are revoked, live ones are kept', async () => {
    const expired = await loginAsStaff(t);
    t.clock.advance(STAFF_TOKEN_TTL_MS + 24 * 60 * 60 * 1000 + 1000);
    const idle = await loginAsStaff(t);
    t.clock.advance(STAFF_IDLE_TIMEOUT_MS + 24 * 60 * 60 * 1000 + 1000);
    const live = await loginAsStaff(t);
    assert.equal(await t.app.services.staff.purgeStaleTokens(), 2);
    assert.notEqual(idle.token, live.token);
    const left = await t.db.selectFrom('staff_tokens').select('token_hash').execute();
    assert.deepEqual(
      left.map((row) => row.token_hash),
      [sha256Hex(live.token)],
    );
    assert.notEqual(expired.token, live.token);
  });
});

describe('staff accounts', () => {
  it('refuse a second account with the same e-mail (any case)', async () => {
    await createTrader();
    await assert.rejects(
      t.app.services.staff.create({ email: EMAIL.toUpperCase(), password: STAFF_PASSWORD, role: 'trader' }),
      (error: { code: string; status: number }) => error.code === 'staff_exists' && error.status === 409,
    );
  });

  it('bind operators to exactly one tenant and other roles to none', async () => {
    const staff = t.app.services.staff;
    const base = { password: STAFF_PASSWORD };
    await assert.rejects(staff.create({ ...base, email: 'o@bookmaker.test', role: 'operator' }), /one tenant/);
    await assert.rejects(
      staff.create({ ...base, email: 'p@bookmaker.test', role: 'platform_admin', tenantId: 't1' }),
      /one tenant/,
    );
    const operator = await staff.create({ ...base, email: 'o@bookmaker.test', role: 'operator', tenantId: 'tenant-1' });
    assert.equal(operator.tenantId, 'tenant-1');
  });

  it('refuse unknown roles, bad e-mails and short passwords', async () => {
    const staff = t.app.services.staff;
    await assert.rejects(staff.create({ email: 'x@bookmaker.test', password: STAFF_PASSWORD, role: 'root' }), /role/);
    await assert.rejects(staff.create({ email: 'not-an-email', password: STAFF_PASSWORD, role: 'trader' }), /e-mail/);
    await assert.rejects(
      staff.create({ email: 'x@bookmaker.test', password: 'elevenchars', role: 'trader' }),
      /password/,
    );
    await staff.create({ email: 'x@bookmaker.test', password: 'twelve chars', role: 'trader' });
  });
});
