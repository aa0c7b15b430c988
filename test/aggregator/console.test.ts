import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sha256Hex } from '../../src/platform/crypto.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { authorizationBody, createClientBody, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { createTenant } from '../helpers/tenant.ts';
import { startWalletPair, type WalletPair } from '../helpers/wallet.ts';

/** What the staff console reads and does across aggregators: every client, a client's history, keys, disabling. */
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
  for (const wallet of [wallets.production, wallets.sandbox]) wallet.wallet.faults.length = 0;
  agg = await setUpAggregator(t, wallets);
});

const admin = (method: string, path: string, body?: unknown, token = agg.adminToken) =>
  t.request(method, `/api/v1/admin${path}`, { token, ...(body === undefined ? {} : { body }) });

async function newClient(overrides: Record<string, unknown> = {}, fixture = agg) {
  const created = await fixture.call('POST', '/clients', createClientBody(wallets, overrides));
  assert.equal(created.status, 201, created.text);
  return created.body as {
    id: string;
    externalId: string;
    production: { tenantId: string; walletSecret: string };
    sandbox: { tenantId: string; walletSecret: string };
  };
}

async function activate(client: Awaited<ReturnType<typeof newClient>>, fixture = agg) {
  wallets.production.setSecret(client.production.walletSecret);
  wallets.sandbox.setSecret(client.sandbox.walletSecret);
  await wallets.production.addPlayer('validation-prod', 100);
  await wallets.sandbox.addPlayer('validation-sandbox', 100);
  const activated = await fixture.call('POST', `/clients/${client.id}/activate`, {
    productionPlayerId: 'validation-prod',
    sandboxPlayerId: 'validation-sandbox',
  });
  assert.equal(activated.status, 200, activated.text);
  return activated.body;
}

async function auditRows(action: string) {
  return t.db.selectFrom('audit_log').selectAll().where('action', '=', action).orderBy('id').execute();
}

