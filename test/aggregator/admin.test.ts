import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { ALL_SCOPES, authorizationBody } from '../helpers/aggregator.ts';

let t: TestApp;
let admin: string;
before(async () => (t = await startTestApp()));
after(() => t.close());
beforeEach(async () => {
  await t.reset();
  admin = (await loginAsStaff(t, 'platform_admin')).token;
});

const ORIGINS = ['https://wallet.acme.example', 'https://sandbox.acme.example:8443'];
const YEAR_MS = 365 * 86_400_000;

async function newAggregator(): Promise<string> {
  const response = await t.request('POST', '/api/v1/admin/aggregators', {
    token: admin,
    body: { name: 'Acme Aggregation' },
  });
  assert.equal(response.status, 201);
  return response.body.aggregator.id;
}

const putAuthorization = (id: string, overrides: Record<string, unknown> = {}) =>
  t.request('PUT', `/api/v1/admin/aggregators/${id}/authorization`, {
    token: admin,
    body: authorizationBody(t, ORIGINS, overrides),
  });

describe('aggregator registration', () => {
  it('starts disabled: no authorization, and no key can be issued before one exists', async () => {
    const response = await t.request('POST', '/api/v1/admin/aggregators', {
      token: admin,
      body: { name: 'Acme Aggregation' },
    });
    assert.equal(response.status, 201);
    assert.match(response.body.aggregator.id, /^ag_[0-9a-f]{16}$/);
    assert.deepEqual(
      { ...response.body.aggregator, id: 'x', createdAt: 'x' },
      { id: 'x', name: 'Acme Aggregation', createdAt: 'x', authorization: null, keys: [], clientCount: 0 },
    );
    const key = await t.request('POST', `/api/v1/admin/aggregators/${response.body.aggregator.id}/keys`, {
      token: admin,
      body: { scopes: ALL_SCOPES },
    });
    assert.equal(key.status, 409);
    assert.equal(key.body.error.code, 'authorization_missing');
  });

  it('is for platform administrators only', async () => {
    const trader = await loginAsStaff(t, 'trader');
    const response = await t.request('POST', '/api/v1/admin/aggregators', {
      token: trader.token,
      body: { name: 'Acme' },
    });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'forbidden');
    assert.equal((await t.request('GET', '/api/v1/admin/aggregators')).status, 401);
  });

  it('validates the name: 2 to 100 characters, no surrounding spaces', async () => {
    for (const name of ['A', 'x'.repeat(101), ' Acme ']) {
      const response = await t.request('POST', '/api/v1/admin/aggregators', { token: admin, body: { name } });
      assert.equal(response.status, 400, name);
      assert.equal(response.body.error.details.field, 'name');
    }
    assert.equal(
      (await t.request('POST', '/api/v1/admin/aggregators', { token: admin, body: { name: 'x'.repeat(100) } })).status,
      201,
    );
  });
});

