import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createClientBody, newIdempotencyKey, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { startWalletPair, type WalletPair } from '../helpers/wallet.ts';

let t: TestApp;
let wallets: WalletPair;
let agg: AggregatorFixture;
before(async () => {
  t = await startTestApp();
  wallets = await startWalletPair(t.clock);
});
after(async () => {
  await t.close();
  await wallets.close();
});
beforeEach(async () => {
  await t.reset();
  agg = await setUpAggregator(t, wallets);
});

const create = (overrides: Record<string, unknown> = {}, options: Parameters<AggregatorFixture['call']>[3] = {}) =>
  agg.call('POST', '/clients', createClientBody(wallets, overrides), options);

describe('CreateClient', () => {
  it('creates a suspended client with two environments and returns both wallet secrets once', async () => {
    const body = createClientBody(wallets);
    const response = await agg.call('POST', '/clients', body);
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('idempotency-replayed'), null);
    const created = response.body;
    assert.match(created.id, /^cl_[0-9a-f]{16}$/);
    assert.match(created.production.tenantId, /^tn_[0-9a-f]{16}$/);
    assert.deepEqual(created, {
      id: created.id,
      externalId: body.externalId,
      status: 'suspended',
      nextAction: 'install_wallet_secrets_then_activate',
      credentialsReplaySeconds: 86400,
      production: { tenantId: created.production.tenantId, walletSecret: created.production.walletSecret },
      sandbox: { tenantId: `${created.production.tenantId}-sandbox`, walletSecret: created.sandbox.walletSecret },
    });
    assert.match(created.production.walletSecret, /^bm_whsec_/);
    assert.notEqual(created.production.walletSecret, created.sandbox.walletSecret);
    const tenants = await t.db.selectFrom('tenants').selectAll().orderBy('environment').execute();
    assert.deepEqual(
      tenants.map((row) => [row.environment, row.status, row.currency, row.wallet_mode]),
      [
        ['production', 'suspended', 'BRL', 'seamless'],
        ['sandbox', 'suspended', 'BRL', 'seamless'],
      ],
    );
  });

  it('stores wallet secrets and the replay body encrypted, never in plaintext', async () => {
    const { body } = await create();
    const dump = JSON.stringify([
      await t.db.selectFrom('tenants').selectAll().execute(),
      await t.db.selectFrom('idempotency_records').selectAll().execute(),
      await t.db.selectFrom('audit_log').selectAll().execute(),
    ]);
    assert.ok(!dump.includes(body.production.walletSecret));
    assert.ok(!dump.includes(body.sandbox.walletSecret));
    assert.ok(!t.logs.text.includes(body.production.walletSecret));
  });

  it('replays the original response for the same key, body and API key, marked Idempotency-Replayed', async () => {
    const key = newIdempotencyKey();
    const body = createClientBody(wallets);
    const first = await agg.call('POST', '/clients', body, { idempotencyKey: key });
    const reordered = Object.fromEntries(Object.entries(body).reverse());
    const replay = await agg.call('POST', '/clients', reordered, { idempotencyKey: key });
    assert.equal(replay.status, 201);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);
    assert.equal((await t.db.selectFrom('clients').select('id').execute()).length, 1);
  });

  it('answers 409 idempotency_mismatch for the same key with another body, and keeps the record', async () => {
    const key = newIdempotencyKey();
    await create({}, { idempotencyKey: key });
    const other = await create({ name: 'Other Casino' }, { idempotencyKey: key });
    assert.equal(other.status, 409);
    assert.deepEqual(other.body.error.details, { reason: 'body' });
    assert.equal((await t.db.selectFrom('clients').select('id').execute()).length, 1);
  });

  it('answers 409 idempotency_mismatch for the same key from another API key of the aggregator', async () => {
    const second = await t.request('POST', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys`, {
      token: agg.adminToken,
      body: { scopes: ['clients:create'] },
    });
    const key = newIdempotencyKey();
    const body = createClientBody(wallets);
    await agg.call('POST', '/clients', body, { idempotencyKey: key });
    const other = await agg.call('POST', '/clients', body, { idempotencyKey: key, key: second.body.key });
    assert.equal(other.status, 409);
    assert.equal(other.body.error.code, 'idempotency_mismatch');
    assert.deepEqual(other.body.error.details, { reason: 'credential' });
  });

  it('answers 409 idempotency_expired after 24 hours and never executes the old request again', async () => {
    const key = newIdempotencyKey();
    const body = createClientBody(wallets);
    await agg.call('POST', '/clients', body, { idempotencyKey: key });
    t.clock.advance(86_400_000 - 1000);
    assert.equal(
      (await agg.call('POST', '/clients', body, { idempotencyKey: key })).headers.get('idempotency-replayed'),
      'true',
    );
    t.clock.advance(1000);
    const expired = await agg.call('POST', '/clients', body, { idempotencyKey: key });
    assert.equal(expired.status, 409);
    assert.equal(expired.body.error.code, 'idempotency_expired');
    assert.equal(await t.app.services.idempotency.eraseExpiredResponses(), 1);
    const record = await t.db.selectFrom('idempotency_records').selectAll().executeTakeFirstOrThrow();
    assert.equal(record.response_body_enc, null);
    assert.equal(
      (await agg.call('POST', '/clients', body, { idempotencyKey: key })).body.error.code,
      'idempotency_expired',
    );
    assert.equal((await t.db.selectFrom('clients').select('id').execute()).length, 1);
  });

  it('runs two concurrent requests with one key exactly once', async () => {
    const key = newIdempotencyKey();
    const body = createClientBody(wallets);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => agg.call('POST', '/clients', body, { idempotencyKey: key })),
    );
    const created = results.filter((r) => r.status === 201);
    assert.ok(created.length >= 1);
    assert.ok(
      results.every((r) => r.status === 201 || (r.status === 409 && r.body.error.code === 'idempotency_in_progress')),
    );
    assert.equal(created.filter((r) => r.headers.get('idempotency-replayed') === null).length, 1);
    assert.ok(created.every((r) => r.body.id === created[0]!.body.id));
    assert.equal((await t.db.selectFrom('clients').select('id').execute()).length, 1);
  });

  it('a failed request releases its key, so the same key may be retried once the problem is fixed', async () => {
    const key = newIdempotencyKey();
    const refused = await create({ currency: 'EUR' }, { idempotencyKey: key });
    assert.equal(refused.status, 403);
    const retried = await create({ currency: 'EUR' }, { idempotencyKey: key });
    assert.equal(retried.status, 403);
    assert.equal(retried.headers.get('idempotency-replayed'), null);
  });

  it('requires an Idempotency-Key of 8 to 128 letters, digits, _ . : -', async () => {
    const post = (key: string | undefined) =>
      t.request('POST', '/api/v1/aggregator/clients', {
        token: agg.key,
        body: createClientBody(wallets),
        headers: key === undefined ? {} : { 'idempotency-key': key },
      });
    const missing = await post(undefined);
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.body.error.details, { field: 'idempotency-key', in: 'headers' });
    for (const bad of ['1234567', 'x'.repeat(129), 'has space1', 'slash/1234']) {
      assert.equal((await post(bad)).status, 400, bad);
    }
    assert.equal((await post('a'.repeat(8))).status, 201);
    assert.equal((await post(`b:_.-${'c'.repeat(123)}`)).status, 201);
  });

  const fieldBounds: Array<[string, unknown]> = [
    ['externalId', ''],
    ['externalId', 'x'.repeat(129)],
    ['name', 'L'],
    ['name', 'x'.repeat(101)],
    ['legalName', 'x'.repeat(201)],
    ['brandName', 'B'],
    ['currency', 'GBP'],
    ['jurisdiction', 'UK'],
    ['locale', 'fr'],
    ['territories', []],
    ['territories', ['br']],
    ['territories', ['BR', 'BR']],
    ['embedOrigins', Array.from({ length: 21 }, (_, i) => `https://s${i}.lucky.example`)],
    ['productionWalletUrl', 'x'.repeat(2049)],
    ['reason', ''],
    ['reason', 'x'.repeat(501)],
  ];
  for (const [field, value] of fieldBounds) {
    it(`refuses ${field}=${JSON.stringify(value).slice(0, 40)} with 400 naming the field, creating nothing`, async () => {
      const response = await create({ [field]: value });
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'validation');
      assert.ok(String(response.body.error.details.field).startsWith(field), response.text);
      assert.equal((await t.db.selectFrom('clients').select('id').execute()).length, 0);
    });
  }

  it('accepts every field at its upper bound', async () => {
    const response = await create({
      externalId: 'e'.repeat(128),
      name: 'n'.repeat(100),
      legalName: 'l'.repeat(200),
      brandName: 'b'.repeat(100),
      embedOrigins: Array.from({ length: 20 }, (_, i) => `https://s${i}.lucky.example`),
      reason: 'r'.repeat(500),
    });
    assert.equal(response.status, 201, response.text);
  });

  it('requires every field but reason, and refuses unknown fields', async () => {
    const body = createClientBody(wallets) as Record<string, unknown>;
    for (const field of Object.keys(body).filter((name) => name !== 'reason')) {
      const { [field]: _dropped, ...rest } = body;
      const response = await agg.call('POST', '/clients', rest);
      assert.equal(response.status, 400, field);
      assert.equal(response.body.error.details.field, field);
    }
    const { reason: _reason, ...withoutReason } = body;
    assert.equal((await agg.call('POST', '/clients', withoutReason)).status, 201);
    const extra = await agg.call('POST', '/clients', { ...body, externalId: 'other', tenantId: 'tn_existing' });
    assert.deepEqual(extra.body.error.details, { field: 'tenantId', in: 'body' });
  });

  it('refuses embed origins that are not exact, naming the entry', async () => {
    const response = await create({ embedOrigins: ['https://www.lucky.example', 'https://lucky.example/casino'] });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.field, 'embedOrigins.1');
    assert.match(response.body.error.message, /lucky\.example\/casino.*path/);
  });

  it('refuses wallet URLs with a query, or the same URL for both environments', async () => {
    const query = await create({ productionWalletUrl: `${wallets.production.url}/wallet?x=1` });
    assert.equal(query.body.error.details.field, 'productionWalletUrl');
    const same = await create({ sandboxWalletUrl: `${wallets.production.url}/` });
    assert.equal(same.status, 400);
    assert.equal(same.body.error.details.field, 'sandboxWalletUrl');
  });

  const outside: Array<[string, Record<string, unknown>, string]> = [
    ['currency', { currency: 'EUR' }, 'currency'],
    ['jurisdiction', { jurisdiction: 'ROW' }, 'jurisdiction'],
    ['territory', { territories: ['BR', 'AR'] }, 'territories'],
    ['wallet origin', { productionWalletUrl: 'http://127.0.0.2:9999' }, 'walletOrigin'],
  ];
  for (const [what, overrides, field] of outside) {
    it(`refuses a ${what} outside the authorization with 403 not_authorized`, async () => {
      if (what === 'jurisdiction') {
        await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
          token: agg.adminToken,
          body: { ...(await authorizationOf()), jurisdictions: ['BR'] },
        });
      }
      const response = await create(overrides);
      assert.equal(response.status, 403);
      assert.equal(response.body.error.code, 'not_authorized');
      assert.equal(response.body.error.details.field, field);
    });
  }

  it('refuses a duplicate externalId with 409, naming the existing client', async () => {
    const first = await create({ externalId: 'casino-1' });
    const second = await create({ externalId: 'casino-1' });
    assert.equal(second.status, 409);
    assert.deepEqual(second.body.error.details, { clientId: first.body.id });
    assert.equal(second.body.error.code, 'duplicate_external_id');
  });

  it('refuses a client over quota with 409 quota_exceeded, also under concurrency', async () => {
    await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
      token: agg.adminToken,
      body: { ...(await authorizationOf()), clientQuota: 2 },
    });
    const results = await Promise.all(Array.from({ length: 4 }, () => create()));
    assert.deepEqual(results.map((r) => r.status).sort(), [201, 201, 409, 409]);
    assert.ok(results.filter((r) => r.status === 409).every((r) => r.body.error.code === 'quota_exceeded'));
  });

  it('refuses bodies over 64 KiB with 413', async () => {
    const response = await create({ reason: 'x'.repeat(70 * 1024) });
    assert.equal(response.status, 413);
    assert.equal(response.headers.get('cache-control'), 'no-store');
  });
});

