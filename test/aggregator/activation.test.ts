import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { createClientBody, newIdempotencyKey, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { startWalletPair, type WalletPair } from '../helpers/wallet.ts';

let t: TestApp;
let wallets: WalletPair;
let agg: AggregatorFixture;
let client: {
  id: string;
  production: { tenantId: string; walletSecret: string };
  sandbox: { tenantId: string; walletSecret: string };
};

before(async () => {
  t = await startTestApp();
  wallets = await startWalletPair(t.clock);
});
after(async () => {
  await t.close();
  await wallets.close();
});

/** A created client whose wallet secrets the partner has installed, with one validation player per wallet. */
beforeEach(async () => {
  await t.reset();
  for (const wallet of [wallets.production, wallets.sandbox]) {
    wallet.wallet.faults.length = 0;
    wallet.wallet.received.length = 0;
  }
  agg = await setUpAggregator(t, wallets);
  client = (await agg.call('POST', '/clients', createClientBody(wallets))).body;
  wallets.production.setSecret(client.production.walletSecret);
  wallets.sandbox.setSecret(client.sandbox.walletSecret);
  await wallets.production.addPlayer('validation-prod', 12_345);
  await wallets.sandbox.addPlayer('validation-sandbox', 100);
});

const ACTIVATE = { productionPlayerId: 'validation-prod', sandboxPlayerId: 'validation-sandbox', reason: 'go live' };
const activate = (body: Record<string, unknown> = ACTIVATE, options: Parameters<AggregatorFixture['call']>[3] = {}) =>
  agg.call('POST', `/clients/${client.id}/activate`, body, options);
const rotate = (environment: string, options: Parameters<AggregatorFixture['call']>[3] = {}) =>
  agg.call('POST', `/clients/${client.id}/credentials/rotate`, { environment, reason: 'scheduled' }, options);

async function keyWorks(tenantId: string, key: string): Promise<boolean> {
  return (await t.app.services.tenants.authenticateIntegrationKey(tenantId, key)) !== undefined;
}

async function assertNothingActivated() {
  const read = await t.request('GET', `/api/v1/admin/clients/${client.id}`, { token: agg.adminToken });
  assert.equal(read.body.client.status, 'suspended');
  assert.equal(read.body.client.production.integrationKey, null);
  assert.equal(read.body.client.sandbox.integrationKey, null);
  assert.equal((await t.db.selectFrom('integration_keys').select('id').execute()).length, 0);
  const tenants = await t.db.selectFrom('tenants').select('status').execute();
  assert.ok(tenants.every((tenant) => tenant.status === 'suspended'));
}

describe('ActivateClient', () => {
  it('validates both wallets, activates, and issues one integration key per environment', async () => {
    const response = await activate();
    assert.equal(response.status, 200, response.text);
    const body = response.body;
    assert.deepEqual(body, {
      id: client.id,
      status: 'active',
      credentialsReplaySeconds: 86400,
      production: {
        tenantId: client.production.tenantId,
        environment: 'production',
        keyId: body.production.keyId,
        integrationApiKey: body.production.integrationApiKey,
      },
      sandbox: {
        tenantId: client.sandbox.tenantId,
        environment: 'sandbox',
        keyId: body.sandbox.keyId,
        integrationApiKey: body.sandbox.integrationApiKey,
      },
    });
    assert.match(body.production.integrationApiKey, /^bm_int_/);
    assert.ok(await keyWorks(client.production.tenantId, body.production.integrationApiKey));
    assert.ok(await keyWorks(client.sandbox.tenantId, body.sandbox.integrationApiKey));
    assert.ok(
      !(await keyWorks(client.sandbox.tenantId, body.production.integrationApiKey)),
      'keys are per environment',
    );
    const read = await agg.call('GET', `/clients/${client.id}`);
    assert.equal(read.body.client.status, 'active');
    assert.equal(read.body.client.nextAction, 'none');
    assert.equal(read.body.client.activatedAt, t.clock.now().toISOString());
    assert.deepEqual(read.body.client.production.integrationKey, {
      keyId: body.production.keyId,
      createdAt: t.clock.now().toISOString(),
    });
    assert.ok(!read.text.includes(body.production.integrationApiKey));
    assert.equal(read.body.client.production.status, 'active');
  });

  it('reads balances only: no movement, no account, and a refused bad signature on all four endpoints', async () => {
    await activate();
    for (const [wallet, player, balance] of [
      [wallets.production, 'validation-prod', 12_345],
      [wallets.sandbox, 'validation-sandbox', 100],
    ] as const) {
      assert.deepEqual(await wallet.wallet.store.transactions(), []);
      assert.equal(await wallet.balanceOf(player), balance);
      assert.deepEqual(
        wallet.wallet.received.map((r) => [r.endpoint, r.signatureValid]),
        [
          ['balance', true],
          ['balance', false],
          ['debit', false],
          ['credit', false],
          ['rollback', false],
        ],
      );
    }
  });

  it('replays the activation response for 24 h with Idempotency-Replayed', async () => {
    const key = newIdempotencyKey();
    const first = await activate(ACTIVATE, { idempotencyKey: key });
    const replay = await activate(ACTIVATE, { idempotencyKey: key });
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);
    assert.ok(
      !JSON.stringify(await t.db.selectFrom('idempotency_records').selectAll().execute()).includes(
        first.body.production.integrationApiKey,
      ),
    );
  });

  it('answers 409 already_active to a second activation', async () => {
    await activate();
    const again = await activate();
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'already_active');
  });

  it('fails the balance check when the wallet secret was not installed, activating nothing', async () => {
    wallets.production.setSecret('an old secret');
    const response = await activate();
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'wallet_validation_failed');
    assert.deepEqual(response.body.error.details, {
      environment: 'production',
      check: 'balance',
      endpoint: 'balance',
      reason: 'wallet_refused',
      status: 401,
      operatorCode: 'invalid_signature',
    });
    await assertNothingActivated();
  });

  it('fails when the validation player is unknown to the sandbox wallet, activating neither environment', async () => {
    const response = await activate({ ...ACTIVATE, sandboxPlayerId: 'nobody' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.environment, 'sandbox');
    assert.equal(response.body.error.details.operatorCode, 'player_not_found');
    await assertNothingActivated();
  });

  it('fails when the balance comes back in another currency', async () => {
    wallets.production.fault({ mode: 'wrong_currency', endpoint: 'balance', apply: true });
    const response = await activate();
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.reason, 'currency_mismatch');
    await assertNothingActivated();
  });

  it('fails when the balance call answers 5xx', async () => {
    wallets.sandbox.fault({ mode: 'status_503', endpoint: 'balance' });
    const response = await activate();
    assert.deepEqual(
      [response.status, response.body.error.details.environment, response.body.error.details.reason],
      [400, 'sandbox', 'status_5xx'],
    );
    await assertNothingActivated();
  });

  describe('against a wallet that does not check signatures', () => {
    let lax: Server;
    let laxUrl: string;
    before(async () => {
      lax = createServer((req, res) => {
        let raw = '';
        req.on('data', (chunk) => (raw += chunk));
        req.on('end', () => {
          const txId = (JSON.parse(raw) as { txId: string }).txId;
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ txId, balance: 500, currency: 'BRL' }));
        });
      });
      await new Promise<void>((resolve) => lax.listen(0, '127.0.0.1', resolve));
      laxUrl = `http://127.0.0.1:${(lax.address() as AddressInfo).port}`;
    });
    after(() => new Promise((resolve) => lax.close(resolve)));

    it('fails the signature check on the first endpoint that accepts a bad signature', async () => {
      await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
        token: agg.adminToken,
        body: {
          enabled: true,
          clientQuota: 5,
          currencies: ['BRL'],
          jurisdictions: ['BR'],
          territories: ['BR'],
          walletOrigins: [new URL(wallets.production.url).origin, laxUrl],
          autoActivation: true,
          agreementRef: 'AGR',
          expiresAt: new Date(t.clock.now().getTime() + 86_400_000 * 30).toISOString(),
        },
      });
      const laxClient = (await agg.call('POST', '/clients', createClientBody(wallets, { sandboxWalletUrl: laxUrl })))
        .body;
      wallets.production.setSecret(laxClient.production.walletSecret);
      const response = await agg.call('POST', `/clients/${laxClient.id}/activate`, ACTIVATE);
      assert.equal(response.status, 400);
      assert.deepEqual(response.body.error.details, {
        environment: 'sandbox',
        check: 'signature',
        endpoint: 'balance',
        reason: 'accepted_invalid_signature',
        status: 200,
      });
    });
  });

  it('is refused with 403 when the authorization does not let the aggregator activate, saying who changes what', async () => {
    const read = await t.request('GET', `/api/v1/admin/aggregators/${agg.aggregatorId}`, { token: agg.adminToken });
    const { version: _v, updatedAt: _u, updatedBy: _b, ...policy } = read.body.aggregator.authorization;
    await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
      token: agg.adminToken,
      body: { ...policy, autoActivation: false },
    });
    const response = await activate();
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'activation_not_permitted');
    assert.match(response.body.error.message, /autoActivation is off.*platform administrator.*ActivateClient again/);
    assert.equal(wallets.production.wallet.received.length, 0, 'no wallet is called');
  });

  it('activates nothing when the authorization changes while the wallets are being checked', async () => {
    wallets.production.fault({ mode: 'delay', endpoint: 'balance', delayMs: 1_000, apply: true });
    const pending = activate();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const read = await t.request('GET', `/api/v1/admin/aggregators/${agg.aggregatorId}`, { token: agg.adminToken });
    const { version: _v, updatedAt: _u, updatedBy: _b, ...policy } = read.body.aggregator.authorization;
    await t.request('PUT', `/api/v1/admin/aggregators/${agg.aggregatorId}/authorization`, {
      token: agg.adminToken,
      body: { ...policy, clientQuota: 7 },
    });
    const response = await pending;
    assert.equal(response.status, 409);
    assert.equal(response.body.error.code, 'configuration_changed');
    assert.deepEqual(response.body.error.details, { changed: 'authorization' });
    await assertNothingActivated();
  });

  it('activates nothing when the API key is revoked while the wallets are being checked', async () => {
    wallets.sandbox.fault({ mode: 'delay', endpoint: 'balance', delayMs: 1_000, apply: true });
    const pending = activate();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.request('DELETE', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys/${agg.keyId}`, {
      token: agg.adminToken,
    });
    const response = await pending;
    assert.equal(response.status, 409);
    assert.deepEqual(response.body.error.details, { changed: 'API key' });
    await assertNothingActivated();
  });

  it('a client suspended by the platform cannot activate itself until the platform resumes it', async () => {
    const suspended = await t.request('POST', `/api/v1/admin/clients/${client.id}/suspend`, {
      token: agg.adminToken,
      body: { reason: 'compliance review' },
    });
    assert.equal(suspended.status, 200);
    assert.equal(suspended.body.client.suspendedByPlatform, true);
    assert.equal(suspended.body.client.nextAction, 'contact_platform');
    const refused = await activate();
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'suspended_by_platform');
    const resumed = await t.request('POST', `/api/v1/admin/clients/${client.id}/resume`, {
      token: agg.adminToken,
      body: {},
    });
    assert.equal(resumed.body.client.status, 'suspended');
    assert.equal(resumed.body.client.suspendedByPlatform, false);
    assert.equal((await activate()).status, 200);
  });

  it('activates nothing when the platform suspends the client while the wallets are being checked', async () => {
    wallets.production.fault({ mode: 'delay', endpoint: 'balance', delayMs: 1_000, apply: true });
    const pending = activate();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await t.request('POST', `/api/v1/admin/clients/${client.id}/suspend`, { token: agg.adminToken, body: {} });
    const response = await pending;
    assert.equal(response.status, 409);
    assert.deepEqual(response.body.error.details, { changed: 'client' });
    assert.equal((await t.db.selectFrom('integration_keys').select('id').execute()).length, 0);
  });

  it('two concurrent activations with different keys activate once', async () => {
    const results = await Promise.all([activate(), activate()]);
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    assert.ok(['configuration_changed', 'already_active'].includes(refused.body.error.code));
    assert.equal((await t.db.selectFrom('integration_keys').select('id').execute()).length, 2);
  });

  it('bounds the validation player ids to 1-128 characters and requires both', async () => {
    for (const body of [
      { ...ACTIVATE, productionPlayerId: '' },
      { ...ACTIVATE, sandboxPlayerId: 'x'.repeat(129) },
      { productionPlayerId: 'p' },
    ]) {
      const response = await activate(body);
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'validation');
    }
  });

  it('needs the clients:activate scope', async () => {
    const creator = await t.request('POST', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys`, {
      token: agg.adminToken,
      body: { scopes: ['clients:create', 'clients:read'] },
    });
    const response = await activate(ACTIVATE, { key: creator.body.key });
    assert.equal(response.status, 403);
    assert.equal(response.body.error.code, 'scope_missing');
  });

  it('audits successes and failures', async () => {
    wallets.production.fault({ mode: 'status_500', endpoint: 'balance' });
    await activate();
    await activate();
    const rows = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'client.activate')
      .orderBy('id')
      .execute();
    assert.deepEqual(
      rows.map((row) => [row.outcome, row.actor_type, row.actor_id]),
      [
        ['failure', 'aggregator', agg.aggregatorId],
        ['success', 'aggregator', agg.aggregatorId],
      ],
    );
  });
});

