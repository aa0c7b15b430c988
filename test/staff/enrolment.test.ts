import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { LOCKOUT_MS, LOGIN_FAILURE_LIMIT } from '../../src/staff/attempts.ts';
import { ENROLMENT_TTL_MS } from '../../src/staff/enrolment.ts';
import { STAFF_IDLE_TIMEOUT_MS, STAFF_TOKEN_TTL_MS } from '../../src/staff/sessions.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { STAFF_PASSWORD, loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(() => t.reset());

const EMAIL = 'new.operator@bookmaker.test';
const INVALID = { error: { code: 'invalid_credentials', message: 'E-mail, password or authenticator code is wrong.' } };

function createPending(email = EMAIL) {
  return t.app.services.staff.createForEnrolment({ email, password: STAFF_PASSWORD, role: 'trader' });
}

function login(body: Record<string, unknown>) {
  return t.request('POST', '/api/v1/admin/auth/login', { body: { email: EMAIL, password: STAFF_PASSWORD, ...body } });
}

function enrol(body: Record<string, unknown>) {
  return t.request('POST', '/api/v1/admin/auth/enrol', { body });
}

const code = (secret: string, offsetMs = 0) => totpCode(secret, new Date(t.clock.now().getTime() + offsetMs));
const wrong = (secret: string) => (code(secret) === '000000' ? '000001' : '000000');