async function authorizationOf(): Promise<Record<string, unknown>> {
  const read = await t.request('GET', `/api/v1/admin/aggregators/${agg.aggregatorId}`, { token: agg.adminToken });
  const { version: _v, updatedAt: _u, updatedBy: _b, ...policy } = read.body.aggregator.authorization;
  return policy;
}

describe('reading clients', () => {
  it('GET /clients/{id} returns the record without secrets or credentials', async () => {
    const created = (await create()).body;
    const response = await agg.call('GET', `/clients/${created.id}`);
    assert.equal(response.status, 200);
    assert.ok(!response.text.includes(created.production.walletSecret));
    assert.ok(!response.text.includes('walletSecret'));
    const client = response.body.client;
    assert.equal(client.status, 'suspended');
    assert.equal(client.suspendedByPlatform, false);
    assert.equal(client.nextAction, 'install_wallet_secrets_then_activate');
    assert.deepEqual(client.production, {
      tenantId: created.production.tenantId,
      environment: 'production',
      status: 'suspended',
      walletUrl: wallets.production.url,
      integrationKey: null,
    });
    assert.equal(client.sandbox.tenantId, created.sandbox.tenantId);
    assert.equal(client.activatedAt, null);
  });

  it("answers another aggregator's client, and an unknown id, with 404", async () => {
    const created = (await create()).body;
    const other = await setUpAggregator(t, wallets, { adminToken: agg.adminToken });
    const foreign = await other.call('GET', `/clients/${created.id}`);
    assert.equal(foreign.status, 404);
    assert.deepEqual(foreign.body, { error: { code: 'not_found', message: 'Client not found.' } });
    assert.equal((await agg.call('GET', '/clients/cl_0000000000000000')).status, 404);
    assert.deepEqual((await other.call('GET', '/clients')).body, { clients: [], nextCursor: '' });
  });

  it('GET /clients pages by id with an opaque cursor and filters by externalId', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create({ externalId: `casino-${i}` })).body.id);
    ids.sort();
    const first = await agg.call('GET', '/clients?limit=2');
    assert.deepEqual(
      first.body.clients.map((c: { id: string }) => c.id),
      ids.slice(0, 2),
    );
    assert.notEqual(first.body.nextCursor, '');
    assert.ok(!first.body.nextCursor.includes(ids[1]!));
    const second = await agg.call('GET', `/clients?limit=2&cursor=${first.body.nextCursor}`);
    assert.deepEqual(
      second.body.clients.map((c: { id: string }) => c.id),
      ids.slice(2, 4),
    );
    const last = await agg.call('GET', `/clients?limit=2&cursor=${second.body.nextCursor}`);
    assert.deepEqual(
      last.body.clients.map((c: { id: string }) => c.id),
      ids.slice(4),
    );
    assert.equal(last.body.nextCursor, '');
    const all = await agg.call('GET', '/clients');
    assert.equal(all.body.clients.length, 5);
    const filtered = await agg.call('GET', '/clients?externalId=casino-3');
    assert.deepEqual(
      filtered.body.clients.map((c: { externalId: string }) => c.externalId),
      ['casino-3'],
    );
  });

  it('bounds limit to 1-100 and cursor to 100 characters', async () => {
    for (const query of [
      'limit=0',
      'limit=101',
      'limit=abc',
      `cursor=${'a'.repeat(101)}`,
      'cursor=bm90LWEtY3Vyc29y',
      `externalId=${'e'.repeat(129)}`,
      'unknown=1',
    ]) {
      const response = await agg.call('GET', `/clients?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.body.error.code, 'validation');
    }
    assert.equal((await agg.call('GET', '/clients?limit=1')).status, 200);
    assert.equal((await agg.call('GET', '/clients?limit=100')).status, 200);
  });
});

describe('aggregator API authentication', () => {
  it('refuses requests without a key, with a staff token, or with an unknown key', async () => {
    const staff = await loginAsStaff(t, 'platform_admin');
    for (const token of [undefined, staff.token, 'bm_agg_' + 'x'.repeat(43)]) {
      const response = await t.request('GET', '/api/v1/aggregator/clients', token ? { token } : {});
      assert.equal(response.status, 401);
      assert.equal(response.body.error.code, 'unauthorized');
      assert.equal(response.headers.get('cache-control'), 'no-store');
    }
  });

  it('refuses requests carrying an Origin header, even with a valid key', async () => {
    const response = await agg.call('GET', '/clients', undefined, { headers: { origin: 'https://www.lucky.example' } });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'origin_not_allowed');
  });

  it('refuses an X-Tenant-ID header', async () => {
    const response = await agg.call('GET', '/clients', undefined, { headers: { 'x-tenant-id': 'tn_1' } });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'tenant_header_not_allowed');
  });

  it('refuses a revoked key, for new requests and for replays', async () => {
    const key = newIdempotencyKey();
    const body = createClientBody(wallets);
    await agg.call('POST', '/clients', body, { idempotencyKey: key });
    await t.request('DELETE', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys/${agg.keyId}`, {
      token: agg.adminToken,
    });
    const replay = await agg.call('POST', '/clients', body, { idempotencyKey: key });
    assert.equal(replay.status, 401);
    assert.deepEqual(replay.body.error.details, { reason: 'key_revoked' });
    assert.equal((await agg.call('GET', '/clients')).status, 401);
  });

  it('refuses an expired key', async () => {
    t.clock.advance(365 * 86_400_000);
    const response = await agg.call('GET', '/clients');
    assert.equal(response.status, 401);
    assert.deepEqual(response.body.error.details, { reason: 'key_expired' });
  });

  it('refuses every key while the authorization is disabled or expired', async () => {
    await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
      token: agg.adminToken,
      body: { ...(await authorizationOf()), enabled: false },
    });
    const disabled = await agg.call('GET', '/clients');
    assert.equal(disabled.status, 401);
    assert.deepEqual(disabled.body.error.details, { reason: 'authorization_disabled' });
    await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
      token: agg.adminToken,
      body: {
        ...(await authorizationOf()),
        enabled: true,
        expiresAt: new Date(t.clock.now().getTime() + 1000).toISOString(),
      },
    });
    t.clock.advance(1000);
    const expired = await agg.call('GET', '/clients');
    assert.deepEqual(expired.body.error.details, { reason: 'authorization_expired' });
  });

  it('enforces scopes with 403 scope_missing', async () => {
    const reader = await t.request('POST', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys`, {
      token: agg.adminToken,
      body: { scopes: ['clients:read'] },
    });
    const response = await agg.call('POST', '/clients', createClientBody(wallets), { key: reader.body.key });
    assert.equal(response.status, 403);
    assert.deepEqual(response.body.error, {
      code: 'scope_missing',
      message: 'This API key lacks the scope clients:create.',
      details: { requiredScope: 'clients:create' },
    });
    assert.equal((await agg.call('GET', '/clients', undefined, { key: reader.body.key })).status, 200);
  });

  it('limits each aggregator to 120 requests a minute across its keys: 429 with Retry-After: 60', async () => {
    const second = await t.request('POST', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys`, {
      token: agg.adminToken,
      body: { scopes: ['clients:read'] },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 120; i++)
      statuses.push((await agg.call('GET', '/clients', undefined, i % 2 ? { key: second.body.key } : {})).status);
    assert.ok(statuses.every((status) => status === 200));
    const limited = await agg.call('GET', '/clients', undefined, { key: second.body.key });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '60');
    assert.equal(limited.headers.get('cache-control'), 'no-store');
    assert.equal(limited.body.error.code, 'rate_limited');
    const other = await setUpAggregator(t, wallets, { adminToken: agg.adminToken });
    assert.equal((await other.call('GET', '/clients')).status, 200, 'other aggregators keep their own budget');
  });
});

describe('aggregator OpenAPI document', () => {
  it('is OpenAPI 3.1.0, version 1.0.0, with every aggregator operation and its schemas', async () => {
    const response = await t.request('GET', '/api/v1/aggregator/openapi.json');
    assert.equal(response.status, 200);
    assert.equal(response.body.openapi, '3.1.0');
    assert.equal(response.body.info.version, '1.0.0');
    assert.deepEqual(Object.keys(response.body.paths).sort(), [
      '/clients',
      '/clients/{id}',
      '/clients/{id}/activate',
      '/clients/{id}/credentials/rotate',
    ]);
    const create = response.body.paths['/clients'].post;
    assert.equal(create.operationId, 'createClient');
    assert.ok(
      create.parameters.some(
        (p: { name: string; in: string; required: boolean }) =>
          p.name === 'idempotency-key' && p.in === 'header' && p.required,
      ),
    );
    assert.equal(create.requestBody.content['application/json'].schema.additionalProperties, false);
    assert.ok(create.responses['201'] && create.responses['409'] && create.responses['429']);
  });
});