describe('aggregator authorization', () => {
  it('stores the whole policy and bumps its version on each change', async () => {
    const id = await newAggregator();
    const first = await putAuthorization(id);
    assert.equal(first.status, 200);
    assert.equal(first.body.authorization.version, 1);
    assert.deepEqual(first.body.authorization.walletOrigins, ORIGINS);
    assert.equal(first.body.authorization.agreementRef, 'AGR-2026-001');
    const second = await putAuthorization(id, { clientQuota: 9 });
    assert.equal(second.body.authorization.version, 2);
    assert.equal(second.body.authorization.clientQuota, 9);
    const read = await t.request('GET', `/api/v1/admin/aggregators/${id}`, { token: admin });
    assert.deepEqual(read.body.aggregator.authorization, second.body.authorization);
  });

  const badOrigins: Array<[string, RegExp]> = [
    ['https://*.acme.example', /wildcards/],
    ['https://wallet.acme.example/api', /path/],
    ['https://wallet.acme.example?x=1', /query/],
    ['https://wallet.acme.example#top', /fragment/],
    ['https://user:pw@wallet.acme.example', /user info/],
    ['http://wallet.acme.example', /https/],
    ['https://WALLET.acme.example', /exactly as https:\/\/wallet\.acme\.example/],
    ['wallet.acme.example', /absolute URL/],
  ];
  for (const [origin, problem] of badOrigins) {
    it(`refuses the wallet origin ${origin}, naming the entry`, async () => {
      const id = await newAggregator();
      const response = await putAuthorization(id, { walletOrigins: ['https://ok.acme.example', origin] });
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'validation');
      assert.equal(response.body.error.details.field, 'walletOrigins.1');
      assert.match(response.body.error.message, problem);
      assert.ok(response.body.error.message.includes(origin));
    });
  }

  it('accepts http loopback origins in development only', async () => {
    const id = await newAggregator();
    assert.equal((await putAuthorization(id, { walletOrigins: ['http://127.0.0.1:4000'] })).status, 200);
    const staging = await startTestApp({ APP_ENV: 'staging' });
    try {
      const stagingAdmin = (await loginAsStaff(staging, 'platform_admin')).token;
      const created = await staging.request('POST', '/api/v1/admin/aggregators', {
        token: stagingAdmin,
        body: { name: 'Acme' },
      });
      for (const origin of ['http://127.0.0.1:4000', 'https://127.0.0.1:4000', 'http://localhost:4000']) {
        const response = await staging.request(
          'PUT',
          `/api/v1/admin/aggregators/${created.body.aggregator.id}/authorization`,
          {
            token: stagingAdmin,
            body: authorizationBody(staging, [origin]),
          },
        );
        assert.equal(response.status, 400, origin);
        assert.match(response.body.error.message, /loopback hosts are allowed only in development/);
      }
    } finally {
      await staging.close();
    }
  });

  it('refuses currencies and jurisdictions outside the contract lists', async () => {
    const id = await newAggregator();
    const currency = await putAuthorization(id, { currencies: ['BRL', 'GBP'] });
    assert.equal(currency.status, 400);
    assert.equal(currency.body.error.details.field, 'currencies.1');
    const jurisdiction = await putAuthorization(id, { jurisdictions: ['UK'] });
    assert.equal(jurisdiction.body.error.details.field, 'jurisdictions.0');
  });

  it('needs an expiry in the future and at most 5 years out', async () => {
    const id = await newAggregator();
    const now = t.clock.now();
    const fiveYears = new Date(now);
    fiveYears.setUTCFullYear(fiveYears.getUTCFullYear() + 5);
    assert.equal((await putAuthorization(id, { expiresAt: now.toISOString() })).status, 400);
    const tooFar = await putAuthorization(id, { expiresAt: new Date(fiveYears.getTime() + 1000).toISOString() });
    assert.equal(tooFar.status, 400);
    assert.equal(tooFar.body.error.details.field, 'expiresAt');
    assert.equal((await putAuthorization(id, { expiresAt: fiveYears.toISOString() })).status, 200);
  });

  it('refuses unknown fields and a missing field', async () => {
    const id = await newAggregator();
    const extra = await putAuthorization(id, { secondApprover: 'x' });
    assert.deepEqual(extra.body.error.details, { field: 'secondApprover', in: 'body' });
    const body = authorizationBody(t, ORIGINS) as Record<string, unknown>;
    delete body.agreementRef;
    const missing = await t.request('PUT', `/api/v1/admin/aggregators/${id}/authorization`, { token: admin, body });
    assert.equal(missing.body.error.details.field, 'agreementRef');
  });

  it('answers 404 for an unknown aggregator', async () => {
    const response = await putAuthorization('ag_0000000000000000');
    assert.equal(response.status, 404);
  });
});