async function auditRows(action: string) {
  return t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

async function startEnrolment() {
  const response = await login({});
  assert.equal(response.status, 200, response.text);
  return response.body.enrolment as { enrolmentToken: string; secret: string; otpauthUrl: string; expiresAt: string };
}

describe('enrolment at first sign-in', () => {
  it('a new account signs in without a code and gets its enrolment: token, fresh secret, otpauth URL, expiry', async () => {
    await createPending();
    const response = await login({});
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.deepEqual(Object.keys(response.body), ['enrolment']);
    const { enrolment } = response.body;
    assert.deepEqual(Object.keys(enrolment), ['enrolmentToken', 'secret', 'otpauthUrl', 'expiresAt']);
    assert.match(enrolment.enrolmentToken, /^bm_enrol_[A-Za-z0-9_-]{43}$/);
    assert.match(enrolment.secret, /^[A-Z2-7]{32}$/);
    assert.equal(
      enrolment.otpauthUrl,
      `otpauth://totp/Bookmaker:new.operator%40bookmaker.test?issuer=Bookmaker&secret=${enrolment.secret}` +
        '&algorithm=SHA1&digits=6&period=30',
    );
    assert.equal(enrolment.expiresAt, new Date(t.clock.now().getTime() + ENROLMENT_TTL_MS).toISOString());
  });

  it('the first code finishes it: the same answer as a log-in, and the account is enrolled from then on', async () => {
    const created = await createPending();
    assert.equal(created.enrolled, false);
    const enrolment = await startEnrolment();
    const finished = await enrol({ enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) });
    assert.equal(finished.status, 200, finished.text);
    assert.deepEqual(Object.keys(finished.body), ['token', 'expiresAt']);
    assert.match(finished.body.token, /^bm_staff_[A-Za-z0-9_-]{43}$/);
    assert.equal(finished.body.expiresAt, new Date(t.clock.now().getTime() + STAFF_TOKEN_TTL_MS).toISOString());
    const me = await t.request('GET', '/api/v1/admin/me', { token: finished.body.token });
    assert.equal(me.body.staff.id, created.id);

    const row = await t.db.selectFrom('staff_users').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.deepEqual(row.totp_enrolled_at, t.clock.now());
    assert.deepEqual(row.last_login_at, t.clock.now());
    assert.deepEqual(
      [row.enrolment_token_hash, row.enrolment_secret_enc, row.enrolment_expires_at],
      [null, null, null],
    );

    // The code that finished the enrolment is used; the next one signs in, and a code is required again.
    assert.deepEqual((await login({ totp: code(enrolment.secret) })).body, INVALID);
    assert.deepEqual((await login({})).body, INVALID);
    t.clock.advance(30_000);
    assert.equal((await login({ totp: code(enrolment.secret) })).status, 200);
  });

  it('no probing: without the right password, enrolled and new accounts answer exactly as unknown e-mails', async () => {
    await createPending();
    await t.app.services.staff.create({ email: 'enrolled@bookmaker.test', password: STAFF_PASSWORD, role: 'trader' });
    const answers = [
      await login({ password: 'wrong password!' }),
      await login({ email: 'enrolled@bookmaker.test', password: 'wrong password!' }),
      await login({ email: 'nobody@bookmaker.test' }),
      await login({ email: 'enrolled@bookmaker.test' }),
      await login({ totp: '123456' }),
    ];
    for (const answer of answers) assert.deepEqual([answer.status, answer.body], [401, INVALID]);
    const reasons = (await auditRows('staff.login')).map((row) => row.details.reason);
    assert.deepEqual(reasons, ['wrong_password', 'wrong_password', 'unknown_email', 'totp_missing', 'not_enrolled']);
  });

  it('the enrolment token is single use, and two enrolments at once with it give one session', async () => {
    await createPending();
    const enrolment = await startEnrolment();
    const body = { enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) };
    const answers = await Promise.all([enrol(body), enrol(body)]);
    assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 401]);
    const refused = answers.find((answer) => answer.status === 401)!;
    assert.equal(refused.body.error.code, 'enrolment_invalid');
    const again = await enrol(body);
    assert.deepEqual(again.body, {
      error: {
        code: 'enrolment_invalid',
        message: 'The enrolment token is unknown, used or replaced by a newer sign-in; sign in again.',
        details: { reason: 'unknown' },
      },
    });
    assert.equal(
      await t.db
        .selectFrom('staff_tokens')
        .select('token_hash')
        .execute()
        .then((rows) => rows.length),
      1,
    );
  });

  it('lasts 10 minutes', async () => {
    await createPending();
    const enrolment = await startEnrolment();
    t.clock.advance(ENROLMENT_TTL_MS);
    const late = await enrol({ enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) });
    assert.equal(late.status, 401);
    assert.deepEqual(late.body.error, {
      code: 'enrolment_invalid',
      message: 'The enrolment has expired; sign in again to start a new one.',
      details: { reason: 'expired' },
    });
    t.clock.advance(-1000);
    const inTime = await enrol({ enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) });
    assert.equal(inTime.status, 200, inTime.text);
  });

  it('each sign-in issues a fresh secret and token; the earlier token stops working', async () => {
    await createPending();
    const first = await startEnrolment();
    const second = await startEnrolment();
    assert.notEqual(first.secret, second.secret);
    assert.notEqual(first.enrolmentToken, second.enrolmentToken);
    const stale = await enrol({ enrolmentToken: first.enrolmentToken, totp: code(first.secret) });
    assert.deepEqual([stale.status, stale.body.error.code], [401, 'enrolment_invalid']);
    // The first secret's code does not enrol the second secret.
    const crossed = await enrol({ enrolmentToken: second.enrolmentToken, totp: code(first.secret) });
    assert.deepEqual([crossed.status, crossed.body], [401, INVALID]);
    assert.equal((await enrol({ enrolmentToken: second.enrolmentToken, totp: code(second.secret) })).status, 200);
  });

  it(`wrong codes count toward the log-in lockout (${LOGIN_FAILURE_LIMIT} lock the account)`, async () => {
    await createPending();
    const enrolment = await startEnrolment();
    const body = { enrolmentToken: enrolment.enrolmentToken, totp: wrong(enrolment.secret) };
    for (let i = 0; i < LOGIN_FAILURE_LIMIT; i++) assert.deepEqual((await enrol(body)).body, INVALID);
    const locked = await enrol({ enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) });
    assert.deepEqual(
      [locked.status, locked.body.error.code, locked.headers.get('retry-after')],
      [429, 'account_locked', String(LOCKOUT_MS / 1000)],
    );
    assert.equal((await login({})).status, 429);
    const reasons = (await auditRows('staff.enrol')).map((row) => [row.outcome, row.details.reason]);
    assert.deepEqual(reasons, [...Array(LOGIN_FAILURE_LIMIT).fill(['failure', 'wrong_totp']), ['denied', 'locked']]);
  });

  it('stores the token hashed and the secret encrypted, and neither reaches the logs or the audit trail', async () => {
    const created = await createPending();
    const enrolment = await startEnrolment();
    const row = await t.db.selectFrom('staff_users').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.equal(row.enrolment_token_hash, sha256Hex(enrolment.enrolmentToken));
    assert.match(row.enrolment_secret_enc!, /^v1\./);
    const finished = await enrol({ enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) });
    const dump = JSON.stringify([
      await t.db.selectFrom('staff_users').selectAll().execute(),
      await t.db.selectFrom('audit_log').selectAll().execute(),
    ]);
    for (const secret of [enrolment.enrolmentToken, enrolment.secret, finished.body.token, STAFF_PASSWORD]) {
      assert.ok(!dump.includes(secret), `stored: ${secret.slice(0, 12)}…`);
      assert.ok(!t.logs.text.includes(secret), `logged: ${secret.slice(0, 12)}…`);
    }
    assert.deepEqual(
      (await auditRows('staff.login')).map((r) => [r.outcome, r.details]),
      [['success', { next: 'enrol', enrolmentExpiresAt: enrolment.expiresAt }]],
    );
    assert.deepEqual(
      (await auditRows('staff.enrol')).map((r) => [r.outcome, r.actor_type, r.actor_id]),
      [['success', 'staff', created.id]],
    );
  });

  it('refuses a bad enrol body with 400 validation: unknown field, missing or malformed code, bounds, bad text', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ enrolmentToken: 'bm_enrol_x', totp: '123456', email: 'x@bookmaker.test' }, 'email'],
      [{ enrolmentToken: 'bm_enrol_x' }, 'totp'],
      [{ enrolmentToken: 'bm_enrol_x', totp: '12345' }, 'totp'],
      [{ enrolmentToken: 'bm_enrol_x', totp: 123456 }, 'totp'],
      [{ enrolmentToken: '', totp: '123456' }, 'enrolmentToken'],
      [{ enrolmentToken: 'x'.repeat(101), totp: '123456' }, 'enrolmentToken'],
      [{ enrolmentToken: 'bm_enrol_\u0000', totp: '123456' }, 'enrolmentToken'],
      [{ enrolmentToken: 'bm_enrol_\ud800', totp: '123456' }, 'enrolmentToken'],
    ];
    for (const [body, field] of cases) {
      const response = await enrol(body);
      assert.deepEqual(
        [response.status, response.body.error.code, response.body.error.details.field],
        [400, 'validation', field],
      );
    }
    const atBound = await enrol({ enrolmentToken: 'x'.repeat(100), totp: '123456' });
    assert.deepEqual([atBound.status, atBound.body.error.code], [401, 'enrolment_invalid']);
  });

  it('a disabled account cannot finish an enrolment it started', async () => {
    const created = await createPending();
    const enrolment = await startEnrolment();
    const admin = await loginAsStaff(t);
    const disabled = await t.request('POST', `/api/v1/admin/staff/${created.id}/disable`, {
      token: admin.token,
      body: {},
    });
    assert.equal(disabled.status, 200);
    const late = await enrol({ enrolmentToken: enrolment.enrolmentToken, totp: code(enrolment.secret) });
    assert.deepEqual([late.status, late.body.error.code], [401, 'enrolment_invalid']);
    assert.deepEqual((await login({})).body, INVALID);
  });
});

