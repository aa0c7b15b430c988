import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bearerToken } from '../../src/platform/http/bearer.ts';
import { setUpAggregator } from '../helpers/aggregator.ts';
import { loginAsStaff, startTestApp, type HttpResponse, type TestApp } from '../helpers/app.ts';
import { createTenant, exchange, openSession } from '../helpers/tenant.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * The authorization scheme's name is case-insensitive (RFC 9110 section 11.1): `bearer` and `BEARER` are `Bearer`
 * on every surface that takes a bearer credential; a header that is not a bearer credential is refused as before.
 */

const TOKEN = `bm_staff_${'A'.repeat(43)}`;

describe('bearerToken', () => {
  it('reads the scheme in any case, and the token exactly as sent', () => {
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      assert.equal(bearerToken(`${scheme} ${TOKEN}`), TOKEN, scheme);
    }
    assert.equal(bearerToken(`bearer ${TOKEN.toLowerCase()}`), TOKEN.toLowerCase());
  });

  it('refuses what is not a bearer credential, in any case', () => {
    const malformed = [
      undefined,
      '',
      TOKEN,
      `Basic ${TOKEN}`,
      `basic ${TOKEN}`,
      `Token ${TOKEN}`,
      `Bearer${TOKEN}`,
      `bearer:${TOKEN}`,
      'Bearer',
      'bearer ',
      'BEARER short',
      `Bearer ${TOKEN} extra`,
      `Bearers ${TOKEN}`,
      `xBearer ${TOKEN}`,
    ];
    for (const header of malformed) assert.equal(bearerToken(header), null, String(header));
  });
});

describe('every bearer surface takes the scheme in any case', () => {
  let t: TestApp;
  let staff: string;
  let session: string;
  let aggregatorKey: string;

  before(async () => {
    t = await startTestApp();
    staff = (await loginAsStaff(t, 'platform_admin')).token;
    const tenant = await createTenant(t, staff);
    // The authorization only names the wallet origins; nothing here calls them.
    const wallets = {
      production: { url: 'https://wallet.acme.example/api' },
      sandbox: { url: 'https://sandbox.acme.example/api' },
    } as unknown as { production: TestWallet; sandbox: TestWallet };
    aggregatorKey = (await setUpAggregator(t, wallets, { adminToken: staff })).key;
    const opened = await openSession(t, tenant, { externalPlayerId: 'scheme-case' });
    const launched = await exchange(t, tenant.tenantId, opened.body.launchToken);
    assert.equal(launched.status, 200, launched.text);
    session = launched.body.token;
  });
  after(() => t.close());

  const call = (path: string, authorization: string): Promise<HttpResponse> =>
    t.request('GET', path, { headers: { authorization } });

  const surfaces = () => [
    {
      name: 'a staff route',
      path: '/api/v1/admin/me',
      token: staff,
      refused: { code: 'unauthorized', message: 'The staff token is invalid, expired or logged out.' },
    },
    {
      name: "a player's route (session token)",
      path: '/api/v1/session',
      token: session,
      refused: { code: 'unauthorized', message: 'The session token is invalid, expired or logged out.' },
    },
    {
      name: "an aggregator's route",
      path: '/api/v1/aggregator/clients',
      token: aggregatorKey,
      refused: {
        code: 'unauthorized',
        message: 'An aggregator API key is required (Authorization: Bearer).',
        details: { reason: 'missing_key' },
      },
    },
  ];

  it('answers `bearer` and `BEARER` exactly as `Bearer`', async () => {
    for (const surface of surfaces()) {
      const expected = await call(surface.path, `Bearer ${surface.token}`);
      assert.equal(expected.status, 200, `${surface.name}: ${expected.text}`);
      for (const scheme of ['bearer', 'BEARER', 'beaRER']) {
        const response = await call(surface.path, `${scheme} ${surface.token}`);
        assert.equal(response.status, 200, `${surface.name}, ${scheme}: ${response.text}`);
        // The session's idle end moves with each call: only the player's own fields are compared there.
        assert.deepEqual(
          surface.path === '/api/v1/session' ? response.body.player : response.body,
          surface.path === '/api/v1/session' ? expected.body.player : expected.body,
          `${surface.name}, ${scheme}`,
        );
      }
    }
  });

  it('refuses a malformed header with the same error as before, in any case', async () => {
    for (const surface of surfaces()) {
      for (const authorization of [
        `Basic ${surface.token}`,
        `basic ${surface.token}`,
        surface.token,
        `Bearer${surface.token}`,
        `bearer:${surface.token}`,
        'Bearer',
        `BEARER ${surface.token} extra`,
      ]) {
        const response = await call(surface.path, authorization);
        const shown = authorization.replace(surface.token, '<token>');
        assert.equal(response.status, 401, `${surface.name}, ${shown}: ${response.text}`);
        assert.deepEqual(response.body, { error: surface.refused }, `${surface.name}, ${shown}`);
      }
    }
  });
});