describe('GET /api/v1/admin/clients: clients across aggregators', () => {
  it("lists every aggregator's clients newest first, each as its aggregator reads it plus the aggregator", async () => {
    const first = await newClient({ name: 'Lucky Casino' });
    t.clock.advance(1000);
    const other = await setUpAggregator(t, wallets, { adminToken: agg.adminToken });
    const second = await newClient({ name: 'Sol Bets' }, other);
    const response = await admin('GET', '/clients');
    assert.equal(response.status, 200);
    assert.deepEqual(
      response.body.clients.map((client: { id: string }) => client.id),
      [second.id, first.id],
    );
    const own = (await agg.call('GET', `/clients/${first.id}`)).body.client;
    assert.deepEqual(response.body.clients[1], {
      ...own,
      aggregatorId: agg.aggregatorId,
      aggregatorName: 'Acme Aggregation',
    });
    assert.deepEqual(
      [response.body.clients[1].production.tenantId, response.body.clients[1].production.status],
      [first.production.tenantId, 'suspended'],
    );
    assert.equal(response.body.clients[1].sandbox.tenantId, first.sandbox.tenantId);
    assert.equal(response.body.nextCursor, '');
    for (const secret of [first.production.walletSecret, first.sandbox.walletSecret, agg.key]) {
      assert.ok(!response.text.includes(secret));
    }
  });

  it('searches by part of the name, the id, the externalId or a tenant id, and filters by aggregator and status', async () => {
    const lucky = await newClient({ name: 'Lucky Casino', externalId: 'casino-42' });
    t.clock.advance(1000);
    const sol = await newClient({ name: 'Sol Bets' });
    await activate(sol);
    t.clock.advance(1000);
    const other = await setUpAggregator(t, wallets, { adminToken: agg.adminToken });
    const third = await newClient({ name: 'Third Lucky' }, other);
    const ids = async (query: string) => {
      const response = await admin('GET', `/clients?${query}`);
      assert.equal(response.status, 200, `${query}: ${response.text}`);
      return response.body.clients.map((client: { id: string }) => client.id);
    };
    assert.deepEqual(await ids('q=lUcKy'), [third.id, lucky.id]);
    assert.deepEqual(await ids(`q=${lucky.id}`), [lucky.id]);
    assert.deepEqual(await ids('q=casino-42'), [lucky.id]);
    assert.deepEqual(await ids('q=casino-4'), [], 'the externalId is matched whole');
    assert.deepEqual(await ids(`q=${sol.production.tenantId}`), [sol.id]);
    assert.deepEqual(await ids(`q=${sol.sandbox.tenantId}`), [sol.id]);
    assert.deepEqual(await ids('q=tn_0000000000000000'), []);
    assert.deepEqual(await ids('q=%25'), [], 'no wildcard');
    assert.deepEqual(await ids(`aggregatorId=${other.aggregatorId}`), [third.id]);
    assert.deepEqual(await ids('status=active'), [sol.id]);
    assert.deepEqual(await ids(`status=suspended&aggregatorId=${agg.aggregatorId}`), [lucky.id]);
  });

  it('order=oldest lists the first client created first, paging on in that order', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push((await newClient()).id);
      t.clock.advance(1000);
    }
    const seen = [];
    let cursor = '';
    do {
      const page = await admin('GET', `/clients?order=oldest&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...page.body.clients.map((client: { id: string }) => client.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, created);
  });

  it('pages with a cursor and refuses what it cannot read', async () => {
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.unshift((await newClient()).id);
      t.clock.advance(1000);
    }
    const seen = [];
    let cursor = '';
    do {
      const page = await admin('GET', `/clients?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.body.clients.length, 1);
      seen.push(page.body.clients[0].id);
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(seen, created);
    assert.equal((await admin('GET', '/clients?limit=100')).body.clients.length, 3);
    for (const query of [
      'limit=0',
      'limit=101',
      'cursor=abc',
      `cursor=${'x'.repeat(101)}`,
      'status=revoked',
      'externalId=x',
      'q=',
      'q=a%00b',
      `q=${'x'.repeat(129)}`,
      `aggregatorId=${'x'.repeat(65)}`,
    ]) {
      const response = await admin('GET', `/clients?${query}`);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
    }
    const surrogate = await admin('GET', '/clients?q=%ED%A0%80');
    assert.deepEqual([surrogate.status, surrogate.body.error.code], [400, 'malformed_url']);
  });

  it('is for platform administrators: operators and traders get 403', async () => {
    const tenant = await createTenant(t, agg.adminToken);
    const operator = await loginAsStaff(t, 'operator', { tenantId: tenant.tenantId });
    const trader = await loginAsStaff(t, 'trader');
    for (const token of [operator.token, trader.token]) {
      for (const path of ['/clients', `/aggregators/${agg.aggregatorId}/keys`]) {
        const response = await admin('GET', path, undefined, token);
        assert.deepEqual([response.status, response.body.error.code], [403, 'forbidden'], path);
      }
      for (const action of ['disable', 'enable']) {
        const response = await admin('POST', `/aggregators/${agg.aggregatorId}/${action}`, {}, token);
        assert.equal(response.status, 403);
      }
    }
    assert.equal((await t.request('GET', '/api/v1/admin/clients')).status, 401);
  });
});