describe('aggregator keys', () => {
  it('are shown once, stored only as a hash, listed without the secret', async () => {
    const id = await newAggregator();
    await putAuthorization(id);
    const issued = await t.request('POST', `/api/v1/admin/aggregators/${id}/keys`, {
      token: admin,
      body: { scopes: ['clients:read'] },
    });
    assert.equal(issued.status, 201);
    assert.match(issued.body.key, /^bm_agg_[A-Za-z0-9_-]{43}$/);
    assert.deepEqual(issued.body.scopes, ['clients:read']);
    assert.equal(issued.body.expiresAt, new Date(t.clock.now().getTime() + YEAR_MS).toISOString());
    const rows = await t.db.selectFrom('aggregator_keys').selectAll().execute();
    assert.equal(rows[0]!.key_hash, sha256Hex(issued.body.key));
    const read = await t.request('GET', `/api/v1/admin/aggregators/${id}`, { token: admin });
    assert.ok(!read.text.includes(issued.body.key));
    assert.deepEqual(
      read.body.aggregator.keys.map((k: { keyId: string }) => k.keyId),
      [issued.body.keyId],
    );
    assert.ok(!t.logs.text.includes(issued.body.key));
  });

  it('expire within a year and never after the authorization', async () => {
    const id = await newAggregator();
    const authorizationExpiry = new Date(t.clock.now().getTime() + 100 * 86_400_000);
    await putAuthorization(id, { expiresAt: authorizationExpiry.toISOString() });
    const keys = (body: unknown) => t.request('POST', `/api/v1/admin/aggregators/${id}/keys`, { token: admin, body });
    const defaulted = await keys({ scopes: ['clients:read'] });
    assert.equal(defaulted.body.expiresAt, authorizationExpiry.toISOString());
    const after = await keys({
      scopes: ['clients:read'],
      expiresAt: new Date(authorizationExpiry.getTime() + 1000).toISOString(),
    });
    assert.equal(after.status, 400);
    assert.equal(after.body.error.details.field, 'expiresAt');
    assert.equal((await keys({ scopes: ['clients:read'], expiresAt: t.clock.now().toISOString() })).status, 400);

    await putAuthorization(id);
    const overYear = await keys({
      scopes: ['clients:read'],
      expiresAt: new Date(t.clock.now().getTime() + YEAR_MS + 1000).toISOString(),
    });
    assert.equal(overYear.status, 400);
    assert.equal(
      (await keys({ scopes: ['clients:read'], expiresAt: new Date(t.clock.now().getTime() + YEAR_MS).toISOString() }))
        .status,
      201,
    );
  });

  it('refuse unknown or repeated scopes and an empty scope list', async () => {
    const id = await newAggregator();
    await putAuthorization(id);
    for (const scopes of [[], ['clients:write'], ['clients:read', 'clients:read']]) {
      const response = await t.request('POST', `/api/v1/admin/aggregators/${id}/keys`, {
        token: admin,
        body: { scopes },
      });
      assert.equal(response.status, 400, JSON.stringify(scopes));
    }
  });

  it('revocation is recorded and answered with the key record', async () => {
    const id = await newAggregator();
    await putAuthorization(id);
    const issued = await t.request('POST', `/api/v1/admin/aggregators/${id}/keys`, {
      token: admin,
      body: { scopes: ['clients:read'] },
    });
    const revoked = await t.request('DELETE', `/api/v1/admin/aggregators/${id}/keys/${issued.body.keyId}`, {
      token: admin,
    });
    assert.equal(revoked.status, 200);
    assert.equal(revoked.body.key.revokedAt, t.clock.now().toISOString());
    assert.equal(
      (await t.request('DELETE', `/api/v1/admin/aggregators/${id}/keys/ak_unknown`, { token: admin })).status,
      404,
    );
  });

  it('every administrative action is audited with the staff member', async () => {
    const id = await newAggregator();
    await putAuthorization(id);
    const issued = await t.request('POST', `/api/v1/admin/aggregators/${id}/keys`, {
      token: admin,
      body: { scopes: ['clients:read'] },
    });
    await t.request('DELETE', `/api/v1/admin/aggregators/${id}/keys/${issued.body.keyId}`, { token: admin });
    const rows = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('target_type', '=', 'aggregator')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((row) => row.action),
      ['aggregator.create', 'aggregator.authorization.set', 'aggregator.key.issue', 'aggregator.key.revoke'],
    );
    assert.ok(rows.every((row) => row.actor_type === 'staff' && row.target_id === id && row.ip === '127.0.0.1'));
    assert.ok(!JSON.stringify(rows).includes(issued.body.key));
  });
});
