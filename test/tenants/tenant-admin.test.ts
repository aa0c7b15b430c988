import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, openSession, type TestTenant } from '../helpers/tenant.ts';

let t: TestApp;
let admin: string;
let tenant: TestTenant;
let operator: string;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  tenant = await createTenant(t, admin);
  operator = (await loginAsStaff(t, 'operator', { tenantId: tenant.tenantId })).token;
});

const put = (token: string, body: unknown, query = '') =>
  t.request('PUT', `/api/v1/admin/tenant${query}`, { token, body });

describe('tenant creation by the platform', () => {
  it('creates an active tenant and returns its integration key and wallet secret once', async () => {
    const response = await t.request('POST', '/api/v1/admin/tenants', {
      token: admin,
      body: {
        name: 'Mar Casino',
        currency: 'PEN',
        locale: 'es',
        jurisdiction: 'ROW',
        walletUrl: 'https://wallet.mar.example/v1/',
      },
    });
    assert.equal(response.status, 201);
    assert.match(response.body.integrationApiKey, /^bm_int_/);
    assert.match(response.body.walletSecret, /^bm_whsec_/);
    assert.equal(response.body.tenant.status, 'active');
    assert.equal(response.body.tenant.walletUrl, 'https://wallet.mar.example/v1');
    assert.deepEqual(response.body.tenant.embedOrigins, []);
    const read = await t.request('GET', `/api/v1/admin/tenant?tenantId=${response.body.tenant.id}`, { token: admin });
    assert.ok(!read.text.includes(response.body.integrationApiKey) && !read.text.includes(response.body.walletSecret));
    assert.equal(read.body.tenant.integrationKey.keyId, response.body.keyId);
  });

  it('is for platform administrators only', async () => {
    const response = await t.request('POST', '/api/v1/admin/tenants', {
      token: operator,
      body: {
        name: 'X Casino',
        currency: 'BRL',
        locale: 'pt-BR',
        jurisdiction: 'BR',
        walletUrl: 'https://wallet.x.example',
      },
    });
    assert.equal(response.status, 403);
  });
});

describe('PUT /api/v1/admin/tenant', () => {
  it('an operator sets the embed origins of its own tenant', async () => {
    const response = await put(operator, { embedOrigins: ['https://www.sol.example', 'https://m.sol.example:8443'] });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.tenant.embedOrigins, ['https://www.sol.example', 'https://m.sol.example:8443']);
    const config = await t.request('GET', `/api/v1/config?tenant=${tenant.tenantId}`);
    assert.deepEqual(config.body.tenant.embedOrigins, ['https://www.sol.example', 'https://m.sol.example:8443']);
  });

  for (const [origin, problem] of [
    ['https://*.sol.example', /wildcards/],
    ['https://www.sol.example/casino', /path/],
    ['https://www.sol.example?x=1', /query/],
    ['http://www.sol.example', /https/],
  ] as const) {
    it(`refuses ${origin}, naming the entry`, async () => {
      const response = await put(operator, { embedOrigins: ['https://www.sol.example', origin] });
      assert.equal(response.status, 400);
      assert.equal(response.body.error.details.field, 'embedOrigins.1');
      assert.match(response.body.error.message, problem);
      assert.ok(response.body.error.message.includes(origin));
    });
  }

  it('bounds the list to 20 distinct origins and refuses an empty body or unknown fields', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `https://s${i}.sol.example`);
    assert.equal((await put(operator, { embedOrigins: many })).status, 400);
    assert.equal((await put(operator, { embedOrigins: many.slice(0, 20) })).status, 200);
    assert.equal(
      (await put(operator, { embedOrigins: ['https://a.sol.example', 'https://a.sol.example'] })).status,
      400,
    );
    assert.equal((await put(operator, {})).status, 400);
    assert.equal((await put(operator, { walletSecret: 'x' })).body.error.details.field, 'walletSecret');
  });

  it('an operator cannot name another tenant; a platform administrator must name one', async () => {
    const other = await createTenant(t, admin, { name: 'Luna Casino' });
    assert.equal((await put(operator, { embedOrigins: [] }, `?tenantId=${other.tenantId}`)).status, 403);
    const unnamed = await put(admin, { embedOrigins: [] });
    assert.deepEqual([unnamed.status, unnamed.body.error.details.field], [400, 'tenantId']);
    assert.equal((await put(admin, { embedOrigins: [] }, `?tenantId=${other.tenantId}`)).status, 200);
    assert.equal((await put(admin, { embedOrigins: [] }, '?tenantId=tn_unknown')).status, 404);
    const trader = (await loginAsStaff(t, 'trader')).token;
    assert.equal((await put(trader, { embedOrigins: [] }, `?tenantId=${other.tenantId}`)).status, 403);
  });

  it("wallet URL, wallet mode, currency and status are the platform's to change", async () => {
    const refused = await put(operator, { walletUrl: 'https://evil.example' });
    assert.equal(refused.status, 403);
    const changed = await put(
      admin,
      { walletUrl: 'https://wallet2.sol.example', currency: 'USD' },
      `?tenantId=${tenant.tenantId}`,
    );
    assert.equal(changed.status, 200);
    assert.equal(changed.body.tenant.walletUrl, 'https://wallet2.sol.example');
    assert.equal(changed.body.tenant.currency, 'USD');
  });

  it('409 wallet_identity_locked for wallet URL, mode or currency after the first money movement', async () => {
    // The betting tests lock it through a real stake debit; here the lock itself is under test.
    await t.app.services.tenants.forMoneyMovement(tenant.tenantId);
    for (const body of [{ walletUrl: 'https://wallet2.sol.example' }, { currency: 'USD' }]) {
      const response = await put(admin, body, `?tenantId=${tenant.tenantId}`);
      assert.equal(response.status, 409);
      assert.equal(response.body.error.code, 'wallet_identity_locked');
      assert.equal(response.body.error.details.reason, 'wallet_identity_locked');
    }
    assert.equal(
      (await put(admin, { currency: 'BRL', walletMode: 'seamless' }, `?tenantId=${tenant.tenantId}`)).status,
      200,
      'unchanged values pass',
    );
    assert.equal(
      (await put(admin, { embedOrigins: [] }, `?tenantId=${tenant.tenantId}`)).status,
      200,
      'other settings still change',
    );
    const read = await t.request('GET', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, { token: admin });
    assert.equal(read.body.tenant.walletUrl, 'https://wallet.sol.example/api');
  });
});

