import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/platform/config.ts';
import { InstanceLockError } from '../src/platform/db/instance-lock.ts';
import { migrationProvider } from '../src/platform/db/migrations/index.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { totpCode } from '../src/staff/totp.ts';
import { request } from './helpers/app.ts';
import { deploymentEnv, runCli, startServe } from './helpers/process.ts';

let env: Record<string, string>;
let dispose: () => Promise<void>;
before(async () => ({ env, dispose } = await deploymentEnv()));
after(() => dispose());

const cli = (args: string[], extraEnv: Record<string, string> = {}) => runCli({ ...env, ...extraEnv }, args);

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
    const server = await startServe(env);
    assert.equal((await request(server.url, 'GET', '/healthz')).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    assert.match(server.output(), /shutting down/);
    const again = await startServer(loadConfig(env));
    await again.stop();
  });
});
