import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { authorizationBody, createClientBody } from '../helpers/aggregator.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant } from '../helpers/tenant.ts';

/**
 * Outside development, wallet origins and URLs are refused when they are saved if the transport would refuse them
 * at call time: an IP literal in a special range, or a port other than 443. A hostname is checked at each call.
 */
const REFUSED: Array<[string, 'public_address' | 'port_443']> = [
  ['https://169.254.169.254', 'public_address'],
  ['https://0.0.0.0', 'public_address'],
  ['https://[::]', 'public_address'],
  ['https://[::ffff:7f00:1]', 'public_address'],
  ['https://10.0.0.1', 'public_address'],
  ['https://100.64.0.1', 'public_address'],
  ['https://[fd00::1]', 'public_address'],
  ['https://127.0.0.1', 'public_address'],
  ['https://localhost', 'public_address'],
  ['https://wallet.casino.example:8443', 'port_443'],
];

let t: TestApp;
let admin: string;
let aggregatorId: string;
let aggregatorKey: string;
before(async () => {
  t = await startTestApp({ APP_ENV: 'staging' });
  admin = (await loginAsStaff(t, 'platform_admin')).token;
  aggregatorId = (await t.request('POST', '/api/v1/admin/aggregators', { token: admin, body: { name: 'Acme' } })).body
    .aggregator.id;
  const origins = ['https://wallet.casino.example', 'https://sandbox.casino.example'];
  const saved = await putAuthorization(origins);
  assert.equal(saved.status, 200, saved.text);
  const issued = await t.request('POST', `/api/v1/admin/aggregators/${aggregatorId}/keys`, {
    token: admin,
    body: { scopes: ['clients:create'] },
  });
  aggregatorKey = issued.body.key;
});
after(() => t.close());

function putAuthorization(walletOrigins: string[]) {
  return t.request('PUT', `/api/v1/admin/aggregators/${aggregatorId}/authorization`, {
    token: admin,
    body: authorizationBody(t, walletOrigins),
  });
}

function assertRefused(response: { status: number; body: any }, field: string, rule: string, value: string) {
  assert.equal(response.status, 400, `${value}: ${JSON.stringify(response.body)}`);
  assert.equal(response.body.error.code, 'validation');
  assert.deepEqual(response.body.error.details, { field, rule });
  assert.ok(response.body.error.message.includes(value), response.body.error.message);
}

describe('wallet destinations are checked when saved (APP_ENV=staging)', () => {
  for (const [origin, rule] of REFUSED) {
    it(`${origin} is refused in an authorization, CreateClient and tenant settings (${rule})`, async () => {
      assertRefused(await putAuthorization(['https://wallet.casino.example', origin]), 'walletOrigins.1', rule, origin);

      const created = await t.request('POST', '/api/v1/aggregator/clients', {
        token: aggregatorKey,
        headers: { 'idempotency-key': `idem-${Math.random().toString(36).slice(2, 12)}` },
        body: createClientBody({
          production: { url: `${origin}/wallet` },
          sandbox: { url: 'https://sandbox.casino.example/wallet' },
        }),
      });
      assertRefused(created, 'productionWalletUrl', rule, origin);

      const tenant = await t.request('POST', '/api/v1/admin/tenants', {
        token: admin,
        body: { name: 'Sol', currency: 'BRL', locale: 'pt-BR', jurisdiction: 'BR', walletUrl: `${origin}/api` },
      });
      assertRefused(tenant, 'walletUrl', rule, origin);
    });
  }

  it('an admin-set tenant wallet URL follows the same rules', async () => {
    const tenant = await createTenant(t, admin, { walletUrl: 'https://wallet.sol.example/api' });
    const changed = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
      token: admin,
      body: { walletUrl: 'https://wallet.sol.example:8443/api' },
    });
    assertRefused(changed, 'walletUrl', 'port_443', 'https://wallet.sol.example:8443/api');
    const fine = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
      token: admin,
      body: { walletUrl: 'https://wallet2.sol.example:443/api' },
    });
    assert.equal(fine.status, 200, fine.text);
    assert.equal(
      fine.body.tenant.walletUrl,
      'https://wallet2.sol.example/api',
      'port 443 is the default, written without it',
    );
  });

  it('a public IP literal on 443 and a hostname are accepted (a hostname is checked when it resolves, at each call)', async () => {
    assert.equal((await putAuthorization(['https://93.184.216.34', 'https://wallet.casino.example'])).status, 200);
  });
});

describe('in development', () => {
  it('loopback on any port is allowed, a private address still is not', async () => {
    const dev = await startTestApp();
    try {
      const devAdmin = (await loginAsStaff(dev, 'platform_admin')).token;
      const create = (walletUrl: string) =>
        dev.request('POST', '/api/v1/admin/tenants', {
          token: devAdmin,
          body: { name: 'Sol', currency: 'BRL', locale: 'pt-BR', jurisdiction: 'BR', walletUrl },
        });
      assert.equal((await create('http://127.0.0.1:8443/api')).status, 201);
      assertRefused(await create('https://10.0.0.1/api'), 'walletUrl', 'public_address', 'https://10.0.0.1/api');
    } finally {
      await dev.close();
    }
  });
});
