import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, exchange, openSession, type TestTenant } from '../helpers/tenant.ts';

let t: TestApp;
let admin: string;
let br: TestTenant;
let row: TestTenant;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  br = await createTenant(t, admin);
  row = await createTenant(t, admin, { name: 'World Casino', currency: 'USD', locale: 'en', jurisdiction: 'ROW' });
});

const MINUTE = 60_000;
const session = (tenant = br) =>
  openSession(t, tenant, { externalPlayerId: 'p-1', displayName: 'Ana' }).then((r) => r.body);
const me = (token: string) => t.request('GET', '/api/v1/session', { token });

describe('POST /api/v1/integration/launch', () => {
  it('exchanges the launch token for a session token and the player', async () => {
    const opened = await session();
    const response = await exchange(t, br.tenantId, opened.launchToken);
    assert.equal(response.status, 200);
    assert.match(response.body.token, /^bm_sess_/);
    assert.notEqual(response.body.token, opened.token, 'the iframe gets its own token for the same session');
    assert.deepEqual(response.body.player, opened.player);
    const info = await me(response.body.token);
    assert.equal(info.status, 200);
    assert.equal(info.body.player.id, opened.player.id);
    assert.equal(
      (await t.db.selectFrom('launch_tokens').select('used_at').executeTakeFirstOrThrow()).used_at?.toISOString(),
      t.clock.now().toISOString(),
    );
    assert.ok(
      !JSON.stringify(await t.db.selectFrom('session_tokens').selectAll().execute()).includes(response.body.token),
    );
  });

  it('401 launch_token_used on a second exchange, and the replay is audited', async () => {
    const opened = await session();
    await exchange(t, br.tenantId, opened.launchToken);
    const replay = await exchange(t, br.tenantId, opened.launchToken);
    assert.equal(replay.status, 401);
    assert.equal(replay.body.error.code, 'launch_token_used');
    assert.deepEqual(replay.body.error.details, { reason: 'already_used' });
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'integration.launch.replay')
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.ip, '127.0.0.1');
  });

  it('works up to 120 s after issue and answers 401 launch_token_expired after that', async () => {
    const early = await session();
    const late = await session();
    t.clock.advance(120_000);
    assert.equal((await exchange(t, br.tenantId, early.launchToken)).status, 200);
    t.clock.advance(1);
    const expired = await exchange(t, br.tenantId, late.launchToken);
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error.code, 'launch_token_expired');
    assert.deepEqual(expired.body.error.details, { reason: 'expired' });
  });

  it("401 launch_token_invalid for an unknown token and for another tenant's token", async () => {
    const unknown = await exchange(t, br.tenantId, 'bm_launch_unknown');
    assert.deepEqual(
      [unknown.status, unknown.body.error.code, unknown.body.error.details.reason],
      [401, 'launch_token_invalid', 'unknown_token'],
    );
    const opened = await session(row);
    const foreign = await exchange(t, br.tenantId, opened.launchToken);
    assert.deepEqual(
      [foreign.status, foreign.body.error.code, foreign.body.error.details.reason],
      [401, 'launch_token_invalid', 'wrong_tenant'],
    );
    assert.equal(
      (await exchange(t, row.tenantId, opened.launchToken)).status,
      200,
      'the failed attempt did not use it',
    );
  });

  it('401 session_expired when the session ended before the exchange', async () => {
    const opened = await session();
    assert.equal((await t.request('POST', '/api/v1/session/logout', { token: opened.token })).status, 204);
    const response = await exchange(t, br.tenantId, opened.launchToken);
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'session_expired');
  });

  it('of fifty concurrent exchanges of one token exactly one succeeds', async () => {
    const opened = await session();
    const results = await Promise.all(Array.from({ length: 50 }, () => exchange(t, br.tenantId, opened.launchToken)));
    assert.equal(results.filter((r) => r.status === 200).length, 1);
    assert.ok(
      results
        .filter((r) => r.status !== 200)
        .every((r) => r.status === 401 && r.body.error.code === 'launch_token_used'),
    );
    assert.equal(
      (await t.db.selectFrom('session_tokens').select('token_hash').where('issued_to', '=', 'iframe').execute()).length,
      1,
    );
  });

  it('404 for an unknown tenant and 400 without X-Tenant-ID or with an unknown field', async () => {
    const opened = await session();
    assert.equal((await exchange(t, 'tn_unknown', opened.launchToken)).status, 404);
    const noTenant = await t.request('POST', '/api/v1/integration/launch', {
      body: { launchToken: opened.launchToken },
    });
    assert.deepEqual([noTenant.status, noTenant.body.error.details.field], [400, 'x-tenant-id']);
    const extra = await t.request('POST', '/api/v1/integration/launch', {
      body: { launchToken: opened.launchToken, token: 'x' },
      headers: { 'x-tenant-id': br.tenantId },
    });
    assert.deepEqual([extra.status, extra.body.error.details.field], [400, 'token']);
    const tooLong = await exchange(t, br.tenantId, 'x'.repeat(201));
    assert.deepEqual([tooLong.status, tooLong.body.error.details.field], [400, 'launchToken']);
  });
});

