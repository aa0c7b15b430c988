import type { HttpResponse, TestApp } from './app.ts';

export interface TestTenant {
  tenantId: string;
  apiKey: string;
  walletSecret: string;
}

/** A tenant created directly by a platform administrator: active, with its integration key. */
export async function createTenant(
  t: TestApp,
  adminToken: string,
  overrides: Record<string, unknown> = {},
): Promise<TestTenant> {
  const response = await t.request('POST', '/api/v1/admin/tenants', {
    token: adminToken,
    body: {
      name: 'Sol Casino',
      currency: 'BRL',
      locale: 'pt-BR',
      jurisdiction: 'BR',
      walletUrl: 'https://wallet.sol.example/api',
      embedOrigins: ['https://www.sol.example'],
      ...overrides,
    },
  });
  if (response.status !== 201) throw new Error(`tenant creation failed: ${response.text}`);
  return {
    tenantId: response.body.tenant.id,
    apiKey: response.body.integrationApiKey,
    walletSecret: response.body.walletSecret,
  };
}

export function openSession(
  t: TestApp,
  tenant: TestTenant,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<HttpResponse> {
  return t.request('POST', '/api/v1/integration/sessions', {
    body,
    headers: { 'x-tenant-id': tenant.tenantId, 'x-api-key': tenant.apiKey, ...headers },
  });
}

export function exchange(t: TestApp, tenantId: string, launchToken: string): Promise<HttpResponse> {
  return t.request('POST', '/api/v1/integration/launch', {
    body: { launchToken },
    headers: { 'x-tenant-id': tenantId },
  });
}