describe('idle staff sessions', () => {
  it(`end after ${STAFF_IDLE_TIMEOUT_MS / 60_000} minutes without a request, with a code that says so`, async () => {
    const staff = await loginAsStaff(t);
    t.clock.advance(STAFF_IDLE_TIMEOUT_MS - 1000);
    assert.equal((await t.request('GET', '/api/v1/admin/me', { token: staff.token })).status, 200);
    t.clock.advance(STAFF_IDLE_TIMEOUT_MS - 1000);
    assert.equal((await t.request('GET', '/api/v1/admin/me', { token: staff.token })).status, 200, 'kept alive');
    t.clock.advance(STAFF_IDLE_TIMEOUT_MS);
    const idle = await t.request('GET', '/api/v1/admin/me', { token: staff.token });
    assert.equal(idle.status, 401);
    assert.deepEqual(idle.body, {
      error: {
        code: 'session_expired',
        message: 'The staff session ended after 30 minutes without a request; sign in again.',
        details: { reason: 'idle' },
      },
    });
    // Any guarded route says the same.
    const other = await t.request('GET', '/api/v1/admin/aggregators', { token: staff.token });
    assert.deepEqual([other.status, other.body.error.details], [401, { reason: 'idle' }]);
    const logout = await t.request('POST', '/api/v1/admin/auth/logout', { token: staff.token });
    assert.deepEqual([logout.status, logout.body.error.code], [401, 'session_expired']);
  });

  it('records the last use at most once a minute, and GET /me says when the session would idle out', async () => {
    const staff = await loginAsStaff(t);
    const created = t.clock.now();
    const lastUsed = async () =>
      (await t.db.selectFrom('staff_tokens').select('last_used_at').executeTakeFirstOrThrow()).last_used_at;
    const me = () => t.request('GET', '/api/v1/admin/me', { token: staff.token });

    t.clock.advance(59_000);
    assert.equal(
      (await me()).body.staff.idleExpiresAt,
      new Date(created.getTime() + STAFF_IDLE_TIMEOUT_MS).toISOString(),
    );
    assert.deepEqual(await lastUsed(), created, 'not written within the minute');
    t.clock.advance(1_000);
    const touched = t.clock.now();
    const answer = await me();
    assert.deepEqual(await lastUsed(), touched);
    assert.equal(answer.body.staff.idleExpiresAt, new Date(touched.getTime() + STAFF_IDLE_TIMEOUT_MS).toISOString());
    assert.equal(answer.body.staff.idleTimeoutSeconds, STAFF_IDLE_TIMEOUT_MS / 1000);
  });
});