describe('player sessions', () => {
  it('ROW tenants: the idle timeout is 60 minutes and every authenticated call counts as activity', async () => {
    const { token } = await session(row);
    t.clock.advance(59 * MINUTE);
    const alive = await me(token);
    assert.equal(alive.status, 200);
    assert.equal(alive.body.session.idleTimeoutMinutes, 60);
    assert.equal(alive.body.session.idleExpiresAt, new Date(t.clock.now().getTime() + 60 * MINUTE).toISOString());
    t.clock.advance(59 * MINUTE);
    assert.equal((await me(token)).status, 200);
    t.clock.advance(60 * MINUTE);
    const idle = await me(token);
    assert.equal(idle.status, 401);
    assert.equal(idle.body.error.code, 'session_expired');
    const ended = await t.db.selectFrom('player_sessions').select(['ended_at', 'end_reason']).executeTakeFirstOrThrow();
    assert.equal(ended.end_reason, 'idle');
  });

  it('BR tenants: the idle timeout is 30 minutes', async () => {
    const { token } = await session(br);
    t.clock.advance(30 * MINUTE - 1000);
    assert.equal((await me(token)).body.session.idleTimeoutMinutes, 30);
    t.clock.advance(30 * MINUTE);
    assert.equal((await me(token)).body.error.code, 'session_expired');
  });

  it('browsing the public config does not count as activity', async () => {
    const { token } = await session(br);
    t.clock.advance(20 * MINUTE);
    assert.equal((await t.request('GET', `/api/v1/config?tenant=${br.tenantId}`)).status, 200);
    t.clock.advance(10 * MINUTE);
    assert.equal((await me(token)).status, 401);
  });

  it('a call the app makes in the background (X-Player-Activity: background) is checked but is not activity', async () => {
    const { token } = await session(br);
    t.clock.advance(20 * MINUTE);
    const polled = await t.request('GET', '/api/v1/bets?status=open', {
      token,
      headers: { 'x-player-activity': 'background' },
    });
    assert.equal(polled.status, 200, polled.text);
    t.clock.advance(10 * MINUTE);
    const background = await t.request('GET', '/api/v1/wallet/balance', {
      token,
      headers: { 'x-player-activity': 'background' },
    });
    assert.deepEqual([background.status, background.body.error.code], [401, 'session_expired']);
  });

  it('records activity at most every 10 s, and says when the session will end without more', async () => {
    const { token } = await session(br);
    const activity = async () =>
      (await t.db.selectFrom('player_sessions').select('last_activity_at').executeTakeFirstOrThrow()).last_activity_at;
    const opened = await activity();
    t.clock.advance(9_000);
    const soon = await me(token);
    assert.equal(soon.body.session.idleExpiresAt, new Date(opened.getTime() + 30 * MINUTE).toISOString());
    assert.deepEqual(await activity(), opened, 'not written again within 10 s');
    t.clock.advance(2_000);
    const later = await me(token);
    assert.equal(later.body.session.idleExpiresAt, new Date(t.clock.now().getTime() + 30 * MINUTE).toISOString());
    assert.deepEqual(await activity(), t.clock.now());
  });

  it('activity through one token of a session keeps it alive for its other tokens', async () => {
    const opened = await session(br);
    const iframe = (await exchange(t, br.tenantId, opened.launchToken)).body.token;
    assert.equal((await me(opened.token)).status, 200);
    t.clock.advance(20 * MINUTE);
    assert.equal((await me(iframe)).status, 200);
    t.clock.advance(20 * MINUTE);
    // 40 minutes after the server token's last call, 20 after the session's last activity: alive (30 min idle).
    assert.equal((await me(opened.token)).status, 200);
    const stored = await t.db.selectFrom('player_sessions').select('ended_at').executeTakeFirstOrThrow();
    assert.equal(stored.ended_at, null);
  });

  it('ends 12 hours after it opened, however active', async () => {
    const { token } = await session(row);
    for (let elapsed = 0; elapsed < 12 * 60 - 50; elapsed += 50) {
      t.clock.advance(50 * MINUTE);
      assert.equal((await me(token)).status, 200, `after ${elapsed + 50} minutes`);
    }
    t.clock.set(new Date(new Date('2026-03-01T12:00:00Z').getTime() + 12 * 60 * MINUTE));
    const expired = await me(token);
    assert.equal(expired.body.error.code, 'session_expired');
    assert.equal(
      (await t.db.selectFrom('player_sessions').select('end_reason').executeTakeFirstOrThrow()).end_reason,
      'expired',
    );
  });

  it('logout ends the session for every token of it, with one code', async () => {
    const opened = await session();
    const iframe = (await exchange(t, br.tenantId, opened.launchToken)).body.token;
    // Both used a moment before: a session remembered as live must end at once all the same.
    assert.deepEqual([(await me(iframe)).status, (await me(opened.token)).status], [200, 200]);
    assert.equal((await t.request('POST', '/api/v1/session/logout', { token: iframe })).status, 204);
    for (const token of [iframe, opened.token]) {
      const response = await me(token);
      assert.deepEqual([response.status, response.body.error.code], [401, 'session_expired']);
    }
    assert.equal(
      (await t.request('POST', '/api/v1/session/logout', { token: iframe })).body.error.code,
      'session_expired',
    );
  });

  it('the session token from the partner server still works as a bearer (deprecated ?token= launch)', async () => {
    const opened = await session();
    assert.equal((await me(opened.token)).status, 200);
  });

  it('refuses unknown tokens, staff tokens and tokens outside the Authorization header', async () => {
    const staff = await loginAsStaff(t, 'platform_admin');
    const opened = await session();
    assert.equal((await me('bm_sess_' + 'x'.repeat(43))).body.error.code, 'unauthorized');
    assert.equal((await me(staff.token)).status, 401);
    assert.equal((await t.request('GET', `/api/v1/session?token=${opened.token}`)).status, 401);
  });

  it('used and expired launch records are deleted a day later by the cleanup job', async () => {
    const used = await session();
    await exchange(t, br.tenantId, used.launchToken);
    await session();
    t.clock.advance(24 * 60 * MINUTE + 2 * MINUTE);
    const fresh = await session();
    assert.equal(await t.app.services.integration.purgeLaunchRecords(), 0, 'kept for a full day after expiry');
    t.clock.advance(MINUTE);
    assert.equal(await t.app.services.integration.purgeLaunchRecords(), 2);
    const left = await t.db.selectFrom('launch_tokens').select('token_hash').execute();
    assert.deepEqual(
      left.map((r) => r.token_hash),
      [sha256Hex(fresh.launchToken)],
    );
  });
});

