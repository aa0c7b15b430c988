/**
 * The platform side of the demo, through the product's own API as a platform administrator and an aggregator
 * would do it: staff accounts and their TOTP log-ins, the aggregator and its authorization, CreateClient, the wallet
 * secrets installed in the wallets, ActivateClient. Only the staff accounts are created in-process, through the same
 * service `npx bookmaker staff create` uses (there is no API for a first account).
 */
import { randomBytes } from 'node:crypto';
import type { StaffService } from '../src/staff/service.ts';
import { totpCode } from '../src/staff/totp.ts';
import { callJson } from './http.ts';

export type StaffRole = 'platform_admin' | 'trader' | 'operator';

export interface StaffLogin {
  email: string;
  role: StaffRole;
  token: string;
}

/** A person's account for the staff console: its first sign-in there enrols an authenticator app. */
export interface ConsoleAccount {
  role: StaffRole;
  email: string;
  password: string;
}

/**
 * The console's demo accounts, one per role (the operator's on the demo tenant), created as `npx bookmaker staff
 * create` creates them: with no authenticator yet, so the first sign-in at /admin shows the enrolment QR code.
 */
export async function createConsoleAccounts(staff: StaffService, tenantId: string): Promise<ConsoleAccount[]> {
  const accounts: ConsoleAccount[] = [];
  for (const [role, name] of [
    ['platform_admin', 'admin'],
    ['trader', 'trader'],
    ['operator', 'operator'],
  ] as const) {
    const email = `${name}@demo.bookmaker.test`;
    const password = randomBytes(12).toString('base64url');
    await staff.createForEnrolment({ email, password, role, tenantId: role === 'operator' ? tenantId : undefined });
    accounts.push({ role, email, password });
  }
  return accounts;
}

/** Creates a staff account (as `npx bookmaker staff create` does) and logs it in over HTTP with a TOTP code. */
export async function createStaff(
  staff: StaffService,
  api: string,
  role: StaffRole,
  options: { tenantId?: string } = {},
): Promise<StaffLogin> {
  // the demo's own programs' accounts (its set-up, the casino's trader shortcut), named apart from the people's
  const email = `demo-service.${role.replace('_', '-')}.${randomBytes(3).toString('hex')}@demo.bookmaker.test`;
  const password = randomBytes(18).toString('base64url');
  const created = await staff.create({ email, password, role, tenantId: options.tenantId });
  const { token } = await callJson<{ token: string }>(api, 'POST', '/api/v1/admin/auth/login', {
    body: { email, password, totp: totpCode(created.totpSecret, new Date()) },
  });
  return { email, role, token };
}

export interface ClientSpec {
  externalId: string;
  name: string;
  legalName: string;
  brandName: string;
  currency: string;
  jurisdiction: string;
  locale: string;
  territories: string[];
  embedOrigins: string[];
  productionWalletUrl: string;
  sandboxWalletUrl: string;
}

export interface Aggregator {
  id: string;
  key: string;
  /** An aggregator API call (`/api/v1/aggregator…`); POSTs get a fresh Idempotency-Key. */
  call<T>(method: string, path: string, body?: unknown): Promise<T>;
}

const ALL_SCOPES = ['clients:read', 'clients:create', 'clients:activate', 'credentials:rotate'];

/** A platform administrator registers an aggregator, authorizes it for the client's terms, and issues its key. */
export async function authorizeAggregator(
  api: string,
  adminToken: string,
  terms: { currencies: string[]; jurisdictions: string[]; territories: string[]; walletOrigins: string[] },
): Promise<Aggregator> {
  const admin = <T>(method: string, path: string, body: unknown) =>
    callJson<T>(api, method, `/api/v1/admin/aggregators${path}`, { token: adminToken, body });
  const { aggregator } = await admin<{ aggregator: { id: string } }>('POST', '', { name: 'Demo Aggregation' });
  await admin('PUT', `/${aggregator.id}/authorization`, {
    enabled: true,
    clientQuota: 10,
    ...terms,
    autoActivation: true,
    agreementRef: 'DEMO-AGREEMENT-1',
    expiresAt: new Date(Date.now() + 365 * 86_400_000).toISOString(),
  });
  const { key } = await admin<{ key: string }>('POST', `/${aggregator.id}/keys`, { scopes: ALL_SCOPES });
  return {
    id: aggregator.id,
    key,
    call: <T>(method: string, path: string, body?: unknown) =>
      callJson<T>(api, method, `/api/v1/aggregator${path}`, {
        token: key,
        ...(body === undefined ? {} : { body }),
        ...(method === 'POST' ? { headers: { 'idempotency-key': `demo-${randomBytes(12).toString('hex')}` } } : {}),
      }),
  };
}

interface Environment {
  tenantId: string;
  walletSecret: string;
}

export interface CreatedClient {
  id: string;
  production: Environment;
  sandbox: Environment;
}

/** CreateClient: two suspended tenants and their wallet secrets, to install in the wallets before activation. */
export async function createClient(aggregator: Aggregator, spec: ClientSpec): Promise<CreatedClient> {
  return aggregator.call<CreatedClient>('POST', '/clients', { ...spec, reason: 'demo casino' });
}

export interface IssuedKey {
  tenantId: string;
  keyId: string;
  integrationApiKey: string;
}

/** ActivateClient: the service checks both wallets, then issues one integration key per environment. */
export async function activateClient(
  aggregator: Aggregator,
  clientId: string,
  validationPlayers: { production: string; sandbox: string },
): Promise<{ production: IssuedKey; sandbox: IssuedKey }> {
  return aggregator.call('POST', `/clients/${clientId}/activate`, {
    productionPlayerId: validationPlayers.production,
    sandboxPlayerId: validationPlayers.sandbox,
    reason: 'demo casino',
  });
}
