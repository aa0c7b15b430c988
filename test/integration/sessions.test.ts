import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, exchange, openSession, type TestTenant } from '../helpers/tenant.ts';
import { createClientBody, setUpAggregator } from '../helpers/aggregator.ts';
import type { WalletPair } from '../helpers/wallet.ts';

let t: TestApp;
let admin: string;
let tenant: TestTenant;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  tenant = await createTenant(t, admin);
});

const CPF = '529.982.247-25';

describe('POST /api/v1/integration/sessions', () => {
  it('opens a session: launch token for 120 s, launch URL, session token and the player record', async () => {
    const response = await openSession(t, tenant, {
      externalPlayerId: 'p-1001',
      displayName: 'Ana',
      path: '/live/soccer',
      locale: 'en',
    });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = response.body;
    assert.match(body.launchToken, /^bm_launch_[A-Za-z0-9_-]{43}$/);
    assert.match(body.token, /^bm_sess_[A-Za-z0-9_-]{43}$/);
    assert.equal(body.launchExpiresAt, new Date(t.clock.now().getTime() + 120_000).toISOString());
    const url = new URL(body.launchUrl);
    assert.equal(url.origin, t.url);
    assert.equal(url.pathname, '/');
    assert.deepEqual(Object.fromEntries(url.searchParams), {
      tenant: tenant.tenantId,
      launch: body.launchToken,
      path: '/live/soccer',
      locale: 'en',
    });
    assert.match(body.player.id, /^pl_[0-9a-f]{16}$/);
    assert.deepEqual(body.player, {
      id: body.player.id,
      tenantId: tenant.tenantId,
      externalId: 'p-1001',
      status: 'active',
      displayName: 'Ana',
      currency: 'BRL',
      kycStatus: 'verified',
      createdAt: t.clock.now().toISOString(),
    });
  });

  it('defaults: displayName "Player", path "/", the tenant locale', async () => {
    const { body } = await openSession(t, tenant, { externalPlayerId: 'p-1' });
    assert.equal(body.player.displayName, 'Player');
    const url = new URL(body.launchUrl);
    assert.equal(url.searchParams.get('path'), '/');
    assert.equal(url.searchParams.get('locale'), 'pt-BR');
  });

  it('builds the launch URL on SPORTSBOOK_URL when it is set', async () => {
    const other = await startTestApp({ SPORTSBOOK_URL: 'https://sports.bookmaker.example' });
    try {
      const otherAdmin = (await loginAsStaff(other, 'platform_admin')).token;
      const otherTenant = await createTenant(other, otherAdmin);
      const { body } = await openSession(other, otherTenant, { externalPlayerId: 'p-1' });
      assert.equal(new URL(body.launchUrl).origin, 'https://sports.bookmaker.example');
    } finally {
      await other.close();
    }
  });

  it('stores only hashes of the launch and session tokens', async () => {
    const { body } = await openSession(t, tenant, { externalPlayerId: 'p-1' });
    const launch = await t.db.selectFrom('launch_tokens').selectAll().execute();
    const tokens = await t.db.selectFrom('session_tokens').selectAll().execute();
    assert.deepEqual(
      launch.map((row) => row.token_hash),
      [sha256Hex(body.launchToken)],
    );
    assert.deepEqual(
      tokens.map((row) => row.token_hash),
      [sha256Hex(body.token)],
    );
    const dump = JSON.stringify([launch, tokens, await t.db.selectFrom('player_sessions').selectAll().execute()]);
    assert.ok(!dump.includes(body.launchToken) && !dump.includes(body.token));
    assert.ok(!t.logs.text.includes(body.launchToken) && !t.logs.text.includes(body.token));
  });

  it('accepts cpf and never validates, stores or logs it', async () => {
    const response = await openSession(t, tenant, { externalPlayerId: 'p-cpf', cpf: CPF });
    assert.equal(response.status, 200);
    assert.equal((await openSession(t, tenant, { externalPlayerId: 'p-cpf2', cpf: 'not a cpf' })).status, 200);
    for (const odd of [52998224725, null, { number: CPF }, 'x'.repeat(500)]) {
      assert.equal(
        (await openSession(t, tenant, { externalPlayerId: 'p-cpf3', cpf: odd })).status,
        200,
        JSON.stringify(odd).slice(0, 20),
      );
    }
    const tables = ['players', 'player_sessions', 'session_tokens', 'launch_tokens', 'audit_log', 'tenants'] as const;
    const dump = JSON.stringify(await Promise.all(tables.map((table) => t.db.selectFrom(table).selectAll().execute())));
    for (const text of [CPF, '52998224725', 'not a cpf']) {
      assert.ok(!dump.includes(text), 'the database holds the cpf');
      assert.ok(!t.logs.text.includes(text), 'the logs hold the cpf');
    }
  });

  it('finds the same player for the same externalPlayerId and updates a changed displayName', async () => {
    const first = (await openSession(t, tenant, { externalPlayerId: 'p-7', displayName: 'Ana' })).body;
    t.clock.advance(1000);
    const same = (await openSession(t, tenant, { externalPlayerId: 'p-7' })).body;
    assert.equal(same.player.id, first.player.id);
    assert.equal(same.player.displayName, 'Ana', 'kept when not sent');
    const renamed = (await openSession(t, tenant, { externalPlayerId: 'p-7', displayName: 'Ana Maria' })).body;
    assert.equal(renamed.player.displayName, 'Ana Maria');
    assert.equal(renamed.player.createdAt, first.player.createdAt);
  });

  it('creates one player for concurrent first sessions of one id', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () => openSession(t, tenant, { externalPlayerId: 'p-race' })),
    );
    assert.ok(results.every((r) => r.status === 200));
    assert.equal(new Set(results.map((r) => r.body.player.id)).size, 1);
    assert.equal((await t.db.selectFrom('players').select('id').execute()).length, 1);
    assert.equal((await t.db.selectFrom('player_sessions').select('id').execute()).length, 10);
  });

  it('keeps players apart per tenant', async () => {
    const other = await createTenant(t, admin, { name: 'Luna Casino' });
    const a = (await openSession(t, tenant, { externalPlayerId: 'p-1' })).body.player;
    const b = (await openSession(t, other, { externalPlayerId: 'p-1' })).body.player;
    assert.notEqual(a.id, b.id);
  });

  it('opens a new session per call; earlier ones stay valid', async () => {
    const first = (await openSession(t, tenant, { externalPlayerId: 'p-1' })).body;
    const second = (await openSession(t, tenant, { externalPlayerId: 'p-1' })).body;
    assert.notEqual(first.token, second.token);
    assert.equal((await t.request('GET', '/api/v1/session', { token: first.token })).status, 200);
    assert.equal((await t.request('GET', '/api/v1/session', { token: second.token })).status, 200);
  });
});