describe('GET /api/v1/config', () => {
  it('gives the iframe the tenant settings it needs, by ?tenant= or X-Tenant-ID, and no secret', async () => {
    const byQuery = await t.request('GET', `/api/v1/config?tenant=${br.tenantId}`);
    assert.equal(byQuery.status, 200);
    assert.equal(byQuery.headers.get('cache-control'), 'public, max-age=60');
    assert.equal(byQuery.headers.get('vary'), 'X-Tenant-ID');
    assert.deepEqual(byQuery.body, {
      tenant: {
        id: br.tenantId,
        name: 'Sol Casino',
        currency: 'BRL',
        locale: 'pt-BR',
        jurisdiction: 'BR',
        embedOrigins: ['https://www.sol.example'],
        available: true,
      },
      session: { idleTimeoutMinutes: 30, absoluteTimeoutHours: 12 },
      betting: { minStake: 100, maxStake: 1_000_000, maxPayout: 50_000_000 },
      locales: ['en', 'pt-BR', 'es'],
      embed: { sdkUrl: '/embed/v1.js', protocolVersion: 1 },
    });
    const byHeader = await t.request('GET', '/api/v1/config', { headers: { 'x-tenant-id': br.tenantId } });
    assert.deepEqual(byHeader.body, byQuery.body);
    assert.ok(
      !byQuery.text.includes(br.walletSecret) &&
        !byQuery.text.includes(br.apiKey) &&
        !byQuery.text.includes('wallet.sol.example'),
    );
  });

  it('404 for an unknown tenant, 400 with no tenant named', async () => {
    assert.equal((await t.request('GET', '/api/v1/config?tenant=tn_nope')).status, 404);
    assert.equal((await t.request('GET', '/api/v1/config')).status, 400);
  });
});
