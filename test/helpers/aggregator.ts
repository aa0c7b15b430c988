import { randomBytes } from 'node:crypto';
import type { HttpResponse } from './app.ts';
import { loginAsStaff, type TestApp } from './app.ts';
import type { TestWallet } from './wallet.ts';

export const ALL_SCOPES = ['clients:read', 'clients:create', 'clients:activate', 'credentials:rotate'];

export function authorizationBody(t: TestApp, walletOrigins: string[], overrides: Record<string, unknown> = {}) {
  return {
    enabled: true,
    clientQuota: 5,
    currencies: ['BRL', 'USD'],
    jurisdictions: ['BR', 'ROW'],
    territories: ['BR', 'BR-SP', 'PE'],
    walletOrigins,
    autoActivation: true,
    agreementRef: 'AGR-2026-001',
    expiresAt: new Date(t.clock.now().getTime() + 2 * 365 * 86_400_000).toISOString(),
    ...overrides,
  };
}

export function createClientBody(
  wallets: { production: { url: string }; sandbox: { url: string } },
  overrides: Record<string, unknown> = {},
) {
  return {
    externalId: `casino-${randomBytes(4).toString('hex')}`,
    name: 'Lucky Casino',
    legalName: 'Lucky Casino Entretenimento Ltda',
    brandName: 'Lucky',
    currency: 'BRL',
    jurisdiction: 'BR',
    locale: 'pt-BR',
    territories: ['BR'],
    embedOrigins: ['https://www.lucky.example'],
    productionWalletUrl: wallets.production.url,
    sandboxWalletUrl: wallets.sandbox.url,
    reason: 'new partner',
    ...overrides,
  };
}

export interface AggregatorFixture {
  adminToken: string;
  aggregatorId: string;
  key: string;
  keyId: string;
  /** An aggregator API call with this fixture's key and, for POSTs, a fresh Idempotency-Key. */
  call(
    method: string,
    path: string,
    body?: unknown,
    options?: { key?: string; idempotencyKey?: string; headers?: Record<string, string> },
  ): Promise<HttpResponse>;
}

let counter = 0;
export const newIdempotencyKey = () => `idem-${Date.now()}-${(counter += 1)}-${randomBytes(4).toString('hex')}`;

/** Platform admin, aggregator, authorization covering both test wallets, and a key with the given scopes. */
export async function setUpAggregator(
  t: TestApp,
  wallets: { production: TestWallet; sandbox: TestWallet },
  options: { scopes?: string[]; authorization?: Record<string, unknown>; adminToken?: string } = {},
): Promise<AggregatorFixture> {
  const adminToken = options.adminToken ?? (await loginAsStaff(t, 'platform_admin')).token;
  const created = await t.request('POST', '/api/v1/admin/aggregators', {
    token: adminToken,
    body: { name: 'Acme Aggregation' },
  });
  const aggregatorId = created.body.aggregator.id;
  const origins = [new URL(wallets.production.url).origin, new URL(wallets.sandbox.url).origin];
  const authorization = await t.request('PUT', `/api/v1/admin/aggregators/${aggregatorId}/authorization`, {
    token: adminToken,
    body: authorizationBody(t, origins, options.authorization),
  });
  if (authorization.status !== 200) throw new Error(`authorization failed: ${authorization.text}`);
  const issued = await t.request('POST', `/api/v1/admin/aggregators/${aggregatorId}/keys`, {
    token: adminToken,
    body: { scopes: options.scopes ?? ALL_SCOPES },
  });
  if (issued.status !== 201) throw new Error(`key failed: ${issued.text}`);
  const fixture: AggregatorFixture = {
    adminToken,
    aggregatorId,
    key: issued.body.key,
    keyId: issued.body.keyId,
    call: (method, path, body, callOptions = {}) =>
      t.request(method, `/api/v1/aggregator${path}`, {
        token: callOptions.key ?? fixture.key,
        ...(body === undefined ? {} : { body }),
        headers: {
          ...(method === 'POST' ? { 'idempotency-key': callOptions.idempotencyKey ?? newIdempotencyKey() } : {}),
          ...callOptions.headers,
        },
      }),
  };
  return fixture;
}
