import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { buildApp, type App, type AppDeps } from '../../src/app.ts';
import { DEFAULT_AUTH_LIMITS, type AuthLimits } from '../../src/platform/http/auth.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import type { Db } from '../../src/platform/db/database.ts';
import { serveMetrics } from '../../src/platform/metrics/listener.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { createTestDatabase, type KeptState, type TestDatabase } from './database.ts';
import { DocumentedErrors } from './documented-errors.ts';
import type { Interleaving } from './interleaving.ts';

export const TEST_SECRETS_KEY = Buffer.alloc(32, 7).toString('base64');

export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    APP_ENV: 'development',
    SECRETS_KEY: TEST_SECRETS_KEY,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bookmaker-test-')),
    LOG_LEVEL: 'info',
    // No listener, and nothing recorded: parallel test files never contend for a port. Metrics tests set a port.
    METRICS_PORT: 'off',
    ...env,
  });
}

/** Every log line the app wrote, for assertions that secrets never reach the logs. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void): void {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text(): string {
    return this.lines.join('\n');
  }
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent byte for byte instead of JSON-encoding `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
  token?: string;
}

/** A real HTTP server on a random loopback port, over this file's test database. */
export interface TestApp {
  app: App;
  db: Db;
  database: TestDatabase;
  clock: ManualClock;
  config: Config;
  logs: LogCapture;
  url: string;
  /** The metrics listener's scrape URL when METRICS_PORT is set (testConfig turns it off), else null. */
  metricsUrl: string | null;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
  /** Clean tables (or those kept by `database.keep()`) and a reset clock between tests. */
  reset(to?: KeptState): Promise<void>;
  close(): Promise<void>;
}

const CLOCK_START = '2026-03-01T12:00:00Z';

/**
 * Tests fail many credentials on purpose from one address; the per-IP budget of failed attempts is lifted here
 * unless a test is about that budget.
 */
const TEST_AUTH_LIMITS: AuthLimits = { ...DEFAULT_AUTH_LIMITS, failedAttemptsPerMinute: 100_000 };

/**
 * Tests create a few staff accounts each and sign them in: at production's scrypt cost (N=2^15, about 0.1 s of a core
 * each for the hash and again for every sign-in) that was half of a money test's set-up. Their throwaway passwords
 * are hashed at the least cost scrypt takes; test/staff/login.test.ts proves production's.
 */
export const TEST_PASSWORD_COST = { N: 2, r: 1, p: 1 };

export async function startTestApp(
  env: Record<string, string> = {},
  deps: Partial<
    Pick<AppDeps, 'authLimits' | 'delivery' | 'resolver' | 'logStream' | 'passwordCost' | 'compileSchemasOnFirstUse'>
  > & {
    /**
     * Run the delivery engine's loop as the server does. Off by default: tests drive delivery themselves
     * (delivery.idle(), drainDeliveries()), so what they assert cannot change under them.
     */
    deliveryLoop?: boolean;
    /** Pauses transactions at chosen statements, on PostgreSQL (interleaving tests). */
    interleaving?: Interleaving;
  } = {},
): Promise<TestApp> {
  const { deliveryLoop = false, interleaving, ...appDeps } = deps;
  const database = await createTestDatabase(interleaving ? { interpose: interleaving.interpose } : {});
  const clock = new ManualClock(CLOCK_START);
  const logs = new LogCapture();
  const config = testConfig(env);
  const app = await buildApp({
    config,
    db: database.db,
    clock,
    logStream: logs,
    authLimits: TEST_AUTH_LIMITS,
    passwordCost: TEST_PASSWORD_COST,
    compileSchemasOnFirstUse: true,
    ...appDeps,
  });
  const url = await app.http.listen({ port: 0, host: '127.0.0.1' });
  const metrics =
    config.metricsPort === 'off'
      ? null
      : await serveMetrics(app.metrics.registry, { host: config.metricsHost, port: config.metricsPort });
  if (deliveryLoop) await app.services.delivery.start();
  const documented = new DocumentedErrors(app);
  return {
    app,
    db: database.db,
    database,
    clock,
    config,
    logs,
    url,
    metricsUrl: metrics?.url ?? null,
    request: async (method, path, options = {}) => {
      const response = await request(url, method, path, options);
      if (response.status >= 400 && response.body?.error && !response.headers.has('x-request-id')) {
        throw new Error(`${method} ${path} answered ${response.status} without an X-Request-Id: ${response.text}`);
      }
      documented.check(method, path, response);
      return response;
    },
    reset: async (to) => {
      await app.services.delivery.idle();
      await database.reset(to);
      // emptied tables notify nothing: the catalog's kept reads and the stream's topics go with them
      app.services.stream.resync();
      clock.set(CLOCK_START);
      logs.lines.length = 0;
    },
    close: async () => {
      await metrics?.close();
      await app.http.close();
      await app.services.delivery.stop();
      await database.close();
    },
  };
}

export async function request(
  base: string,
  method: string,
  path: string,
  options: RequestOptions = {},
): Promise<HttpResponse> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(base + path, { method, headers, body });
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return withRequestIdChecked({ status: response.status, headers: response.headers, body: parsed, text });
}

/**
 * Every error answer of the service names its request twice: the X-Request-Id header and `error.requestId`, the
 * same id. Checked on every answer a test receives; the id is then taken out of the body, so that tests assert the
 * rest of it exactly. Answers without the header (a partner's wallet) are left as they are.
 */
export function withRequestIdChecked(response: HttpResponse): HttpResponse {
  const error: unknown = response.body?.error;
  const header = response.headers.get('x-request-id');
  if (response.status < 400 || typeof error !== 'object' || error === null || header === null) return response;
  const { requestId, ...rest } = error as { requestId?: unknown };
  if (requestId !== header) {
    throw new Error(`error.requestId ${JSON.stringify(requestId)} is not the X-Request-Id ${header}: ${response.text}`);
  }
  return { ...response, body: { ...response.body, error: rest } };
}

export interface LoggedInStaff {
  id: string;
  email: string;
  password: string;
  totpSecret: string;
  token: string;
}

export const STAFF_PASSWORD = 'correct horse battery staple';

/** Creates a staff account through the service and logs it in over HTTP, as a person would. */
export async function loginAsStaff(
  t: TestApp,
  role: 'platform_admin' | 'trader' | 'operator' = 'platform_admin',
  options: { email?: string; tenantId?: string } = {},
): Promise<LoggedInStaff> {
  const email = options.email ?? `${role}.${Math.random().toString(36).slice(2, 8)}@bookmaker.test`;
  const created = await t.app.services.staff.create({
    email,
    password: STAFF_PASSWORD,
    role,
    tenantId: options.tenantId,
  });
  const response = await t.request('POST', '/api/v1/admin/auth/login', {
    body: { email, password: STAFF_PASSWORD, totp: totpCode(created.totpSecret, t.clock.now()) },
  });
  if (response.status !== 200) throw new Error(`login failed: ${response.text}`);
  return {
    id: created.id,
    email,
    password: STAFF_PASSWORD,
    totpSecret: created.totpSecret,
    token: response.body.token,
  };
}
