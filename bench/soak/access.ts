// Whom the soak acts as: the platform administrator, the tenant's operator, the casino (the tenant's integration key)
// and its players, each with a session; how they are provisioned, and the calls made as each.
import { totpCode } from '../../src/staff/totp.ts';
import { runCli } from '../../test/helpers/process.ts';
import type { HttpAnswer } from '../soak-support.ts';
import { call, startService, wallet } from './service.ts';

export const PLAYERS = 20;
export const OPENING = 100_000_000; // 1,000,000.00 each: no correction debit can lack funds
export const CURRENCY = 'BRL';
const PASSWORD = 'the soak administrator password';
const OPERATOR_PASSWORD = 'the soak operator password';

/** What provisioning obtains: the administrator's and the operator's tokens, the tenant and its integration key. */
export const access = {
  staffToken: '',
  /** The tenant's operator (a second staff account): the decisions taken during resettlements are theirs. */
  operatorToken: '',
  tenantId: '',
  integrationKey: '',
};
export const sessions: string[] = [];
export const players = Array.from({ length: PLAYERS }, (_, i) => `soak-player-${i}`);

export const admin = (method: string, path: string, body?: unknown) =>
  call(method, path, { token: access.staffToken, ...(body === undefined ? {} : { body }) });
export const operator = (method: string, path: string, body?: unknown) =>
  call(method, path, { token: access.operatorToken, ...(body === undefined ? {} : { body }) });
export const casino = (method: string, path: string, body?: unknown) =>
  call(method, path, {
    headers: { 'x-tenant-id': access.tenantId, 'x-api-key': access.integrationKey },
    ...(body === undefined ? {} : { body }),
  });

export function expect(answer: HttpAnswer, status: number, what: string): any {
  if (answer.status !== status) throw new Error(`${what}: ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer.body;
}

export function obligations(state?: string): Promise<any[]> {
  const filter = `tenantId=${access.tenantId}${state ? `&state=${state}` : ''}`;
  return everyPage((query) => admin('GET', `/api/v1/admin/obligations?${filter}&${query}`), 'obligations');
}

/** Every page of a list the service serves by cursor (`limit=100&cursor=…`). */
export async function everyPage(read: (query: string) => Promise<HttpAnswer>, what: string): Promise<any[]> {
  const rows: any[] = [];
  let cursor = '';
  do {
    const page = expect(await read(`limit=100${cursor ? `&cursor=${cursor}` : ''}`), 200, what);
    rows.push(...page.obligations);
    cursor = page.nextCursor;
  } while (cursor);
  return rows;
}

/**
 * The administrator (made by the CLI, enrolled, then signed in), the service started, the tenant whose wallet is the
 * reference wallet, its operator, and the players, funded in the wallet, with a session each.
 */
export async function provisionAccounts(env: Record<string, string>): Promise<void> {
  const created = await runCli(env, [
    'staff',
    'create',
    '--email',
    'soak@bookmaker.test',
    '--password',
    PASSWORD,
    '--role',
    'platform_admin',
    '--enrol-now',
  ]);
  if (created.code !== 0) throw new Error(`staff create: ${created.stderr}`);
  const account = JSON.parse(created.stdout) as { totpSecret: string };
  await startService(env);
  const login = await call('POST', '/api/v1/admin/auth/login', {
    body: { email: 'soak@bookmaker.test', password: PASSWORD, totp: totpCode(account.totpSecret, new Date()) },
  });
  access.staffToken = expect(login, 200, 'login').token;

  const tenant = expect(
    await admin('POST', '/api/v1/admin/tenants', {
      name: 'Soak Casino',
      currency: CURRENCY,
      locale: 'pt-BR',
      jurisdiction: 'BR',
      walletUrl: wallet.url,
    }),
    201,
    'tenant',
  );
  access.tenantId = tenant.tenant.id;
  access.integrationKey = tenant.integrationApiKey;
  await wallet.control('PUT', '/secret', { secret: tenant.walletSecret });
  access.operatorToken = await signInOperator();

  for (const player of players) {
    await wallet.control('PUT', `/players/${player}`, { balance: OPENING, currency: CURRENCY });
    const session = expect(
      await casino('POST', '/api/v1/integration/sessions', { externalPlayerId: player }),
      200,
      'session',
    );
    sessions.push(session.token);
  }
}

/**
 * A second staff account, an operator bound to the tenant, as the casino's back office has. Made through the admin
 * API rather than `bookmaker staff create` (on PGlite the CLI cannot open the database the service holds), and
 * enrolled with its authenticator at its first sign-in.
 */
async function signInOperator(): Promise<string> {
  const email = 'soak-operator@bookmaker.test';
  const account = { email, password: OPERATOR_PASSWORD, role: 'operator', tenantId: access.tenantId };
  expect(await admin('POST', '/api/v1/admin/staff', account), 201, 'operator account');
  const login = await call('POST', '/api/v1/admin/auth/login', { body: { email, password: OPERATOR_PASSWORD } });
  const { enrolmentToken, secret } = expect(login, 200, 'operator login').enrolment;
  const enrolment = { enrolmentToken, totp: totpCode(secret, new Date()) };
  return expect(await call('POST', '/api/v1/admin/auth/enrol', { body: enrolment }), 200, 'operator enrolment').token;
}