describe("GET /api/v1/admin/clients/{id}: the client's history", () => {
  it('holds its creation, activation attempts and every intervention, newest first, with who and why', async () => {
    const client = await newClient();
    t.clock.advance(1000);
    const refused = await agg.call('POST', `/clients/${client.id}/activate`, {
      productionPlayerId: 'nobody',
      sandboxPlayerId: 'nobody',
    });
    assert.equal(refused.status, 400);
    t.clock.advance(1000);
    await activate(client);
    for (const [path, reason] of [
      ['suspend', 'compliance review'],
      ['resume', 'cleared'],
      ['revoke-credentials', 'leaked key'],
      ['resume', 'new keys'],
    ] as const) {
      t.clock.advance(1000);
      const response = await admin('POST', `/clients/${client.id}/${path}`, { reason });
      assert.equal(response.status, 200, response.text);
      assert.equal(response.body.history[0].details.reason, reason, 'the answer holds the new entry');
    }
    t.clock.advance(1000);
    const rotated = await agg.call('POST', `/clients/${client.id}/credentials/rotate`, {
      environment: 'sandbox',
      reason: 'scheduled',
    });
    assert.equal(rotated.status, 200, rotated.text);

    const read = await admin('GET', `/clients/${client.id}`);
    assert.equal(read.status, 200);
    assert.deepEqual(Object.keys(read.body), ['client', 'aggregatorId', 'history']);
    const staffId = (await t.db.selectFrom('staff_users').select('id').executeTakeFirstOrThrow()).id;
    assert.deepEqual(
      read.body.history.map((entry: { action: string; outcome: string; actor: { type: string; id: string } }) => [
        entry.action,
        entry.outcome,
        entry.actor.type,
        entry.actor.id,
      ]),
      [
        ['client.credentials.rotate', 'success', 'aggregator', agg.aggregatorId],
        ['client.resume', 'success', 'staff', staffId],
        ['client.credentials.revoke', 'success', 'staff', staffId],
        ['client.resume', 'success', 'staff', staffId],
        ['client.suspend', 'success', 'staff', staffId],
        ['client.activate', 'success', 'aggregator', agg.aggregatorId],
        ['client.activate', 'failure', 'aggregator', agg.aggregatorId],
        ['client.create', 'success', 'aggregator', agg.aggregatorId],
      ],
    );
    const [rotation, , , , suspension, , failure, creation] = read.body.history;
    assert.equal(rotation.at, t.clock.now().toISOString());
    assert.deepEqual(rotation.details, {
      keyId: agg.keyId,
      clientId: client.id,
      environment: 'sandbox',
      revokedKeys: 0,
      reason: 'scheduled',
    });
    assert.deepEqual(suspension.details, { reason: 'compliance review' });
    assert.equal(failure.details.environment, 'production');
    assert.equal(failure.details.check, 'balance');
    assert.equal(creation.details.externalId, client.externalId);
    for (const secret of [client.production.walletSecret, rotated.body.integrationApiKey, agg.key]) {
      assert.ok(!read.text.includes(secret));
    }
  });

  it("answers 404 for an unknown client, and another client's history is not mixed in", async () => {
    const one = await newClient();
    await newClient();
    const read = await admin('GET', `/clients/${one.id}`);
    assert.deepEqual(
      read.body.history.map((entry: { action: string }) => entry.action),
      ['client.create'],
    );
    const unknown = await admin('GET', '/clients/cl_0000000000000000');
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
  });
});

describe('GET /api/v1/admin/aggregators/{id}/keys', () => {
  it('shows each key with its prefix, scopes, expiry, creator and last use; never the key or its hash', async () => {
    const response = await admin('GET', `/aggregators/${agg.aggregatorId}/keys`);
    assert.equal(response.status, 200);
    const staffId = (await t.db.selectFrom('staff_users').select('id').executeTakeFirstOrThrow()).id;
    const [key] = response.body.keys;
    assert.deepEqual(key, {
      keyId: agg.keyId,
      prefix: agg.key.slice(0, 'bm_agg_'.length + 6),
      scopes: ['clients:read', 'clients:create', 'clients:activate', 'credentials:rotate'],
      status: 'live',
      expiresAt: key.expiresAt,
      revokedAt: null,
      createdAt: t.clock.now().toISOString(),
      createdBy: staffId,
      lastUsedAt: null,
    });
    assert.ok(!response.text.includes(agg.key));
    assert.ok(!response.text.includes(sha256Hex(agg.key)));
  });

  it('records the last use of a key at most once a minute', async () => {
    const lastUsed = async () => (await admin('GET', `/aggregators/${agg.aggregatorId}/keys`)).body.keys[0].lastUsedAt;
    await agg.call('GET', '/clients');
    const first = t.clock.now().toISOString();
    assert.equal(await lastUsed(), first);
    t.clock.advance(59_000);
    await agg.call('GET', '/clients');
    assert.equal(await lastUsed(), first, 'not written again within the minute');
    t.clock.advance(1_000);
    await agg.call('GET', '/clients');
    assert.equal(await lastUsed(), t.clock.now().toISOString());
  });

  it('lists newest first with each status: live, revoked, expired', async () => {
    t.clock.advance(1000);
    const shortLived = await admin('POST', `/aggregators/${agg.aggregatorId}/keys`, {
      scopes: ['clients:read'],
      expiresAt: new Date(t.clock.now().getTime() + 60_000).toISOString(),
    });
    assert.equal(shortLived.status, 201);
    assert.equal(shortLived.body.prefix, shortLived.body.key.slice(0, 13));
    t.clock.advance(1000);
    const revoked = await admin('POST', `/aggregators/${agg.aggregatorId}/keys`, { scopes: ['clients:read'] });
    await admin('DELETE', `/aggregators/${agg.aggregatorId}/keys/${revoked.body.keyId}`);
    t.clock.advance(60_000);
    const keys = (await admin('GET', `/aggregators/${agg.aggregatorId}/keys`)).body.keys;
    assert.deepEqual(
      keys.map((key: { keyId: string; status: string }) => [key.keyId, key.status]),
      [
        [revoked.body.keyId, 'revoked'],
        [shortLived.body.keyId, 'expired'],
        [agg.keyId, 'live'],
      ],
    );
    const unknown = await admin('GET', '/aggregators/ag_0000000000000000/keys');
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
  });
});