describe('credential rotation', () => {
  it('POST /api/v1/admin/integration/api-key returns a new key once; the previous one stops at once', async () => {
    const response = await t.request('POST', '/api/v1/admin/integration/api-key', { token: operator });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body).sort(), ['integrationApiKey', 'keyId', 'tenantId']);
    assert.equal((await openSession(t, tenant, { externalPlayerId: 'p' })).status, 401);
    assert.equal(
      (await openSession(t, { ...tenant, apiKey: response.body.integrationApiKey }, { externalPlayerId: 'p' })).status,
      200,
    );
    assert.ok(!t.logs.text.includes(response.body.integrationApiKey));
    const keys = await t.db.selectFrom('integration_keys').selectAll().where('id', '=', response.body.keyId).execute();
    assert.equal(keys[0]!.key_hash, sha256Hex(response.body.integrationApiKey));
  });

  it('two concurrent rotations leave exactly one live key', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => t.request('POST', '/api/v1/admin/integration/api-key', { token: operator })),
    );
    assert.ok(results.every((r) => r.status === 200));
    const live = await t.db
      .selectFrom('integration_keys')
      .select('id')
      .where('tenant_id', '=', tenant.tenantId)
      .where('revoked_at', 'is', null)
      .execute();
    assert.equal(live.length, 1);
  });

  it('POST /api/v1/admin/integration/wallet-secret returns a new secret once, used for signing from then on', async () => {
    const response = await t.request('POST', '/api/v1/admin/integration/wallet-secret', { token: operator });
    assert.equal(response.status, 200);
    assert.match(response.body.walletSecret, /^bm_whsec_/);
    const row = await t.db
      .selectFrom('tenants')
      .selectAll()
      .where('id', '=', tenant.tenantId)
      .executeTakeFirstOrThrow();
    assert.equal(t.app.services.tenants.walletSecret(row), response.body.walletSecret);
    assert.ok(!JSON.stringify(row).includes(response.body.walletSecret));
    const read = await t.request('GET', '/api/v1/admin/tenant', { token: operator });
    assert.ok(!read.text.includes(response.body.walletSecret));
  });

  it('every tenant administration is audited', async () => {
    await put(operator, { embedOrigins: [] });
    await t.request('POST', '/api/v1/admin/integration/api-key', { token: operator });
    await t.request('POST', '/api/v1/admin/integration/wallet-secret', { token: operator });
    const rows = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_id', '=', tenant.tenantId)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((row) => row.action),
      ['tenant.create', 'tenant.update', 'tenant.api_key.rotate', 'tenant.wallet_secret.rotate'],
    );
    assert.ok(rows.slice(1).every((row) => row.actor_type === 'staff'));
  });
});
