import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressKey } from '../../src/platform/http/failure-budget.ts';
import { setUpAggregator } from '../helpers/aggregator.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant } from '../helpers/tenant.ts';
import { startWalletPair } from '../helpers/wallet.ts';

/** Failed credential checks from one address spend a budget; past it, 429 comes before any database look-up. */
const BUDGET = 3;

async function withApp(work: (t: TestApp) => Promise<void>): Promise<void> {
  const t = await startTestApp(
    {},
    { authLimits: { failedAttemptsPerMinute: BUDGET, aggregatorRequestsPerMinute: 120 } },
  );
  try {
    await work(t);
  } finally {
    await t.close();
  }
}

function assertLimited(response: { status: number; headers: Headers; body: any }) {
  assert.equal(response.status, 429);
  assert.equal(response.body.error.code, 'rate_limited');
  const wait = Number(response.headers.get('retry-after'));
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
  assert.equal(response.body.error.details.retryAfterSeconds, wait);
}

describe('failed attempts per client address', () => {
  it('aggregator API: invalid keys spend the budget, then even a valid key from that address waits', async () => {
    await withApp(async (t) => {
      const wallets = await startWalletPair(t.clock);
      try {
        const agg = await setUpAggregator(t, wallets);
        for (let i = 0; i < BUDGET; i++) {
          const refused = await agg.call('GET', '/clients', undefined, { key: `bm_agg_${'x'.repeat(43)}` });
          assert.deepEqual([refused.status, refused.body.error.code], [401, 'unauthorized'], `attempt ${i + 1}`);
        }
        assertLimited(await agg.call('GET', '/clients', undefined, { key: `bm_agg_${'y'.repeat(43)}` }));
        assertLimited(await agg.call('GET', '/clients'));
      } finally {
        await wallets.close();
      }
    });
  });

  it('integration API: past the budget wrong keys are refused without a look-up (no more audit rows)', async () => {
    await withApp(async (t) => {
      const admin = (await loginAsStaff(t, 'platform_admin')).token;
      const tenant = await createTenant(t, admin);
      const open = () =>
        t.request('POST', '/api/v1/integration/sessions', {
          headers: { 'x-tenant-id': tenant.tenantId, 'x-api-key': 'bm_int_wrong' },
          body: { externalPlayerId: 'p1' },
        });
      for (let i = 0; i < BUDGET; i++) assert.equal((await open()).status, 401);
      const audited = async () =>
        (await t.db.selectFrom('audit_log').select('id').where('action', '=', 'integration.authenticate').execute())
          .length;
      const before = await audited();
      assertLimited(await open());
      assert.equal(await audited(), before, 'no look-up, no audit row');
    });
  });

  it('staff log-in: wrong passwords spend the same budget (each one costs a scrypt)', async () => {
    await withApp(async (t) => {
      const login = () =>
        t.request('POST', '/api/v1/admin/auth/login', {
          body: { email: 'nobody@bookmaker.test', password: 'wrong password', totp: '123456' },
        });
      for (let i = 0; i < BUDGET; i++) assert.equal((await login()).status, 401);
      assertLimited(await login());
    });
  });
});

describe('the failure budget', () => {
  it('parallel guesses cannot outrun it: only the budget gets checked, the rest wait', async () => {
    await withApp(async (t) => {
      const answers = await Promise.all(
        Array.from({ length: 12 }, () =>
          t.request('POST', '/api/v1/admin/auth/login', {
            body: { email: 'nobody@bookmaker.test', password: 'wrong password', totp: '123456' },
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.status).sort();
      assert.deepEqual(statuses, [...Array(BUDGET).fill(401), ...Array(12 - BUDGET).fill(429)]);
    });
  });

  it('refusals that are not guesses at a credential spend nothing (a missing scope, an Origin header)', async () => {
    await withApp(async (t) => {
      const wallets = await startWalletPair(t.clock);
      try {
        const agg = await setUpAggregator(t, wallets, { scopes: ['clients:read'] });
        for (let i = 0; i < BUDGET + 2; i++) {
          const refused = await agg.call('POST', '/clients', {});
          assert.deepEqual([refused.status, refused.body.error.code], [403, 'scope_missing']);
          const browser = await agg.call('GET', '/clients', undefined, { headers: { origin: 'https://x.example' } });
          assert.deepEqual([browser.status, browser.body.error.code], [403, 'origin_not_allowed']);
        }
        assert.equal((await agg.call('GET', '/clients')).status, 200);
      } finally {
        await wallets.close();
      }
    });
  });

  it('behind a trusted proxy (TRUST_PROXY) it counts the forwarded client address, not the proxy', async () => {
    const t = await startTestApp(
      { TRUST_PROXY: '127.0.0.1' },
      { authLimits: { failedAttemptsPerMinute: BUDGET, aggregatorRequestsPerMinute: 120 } },
    );
    try {
      const login = (client: string) =>
        t.request('POST', '/api/v1/admin/auth/login', {
          headers: { 'x-forwarded-for': client },
          body: { email: 'nobody@bookmaker.test', password: 'wrong password', totp: '123456' },
        });
      for (let i = 0; i < BUDGET; i++) assert.equal((await login('198.51.100.1')).status, 401);
      assert.equal((await login('198.51.100.1')).status, 429);
      assert.equal((await login('198.51.100.2')).status, 401, 'another client behind the same proxy is not blocked');
    } finally {
      await t.close();
    }
  });

  it('counts an IPv6 client by its /64, and an IPv4-mapped address as the IPv4 one', () => {
    assert.equal(addressKey('2001:db8:1:2:3:4:5:6'), addressKey('2001:db8:1:2:ffff::1'));
    assert.notEqual(addressKey('2001:db8:1:2::1'), addressKey('2001:db8:1:3::1'));
    assert.equal(addressKey('::ffff:192.0.2.7'), '192.0.2.7');
    assert.equal(addressKey('192.0.2.7'), '192.0.2.7');
  });
});