describe('disabling and enabling an aggregator', () => {
  it("disabling blocks its API access while its clients' integrations go on; enabling restores it", async () => {
    const client = await newClient();
    const activated = await activate(client);
    const disabled = await admin('POST', `/aggregators/${agg.aggregatorId}/disable`, { reason: 'contract paused' });
    assert.equal(disabled.status, 200, disabled.text);
    assert.deepEqual(
      [
        disabled.body.aggregator.id,
        disabled.body.aggregator.authorization.enabled,
        disabled.body.aggregator.authorization.version,
      ],
      [agg.aggregatorId, false, 2],
    );
    const refused = await agg.call('GET', '/clients');
    assert.deepEqual(
      [refused.status, refused.body.error.code, refused.body.error.details],
      [401, 'unauthorized', { reason: 'authorization_disabled' }],
    );
    const tenantKey = await t.app.services.tenants.authenticateIntegrationKey(
      client.production.tenantId,
      activated.production.integrationApiKey,
    );
    assert.ok(tenantKey, "the client's integration key still works");

    assert.equal((await admin('POST', `/aggregators/${agg.aggregatorId}/disable`, {})).status, 200);
    const enabled = await admin('POST', `/aggregators/${agg.aggregatorId}/enable`, { reason: 'resumed' });
    assert.deepEqual(
      [enabled.status, enabled.body.aggregator.authorization.enabled, enabled.body.aggregator.authorization.version],
      [200, true, 3],
    );
    assert.equal((await agg.call('GET', '/clients')).status, 200);
    const staffId = (await t.db.selectFrom('staff_users').select('id').executeTakeFirstOrThrow()).id;
    const rows = [...(await auditRows('aggregator.disable')), ...(await auditRows('aggregator.enable'))];
    assert.deepEqual(
      rows.map((row) => [row.action, row.actor_id, row.target_type, row.target_id, row.details]),
      [
        ['aggregator.disable', staffId, 'aggregator', agg.aggregatorId, { reason: 'contract paused', version: 2 }],
        ['aggregator.enable', staffId, 'aggregator', agg.aggregatorId, { reason: 'resumed', version: 3 }],
      ],
      'one row per change: disabling a disabled aggregator changed nothing',
    );
  });

  it('needs an authorization to turn on or off, and a known aggregator; refuses a bad body', async () => {
    const created = await admin('POST', '/aggregators', { name: 'No Policy Yet' });
    for (const action of ['disable', 'enable']) {
      const response = await admin('POST', `/aggregators/${created.body.aggregator.id}/${action}`, {});
      assert.deepEqual([response.status, response.body.error.code], [409, 'authorization_missing']);
      const unknown = await admin('POST', `/aggregators/ag_0000000000000000/${action}`, {});
      assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
      for (const body of [{ other: true }, { reason: '' }, { reason: 'x'.repeat(501) }, { reason: 'a\u0000' }]) {
        const bad = await admin('POST', `/aggregators/${agg.aggregatorId}/${action}`, body);
        assert.deepEqual([bad.status, bad.body.error.code], [400, 'validation'], JSON.stringify(body));
      }
    }
    // Setting the whole policy still works as before and keeps its version count.
    const put = await admin(
      'PUT',
      `/aggregators/${agg.aggregatorId}/authorization`,
      authorizationBody(t, [new URL(wallets.production.url).origin, new URL(wallets.sandbox.url).origin], {
        enabled: false,
      }),
    );
    assert.deepEqual([put.body.authorization.enabled, put.body.authorization.version], [false, 2]);
  });
});