describe('RotateCredentials', () => {
  it('replaces the key of one environment: the new key works, the old one does not, the other environment is untouched', async () => {
    const activated = (await activate()).body;
    // Used a moment before: a key remembered as live must stop at once all the same.
    assert.ok(await keyWorks(client.production.tenantId, activated.production.integrationApiKey));
    const response = await rotate('production');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, {
      id: client.id,
      environment: 'production',
      tenantId: client.production.tenantId,
      keyId: response.body.keyId,
      integrationApiKey: response.body.integrationApiKey,
      revokedKeys: 1,
      credentialsReplaySeconds: 86400,
    });
    assert.ok(await keyWorks(client.production.tenantId, response.body.integrationApiKey));
    assert.ok(!(await keyWorks(client.production.tenantId, activated.production.integrationApiKey)));
    assert.ok(await keyWorks(client.sandbox.tenantId, activated.sandbox.integrationApiKey));
  });

  it('leaves the wallet secrets as they were', async () => {
    await activate();
    const before = await t.db.selectFrom('tenants').select(['id', 'wallet_secret_enc']).orderBy('id').execute();
    await rotate('sandbox');
    assert.deepEqual(
      await t.db.selectFrom('tenants').select(['id', 'wallet_secret_enc']).orderBy('id').execute(),
      before,
    );
  });

  it('replays the same new key for a retry with the same Idempotency-Key', async () => {
    await activate();
    const key = newIdempotencyKey();
    const first = await rotate('sandbox', { idempotencyKey: key });
    const replay = await rotate('sandbox', { idempotencyKey: key });
    assert.equal(replay.headers.get('idempotency-replayed'), 'true');
    assert.equal(replay.body.integrationApiKey, first.body.integrationApiKey);
    assert.ok(await keyWorks(client.sandbox.tenantId, first.body.integrationApiKey));
  });

  it('is refused while the platform holds the client suspended, and works again after resume', async () => {
    await activate();
    await t.request('POST', `/api/v1/admin/clients/${client.id}/suspend`, { token: agg.adminToken, body: {} });
    const refused = await rotate('production');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'suspended_by_platform');
    await t.request('POST', `/api/v1/admin/clients/${client.id}/resume`, { token: agg.adminToken, body: {} });
    assert.equal((await rotate('production')).status, 200);
  });

  it('cannot undo a platform revocation: refused until the platform resumes the client', async () => {
    await activate();
    await t.request('POST', `/api/v1/admin/clients/${client.id}/revoke-credentials`, {
      token: agg.adminToken,
      body: {},
    });
    const refused = await rotate('production');
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error.code, 'credentials_revoked_by_platform');
    assert.equal(
      (await t.db.selectFrom('integration_keys').select('id').where('revoked_at', 'is', null).execute()).length,
      0,
    );
    const resumed = await t.request('POST', `/api/v1/admin/clients/${client.id}/resume`, {
      token: agg.adminToken,
      body: {},
    });
    assert.equal(resumed.body.client.credentialsRevokedByPlatform, false);
    const rotated = await rotate('production');
    assert.equal(rotated.status, 200);
    assert.ok(await keyWorks(client.production.tenantId, rotated.body.integrationApiKey));
  });

  it('answers 409 not_active before activation', async () => {
    const response = await rotate('production');
    assert.equal(response.status, 409);
    assert.equal(response.body.error.code, 'not_active');
  });

  it('refuses an unknown environment and needs the credentials:rotate scope', async () => {
    await activate();
    assert.equal((await rotate('staging')).body.error.details.field, 'environment');
    const reader = await t.request('POST', `/api/v1/admin/aggregators/${agg.aggregatorId}/keys`, {
      token: agg.adminToken,
      body: { scopes: ['clients:read'] },
    });
    assert.equal((await rotate('production', { key: reader.body.key })).body.error.code, 'scope_missing');
  });
});