describe('session request errors', () => {
  it('401 unauthorized for a missing or wrong X-API-Key, audited with the caller IP', async () => {
    const missing = await t.request('POST', '/api/v1/integration/sessions', {
      body: { externalPlayerId: 'p' },
      headers: { 'x-tenant-id': tenant.tenantId },
    });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, 'unauthorized');
    const wrong = await openSession(t, tenant, { externalPlayerId: 'p' }, { 'x-api-key': 'bm_int_wrong' });
    assert.equal(wrong.status, 401);
    const rows = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'integration.authenticate')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((row) => [row.outcome, row.details.reason, row.ip, row.target_id]),
      [
        ['denied', 'missing_key', '127.0.0.1', tenant.tenantId],
        ['denied', 'wrong_key', '127.0.0.1', tenant.tenantId],
      ],
    );
    assert.ok(!JSON.stringify(rows).includes('bm_int_wrong'));
  });

  it("401 for another tenant's key, and for a tenant whose key was revoked", async () => {
    const other = await createTenant(t, admin, { name: 'Luna Casino' });
    assert.equal((await openSession(t, tenant, { externalPlayerId: 'p' }, { 'x-api-key': other.apiKey })).status, 401);
    assert.equal((await openSession(t, tenant, { externalPlayerId: 'p' })).status, 200);
    await t.request('POST', `/api/v1/admin/integration/api-key?tenantId=${tenant.tenantId}`, { token: admin });
    assert.equal((await openSession(t, tenant, { externalPlayerId: 'p' })).status, 401);
  });

  it('401 for a tenant that has no integration key yet (a client not yet activated)', async () => {
    const fakeWallets = {
      production: { url: 'http://127.0.0.1:9' },
      sandbox: { url: 'http://127.0.0.2:9' },
    } as unknown as WalletPair;
    const agg = await setUpAggregator(t, fakeWallets, { adminToken: admin });
    const created = (await agg.call('POST', '/clients', createClientBody(fakeWallets))).body;
    const response = await openSession(
      t,
      { tenantId: created.production.tenantId, apiKey: tenant.apiKey, walletSecret: '' },
      { externalPlayerId: 'p' },
    );
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'unauthorized');
  });

  it('404 not_found for an unknown tenant, 400 when X-Tenant-ID is missing', async () => {
    const unknown = await openSession(t, tenant, { externalPlayerId: 'p' }, { 'x-tenant-id': 'tn_unknown' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error.code, 'not_found');
    const missing = await t.request('POST', '/api/v1/integration/sessions', {
      body: { externalPlayerId: 'p' },
      headers: { 'x-api-key': tenant.apiKey },
    });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.details.field, 'x-tenant-id');
  });

  it('503 unavailable while the tenant is suspended', async () => {
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
      token: admin,
      body: { status: 'suspended' },
    });
    const response = await openSession(t, tenant, { externalPlayerId: 'p' });
    assert.equal(response.status, 503);
    assert.equal(response.body.error.code, 'unavailable');
  });

  const invalid: Array<[string, Record<string, unknown>]> = [
    ['externalPlayerId', { externalPlayerId: '' }],
    ['externalPlayerId', { externalPlayerId: 'x'.repeat(129) }],
    ['externalPlayerId', {}],
    ['displayName', { externalPlayerId: 'p', displayName: 'x'.repeat(65) }],
    ['displayName', { externalPlayerId: 'p', displayName: '' }],
    ['currency', { externalPlayerId: 'p', currency: 'USD' }],
    ['currency', { externalPlayerId: 'p', currency: 'XXX' }],
    ['path', { externalPlayerId: 'p', path: '/casino' }],
    ['path', { externalPlayerId: 'p', path: '/event/' }],
    ['path', { externalPlayerId: 'p', path: 'live' }],
    ['locale', { externalPlayerId: 'p', locale: 'fr' }],
    ['email', { externalPlayerId: 'p', email: 'ana@example.com' }],
    ['birthDate', { externalPlayerId: 'p', birthDate: '1990-01-01' }],
  ];
  for (const [field, body] of invalid) {
    it(`400 validation naming ${field} for ${JSON.stringify(body).slice(0, 60)}`, async () => {
      const response = await openSession(t, tenant, body);
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'validation');
      assert.equal(response.body.error.details.field, field);
      assert.equal((await t.db.selectFrom('players').select('id').execute()).length, 0);
    });
  }

  it('accepts every field at its bound and every deep link of the contract', async () => {
    const paths = [
      '/',
      '/live',
      '/live/soccer',
      '/sport/soccer',
      '/competition/br-serie-a',
      '/event/ev_123',
      '/my-bets',
    ];
    for (const path of paths) {
      const response = await openSession(t, tenant, {
        externalPlayerId: 'x'.repeat(128),
        displayName: 'n'.repeat(64),
        currency: 'BRL',
        path,
        locale: 'pt-BR',
      });
      assert.equal(response.status, 200, path);
    }
  });

  it('403 account_blocked, account_paused and account_closed for restricted players', async () => {
    const { body } = await openSession(t, tenant, { externalPlayerId: 'p-r' });
    for (const [status, code] of [
      ['blocked', 'account_blocked'],
      ['paused', 'account_paused'],
      ['closed', 'account_closed'],
    ] as const) {
      const set = await t.request('PUT', `/api/v1/admin/players/${body.player.id}/status`, {
        token: admin,
        body: { status, reason: 'test' },
      });
      assert.equal(set.status, 200);
      assert.equal(set.body.player.status, status);
      const refused = await openSession(t, tenant, { externalPlayerId: 'p-r', displayName: `Renamed ${status}` });
      assert.equal(refused.status, 403, status);
      assert.equal(refused.body.error.code, code);
    }
    const player = await t.db
      .selectFrom('players')
      .selectAll()
      .where('id', '=', body.player.id)
      .executeTakeFirstOrThrow();
    assert.equal(player.display_name, body.player.displayName, 'a refused opening changes nothing, not even the name');
    const sessions = await t.db
      .selectFrom('player_sessions')
      .select('id')
      .where('player_id', '=', body.player.id)
      .execute();
    assert.equal(sessions.length, 1, 'a refused opening leaves no session, token or launch token behind');
    assert.equal((await t.db.selectFrom('launch_tokens').select('token_hash').execute()).length, 1);
    await t.request('PUT', `/api/v1/admin/players/${body.player.id}/status`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.equal((await openSession(t, tenant, { externalPlayerId: 'p-r' })).status, 200);
  });

  it('a restriction lifted while a refused opening reads why: opened after all, with tokens that were stored', async () => {
    const { body } = await openSession(t, tenant, { externalPlayerId: 'p-lifted' });
    const block = await t.request('PUT', `/api/v1/admin/players/${body.player.id}/status`, {
      token: admin,
      body: { status: 'blocked', reason: 'test' },
    });
    assert.equal(block.status, 200);
    // The restriction is lifted at the end of the opening statement that found it, before the service reads why.
    await sql`create function test_lift_restriction() returns trigger language plpgsql as $$
      begin update players set status = 'active' where external_id = 'p-lifted'; return null; end $$`.execute(t.db);
    await sql`create trigger test_lift_restriction after insert on players
      for each statement execute function test_lift_restriction()`.execute(t.db);
    try {
      const opened = await openSession(t, tenant, { externalPlayerId: 'p-lifted' });
      assert.equal(opened.status, 200, opened.text);
      assert.equal(opened.body.player.status, 'active');
      const launched = await exchange(t, tenant.tenantId, opened.body.launchToken);
      assert.equal(launched.status, 200, 'the launch token handed out was stored');
      assert.equal((await t.request('GET', '/api/v1/session', { token: opened.body.token })).status, 200);
    } finally {
      await sql`drop trigger test_lift_restriction on players`.execute(t.db);
      await sql`drop function test_lift_restriction()`.execute(t.db);
    }
  });

  it("a restriction ends the player's open sessions for good: lifting it does not bring them back", async () => {
    const opened = (await openSession(t, tenant, { externalPlayerId: 'p-b' })).body;
    // Used a moment before: a session remembered as live must end at once all the same.
    assert.equal((await t.request('GET', '/api/v1/session', { token: opened.token })).status, 200);
    await t.request('PUT', `/api/v1/admin/players/${opened.player.id}/status`, {
      token: admin,
      body: { status: 'blocked' },
    });
    assert.equal(
      (await t.request('GET', '/api/v1/session', { token: opened.token })).body.error.code,
      'session_expired',
    );
    const launch = await t.request('POST', '/api/v1/integration/launch', {
      body: { launchToken: opened.launchToken },
      headers: { 'x-tenant-id': tenant.tenantId },
    });
    assert.deepEqual(
      [launch.status, launch.body.error.code],
      [401, 'session_expired'],
      'no session token for a blocked player',
    );
    await t.request('PUT', `/api/v1/admin/players/${opened.player.id}/status`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.equal(
      (await t.request('GET', '/api/v1/session', { token: opened.token })).body.error.code,
      'session_expired',
    );
    const row = await t.db.selectFrom('player_sessions').select('end_reason').executeTakeFirstOrThrow();
    assert.equal(row.end_reason, 'restricted');
  });

  it('suspending the tenant answers 503 to new sessions and launches and ends open sessions', async () => {
    const opened = (await openSession(t, tenant, { externalPlayerId: 'p-s' })).body;
    assert.equal((await t.request('GET', '/api/v1/session', { token: opened.token })).status, 200);
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
      token: admin,
      body: { status: 'suspended' },
    });
    const launch = await t.request('POST', '/api/v1/integration/launch', {
      body: { launchToken: opened.launchToken },
      headers: { 'x-tenant-id': tenant.tenantId },
    });
    assert.deepEqual([launch.status, launch.body.error.code], [503, 'unavailable']);
    assert.equal(
      (await t.request('GET', '/api/v1/session', { token: opened.token })).body.error.code,
      'session_expired',
    );
    await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
      token: admin,
      body: { status: 'active' },
    });
    assert.equal(
      (await t.request('GET', '/api/v1/session', { token: opened.token })).body.error.code,
      'session_expired',
    );
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'tenant.update')
      .orderBy('id')
      .execute();
    assert.deepEqual(audit[0]!.details.changes, { status: { from: 'active', to: 'suspended' } });
  });

  it("player status changes are for the tenant's operators and platform administrators, and are audited", async () => {
    const other = await createTenant(t, admin, { name: 'Luna Casino' });
    const { body } = await openSession(t, tenant, { externalPlayerId: 'p-s' });
    const foreignOperator = await loginAsStaff(t, 'operator', { tenantId: other.tenantId });
    assert.equal(
      (
        await t.request('PUT', `/api/v1/admin/players/${body.player.id}/status`, {
          token: foreignOperator.token,
          body: { status: 'blocked' },
        })
      ).status,
      404,
    );
    const trader = await loginAsStaff(t, 'trader');
    assert.equal(
      (
        await t.request('PUT', `/api/v1/admin/players/${body.player.id}/status`, {
          token: trader.token,
          body: { status: 'blocked' },
        })
      ).status,
      403,
    );
    const operator = await loginAsStaff(t, 'operator', { tenantId: tenant.tenantId });
    assert.equal(
      (
        await t.request('PUT', `/api/v1/admin/players/${body.player.id}/status`, {
          token: operator.token,
          body: { status: 'paused', reason: 'self-exclusion' },
        })
      ).status,
      200,
    );
    const audit = await t.db.selectFrom('audit_log').selectAll().where('action', '=', 'player.status.set').execute();
    assert.deepEqual(
      audit.map((row) => [row.actor_id, row.details.from, row.details.to]),
      [[operator.id, 'active', 'paused']],
    );
  });
});
