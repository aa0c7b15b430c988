import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, exchange, openSession } from '../helpers/tenant.ts';

const LOCAL_ENDPOINTS = [
  ['POST', '/api/v1/auth/register'],
  ['POST', '/api/v1/auth/login'],
  ['POST', '/api/v1/auth/password'],
  ['GET', '/api/v1/kyc'],
  ['POST', '/api/v1/kyc'],
  ['POST', '/api/v1/wallet/deposit'],
  ['POST', '/api/v1/wallet/withdraw'],
] as const;

for (const appEnv of ['production', 'development'] as const) {
  describe(`production rules with APP_ENV=${appEnv}`, () => {
    let t: TestApp;
    before(async () => (t = await startTestApp({ APP_ENV: appEnv })));
    after(() => t.close());

    it('local account, KYC and cashier endpoints answer 403 operator_managed', async () => {
      for (const [method, path] of LOCAL_ENDPOINTS) {
        const response = await t.request(
          method,
          path,
          method === 'POST' ? { body: { email: 'a@b.c', password: 'x', amount: 100 } } : {},
        );
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.equal(response.body.error.code, 'operator_managed');
      }
    });

    it('integrated seamless-wallet sessions work, and only their tokens are accepted', async () => {
      const admin = (await loginAsStaff(t, 'platform_admin')).token;
      const tenant = await createTenant(t, admin);
      const opened = await openSession(t, tenant, { externalPlayerId: `p-${appEnv}` });
      assert.equal(opened.status, 200);
      const launched = await exchange(t, tenant.tenantId, opened.body.launchToken);
      assert.equal((await t.request('GET', '/api/v1/session', { token: launched.body.token })).status, 200);
      for (const legacy of [
        'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJwbGF5ZXIifQ.c2lnbmF0dXJlc2lnbmF0dXJl',
        'bm_player_0123456789abcdef0123',
      ]) {
        const response = await t.request('GET', '/api/v1/session', { token: legacy });
        assert.equal(response.status, 401, 'an older local-login token is refused');
      }
    });
  });
}
