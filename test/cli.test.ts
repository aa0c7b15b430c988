import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/platform/config.ts';
import { InstanceLockError } from '../src/platform/db/instance-lock.ts';
import { migrationProvider } from '../src/platform/db/migrations/index.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { totpCode } from '../src/staff/totp.ts';
import { createPostgresDatabase, dropPostgresDatabase } from './helpers/database.ts';
import { request, TEST_SECRETS_KEY } from './helpers/app.ts';

const BIN = join(import.meta.dirname, '..', 'bin', 'bookmaker.js');

/** The environment of a real deployment: its own DATA_DIR, and its own PostgreSQL database when testing on one. */
let env: Record<string, string>;
before(async () => {
  env = {
    APP_ENV: 'development',
    SECRETS_KEY: TEST_SECRETS_KEY,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'bookmaker-cli-')),
    PORT: '0',
    LOG_LEVEL: 'warn',
  };
  if (process.env.DATABASE_URL) env.DATABASE_URL = await createPostgresDatabase(process.env.DATABASE_URL);
});
after(async () => {
  if (env.DATABASE_URL) await dropPostgresDatabase(env.DATABASE_URL);
});

function cli(args: string[], extraEnv: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: { ...inherited, ...env, ...extraEnv } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

describe('bookmaker CLI', () => {
  it('migrate applies the migrations once and reports them', async () => {
    const first = await cli(['migrate']);
    assert.equal(first.code, 0, first.stderr);
    const all = Object.keys(await migrationProvider.getMigrations());
    assert.ok(all.includes('0001_foundation'));
    assert.deepEqual(JSON.parse(first.stdout), { applied: all });
    const second = await cli(['migrate']);
    assert.deepEqual(JSON.parse(second.stdout), { applied: [] });
  });

  it('staff create prints one JSON object whose TOTP secret logs in through the API', async () => {
    const created = await cli([
      'staff', 'create', '--email', 'Admin@Bookmaker.test', '--password', 'a long enough password', '--role', 'platform_admin',
    ]);
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim().split('\n').length, 1);
    const staff = JSON.parse(created.stdout);
    assert.deepEqual(Object.keys(staff), ['id', 'email', 'role', 'totpSecret', 'otpauthUrl']);
    assert.equal(staff.email, 'admin@bookmaker.test');
    assert.equal(staff.role, 'platform_admin');
    assert.match(staff.totpSecret, /^[A-Z2-7]{32}$/);
    assert.match(staff.otpauthUrl, /^otpauth:\/\/totp\/Bookmaker:admin%40bookmaker\.test\?.*secret=/);

    const server = await startServer(loadConfig(env));
    try {
      const login = await request(server.url, 'POST', '/api/v1/admin/auth/login', {
        body: { email: staff.email, password: 'a long enough password', totp: totpCode(staff.totpSecret, new Date()) },
      });
      assert.equal(login.status, 200, login.text);
      const me = await request(server.url, 'GET', '/api/v1/admin/me', { token: login.body.token });
      assert.equal(me.status, 200);
      assert.equal(me.body.staff.id, staff.id);
    } finally {
      await server.stop();
    }
  });

  it('staff create reports bad input on stderr with a non-zero exit', async () => {
    const missing = await cli(['staff', 'create', '--email', 'x@bookmaker.test']);
    assert.equal(missing.code, 1);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /needs --email, --password and --role/);

    const badRole = await cli(['staff', 'create', '--email', 'x@bookmaker.test', '--password', 'long enough pass', '--role', 'root']);
    assert.equal(badRole.code, 1);
    assert.match(badRole.stderr, /validation: The role must be one of platform_admin, trader, operator/);

    const unknownFlag = await cli(['staff', 'create', '--mail', 'x']);
    assert.equal(unknownFlag.code, 1);
    assert.match(unknownFlag.stderr, /Unknown option '--mail'/);
  });

  it('stops with a message naming a bad configuration variable', async () => {
    const result = await cli(['migrate'], { PORT: 'eighty' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /configuration error: PORT: must be an integer/);
  });

  it('prints usage and exits 2 for an unknown command', async () => {
    const result = await cli(['frobnicate']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /Unknown command "frobnicate"/);
  });
});

describe('single API instance', () => {
  let first: RunningServer;
  before(async () => (first = await startServer(loadConfig(env))));
  after(() => first.stop());

  it('a second instance on the same database is refused with a clear message', async () => {
    await assert.rejects(startServer(loadConfig(env)), (error: Error) => {
      assert.ok(error instanceof InstanceLockError);
      assert.match(error.message, /Another Bookmaker (instance|process) is already/);
      return true;
    });
    assert.equal((await request(first.url, 'GET', '/readyz')).status, 200, 'the first instance keeps serving');
  });

  it('the CLI refuses to serve beside a running instance and exits non-zero', async () => {
    const result = await cli(['serve']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Another Bookmaker (instance|process) is already/);
  });
});

describe('shutdown', () => {
  it('SIGTERM finishes, closes the database and releases the instance lock', async () => {
    const child = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, ...env, LOG_LEVEL: 'info' },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    await new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => output.includes('Server listening') && (clearInterval(timer), resolve()), 50);
      child.on('close', () => (clearInterval(timer), reject(new Error(`serve exited early: ${output}`))));
    });
    const url = /Server listening at (http:\/\/[0-9.:]+)/.exec(output)![1]!;
    assert.equal((await request(url, 'GET', '/healthz')).status, 200);
    const exit = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    assert.equal(await exit, 0);
    assert.match(output, /shutting down/);
    const again = await startServer(loadConfig(env));
    await again.stop();
  });
});