describe('platform revocation of integration credentials', () => {
  it("revokes both environments' keys and is audited; wallet secrets stay", async () => {
    const activated = (await activate()).body;
    assert.ok(await keyWorks(client.sandbox.tenantId, activated.sandbox.integrationApiKey));
    const response = await t.request('POST', `/api/v1/admin/clients/${client.id}/revoke-credentials`, {
      token: agg.adminToken,
      body: { reason: 'leak' },
    });
    assert.equal(response.status, 200);
    assert.equal(response.body.client.production.integrationKey, null);
    assert.equal(response.body.client.sandbox.integrationKey, null);
    assert.equal(response.body.client.credentialsRevokedByPlatform, true);
    assert.equal(response.body.client.nextAction, 'contact_platform');
    assert.ok(!(await keyWorks(client.production.tenantId, activated.production.integrationApiKey)));
    assert.ok(!(await keyWorks(client.sandbox.tenantId, activated.sandbox.integrationApiKey)));
    const audit = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'client.credentials.revoke')
      .execute();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]!.details.reason, 'leak');
  });
});

describe('the provisioning life cycle', () => {
  it('runs end to end over real HTTP, and no secret reaches a GET response or a log line', async () => {
    await t.reset();
    const fresh = await setUpAggregator(t, wallets);
    const key = newIdempotencyKey();
    const body = createClientBody(wallets, { externalId: 'life-cycle' });
    const created = await fresh.call('POST', '/clients', body, { idempotencyKey: key });
    assert.equal(created.status, 201);
    const replayed = await fresh.call('POST', '/clients', body, { idempotencyKey: key });
    assert.deepEqual([replayed.headers.get('idempotency-replayed'), replayed.body], ['true', created.body]);
    const listed = await fresh.call('GET', '/clients?externalId=life-cycle');
    assert.deepEqual(
      listed.body.clients.map((c: { id: string }) => c.id),
      [created.body.id],
    );
    const read = await fresh.call('GET', `/clients/${created.body.id}`);
    assert.equal(read.body.client.externalId, 'life-cycle');

    wallets.production.setSecret(created.body.production.walletSecret);
    wallets.sandbox.setSecret(created.body.sandbox.walletSecret);
    const activated = await fresh.call('POST', `/clients/${created.body.id}/activate`, ACTIVATE);
    assert.equal(activated.status, 200, activated.text);
    const rotated = await fresh.call('POST', `/clients/${created.body.id}/credentials/rotate`, {
      environment: 'production',
    });
    assert.equal(rotated.status, 200);
    assert.ok(await keyWorks(created.body.production.tenantId, rotated.body.integrationApiKey));
    assert.ok(!(await keyWorks(created.body.production.tenantId, activated.body.production.integrationApiKey)));

    const secrets = [
      fresh.key,
      created.body.production.walletSecret,
      created.body.sandbox.walletSecret,
      activated.body.production.integrationApiKey,
      activated.body.sandbox.integrationApiKey,
      rotated.body.integrationApiKey,
    ];
    const reads = [
      (await fresh.call('GET', '/clients')).text,
      (await fresh.call('GET', `/clients/${created.body.id}`)).text,
      (await t.request('GET', `/api/v1/admin/aggregators/${fresh.aggregatorId}`, { token: fresh.adminToken })).text,
      (await t.request('GET', `/api/v1/admin/clients/${created.body.id}`, { token: fresh.adminToken })).text,
    ].join('\n');
    const database = JSON.stringify(
      await Promise.all(
        (
          ['aggregator_keys', 'tenants', 'integration_keys', 'idempotency_records', 'audit_log', 'clients'] as const
        ).map((table) => t.db.selectFrom(table).selectAll().execute()),
      ),
    );
    for (const secret of secrets) {
      assert.ok(!reads.includes(secret), 'a GET response carries a secret');
      assert.ok(!t.logs.text.includes(secret), 'a log line carries a secret');
      assert.ok(!database.includes(secret), 'the database holds a secret in plaintext');
    }
  });
});

describe('deployment configuration', () => {
  it('refuses activation with 400 deployment_not_configured when integration sandboxes are disabled', async () => {
    const other = await startTestApp({ INTEGRATION_SANDBOXES: 'false' });
    try {
      const fixture = await setUpAggregator(other, wallets);
      const created = (await fixture.call('POST', '/clients', createClientBody(wallets))).body;
      const response = await fixture.call('POST', `/clients/${created.id}/activate`, ACTIVATE);
      assert.equal(response.status, 400);
      assert.equal(response.body.error.code, 'deployment_not_configured');
      assert.deepEqual(response.body.error.details, { setting: 'INTEGRATION_SANDBOXES' });
    } finally {
      await other.close();
    }
  });
});
