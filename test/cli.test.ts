import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, rmSync, statSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { CHANNEL_FILE } from '../src/commands/local-channel.ts';
import { loadConfig } from '../src/platform/config.ts';
import { DATA_DIR_LOCK, InstanceLockError } from '../src/platform/db/instance-lock.ts';
import { migrationProvider } from '../src/platform/db/migrations/index.ts';
import { VERSION } from '../src/platform/version.ts';
import { startServer, type RunningServer } from '../src/server.ts';
import { totpCode } from '../src/staff/totp.ts';
import { request } from './helpers/app.ts';
import { BIN, deploymentEnv, runCli, startServe } from './helpers/process.ts';

const embedded = !process.env.DATABASE_URL;
const HOLD_DATA_DIR = fileURLToPath(new URL('./helpers/hold-data-dir.ts', import.meta.url));
const PASSWORD = 'a long enough password';

let env: Record<string, string>;
let dispose: () => Promise<void>;
before(async () => ({ env, dispose } = await deploymentEnv()));
after(() => dispose());

const cli = (args: string[], extraEnv: Record<string, string> = {}) => runCli({ ...env, ...extraEnv }, args);
const staffArgs = (email: string, enrolNow = true) => [
  'staff',
  'create',
  '--email',
  email,
  '--password',
  PASSWORD,
  '--role',
  'platform_admin',
  ...(enrolNow ? ['--enrol-now'] : []),
];

async function logIn(url: string, staff: { email: string; totpSecret: string }) {
  return request(url, 'POST', '/api/v1/admin/auth/login', {
    body: { email: staff.email, password: PASSWORD, totp: totpCode(staff.totpSecret, new Date()) },
  });
}

describe('bookmaker CLI', () => {
  it('migrate applies the migrations once and reports them', async () => {
    const first = await cli(['migrate']);
    assert.equal(first.code, 0, first.stderr);
    const all = Object.keys(await migrationProvider.getMigrations());
    assert.ok(all.includes('0001_foundation'));
    assert.deepEqual(JSON.parse(first.stdout), { applied: all });
    assert.match(first.stderr, /bookmaker: migrating: 0001_foundation, /, 'says what it is doing');
    const second = await cli(['migrate']);
    assert.deepEqual(JSON.parse(second.stdout), { applied: [] });
  });

  it('staff create leaves the authenticator to the first sign-in, and says how to finish', async () => {
    const created = await cli(staffArgs('First@Bookmaker.test', false));
    assert.equal(created.code, 0, created.stderr);
    assert.equal(created.stdout.trim().split('\n').length, 1);
    const staff = JSON.parse(created.stdout);
    assert.deepEqual(
      { ...staff, id: 'x' },
      {
        id: 'x',
        email: 'first@bookmaker.test',
        role: 'platform_admin',
        enrolled: false,
        next:
          'sign in at /admin with this e-mail and password: the console shows the authenticator secret to add, ' +
          'then asks for its first code',
      },
    );
    assert.doesNotMatch(created.stdout + created.stderr, /totpSecret|otpauth|[A-Z2-7]{32}/);

    const server = await startServer(loadConfig(env));
    try {
      const login = await request(server.url, 'POST', '/api/v1/admin/auth/login', {
        body: { email: staff.email, password: PASSWORD },
      });
      assert.equal(login.status, 200, login.text);
      assert.deepEqual(Object.keys(login.body.enrolment), ['enrolmentToken', 'secret', 'otpauthUrl', 'expiresAt']);
      const enrolled = await request(server.url, 'POST', '/api/v1/admin/auth/enrol', {
        body: {
          enrolmentToken: login.body.enrolment.enrolmentToken,
          totp: totpCode(login.body.enrolment.secret, new Date()),
        },
      });
      assert.equal(enrolled.status, 200, enrolled.text);
      const me = await request(server.url, 'GET', '/api/v1/admin/me', { token: enrolled.body.token });
      assert.equal(me.body.staff.id, staff.id);
    } finally {
      await server.stop();
    }
  });

  it('staff create --enrol-now prints one JSON object whose TOTP secret logs in through the API', async () => {
    const created = await cli(staffArgs('Admin@Bookmaker.test'));
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
      const login = await logIn(server.url, staff);
      assert.equal(login.status, 200, login.text);
      const me = await request(server.url, 'GET', '/api/v1/admin/me', { token: login.body.token });
      assert.equal(me.status, 200);
      assert.equal(me.body.staff.id, staff.id);
    } finally {
      await server.stop();
    }
  });

  it('names a missing flag, and exits 2 with the command usage for any command-line mistake', async () => {
    const missing = await cli(['staff', 'create', '--email', 'x@bookmaker.test']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stdout, '');
    assert.match(missing.stderr, /missing --password, --role/);
    assert.match(missing.stderr, /Usage: bookmaker staff create --email E --password P --role R/);

    const unknownFlag = await cli(['staff', 'create', '--mail', 'x']);
    assert.equal(unknownFlag.code, 2);
    assert.match(unknownFlag.stderr, /^bookmaker: unknown option '--mail'/);

    const unknownSub = await cli(['staff', 'delete']);
    assert.equal(unknownSub.code, 2);
    assert.match(unknownSub.stderr, /unknown staff command "delete"; expected "staff create"/);
  });

  it('reports a refused value on stderr with exit 1', async () => {
    const badRole = await cli([
      'staff',
      'create',
      '--email',
      'x@bookmaker.test',
      '--password',
      PASSWORD,
      '--role',
      'root',
    ]);
    assert.equal(badRole.code, 1);
    assert.equal(badRole.stdout, '');
    assert.match(badRole.stderr, /validation: The role must be one of platform_admin, trader, operator/);
  });

  it('--help, -h and help print the commands; help <command> and <command> --help print its usage', async () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const result = await cli(args);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /^Usage: bookmaker <command>/);
      for (const command of ['serve', 'migrate', 'staff create', 'demo seed', 'demo live']) {
        assert.ok(result.stdout.includes(`  ${command}`), `${args.join(' ')} lists ${command}`);
      }
    }
    for (const args of [
      ['help', 'staff', 'create'],
      ['staff', 'create', '--help'],
      ['staff', 'create', '-h'],
    ]) {
      const result = await cli(args);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /^Usage: bookmaker staff create --email E --password P --role R \[--tenant T\]/);
      assert.match(result.stdout, /Example:/);
    }
    const serveHelp = await cli(['serve', '--help']);
    assert.match(serveHelp.stdout, /^Usage: bookmaker serve \[--demo-live\]/);
    for (const args of [
      ['help', 'demo'],
      ['demo', '--help'],
      ['demo', '-h'],
    ]) {
      const result = await cli(args);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /^Usage: bookmaker demo <command>/);
      assert.match(result.stdout, /demo seed .*\n.*demo live \[--url URL\] \[--ticks N\] \[--interval MS\]/);
    }
    const bare = await cli(['staff']);
    assert.equal(bare.code, 2);
    assert.match(bare.stderr, /^bookmaker: staff needs a command\n\nUsage: bookmaker staff <command>/);
  });

  it('--version prints the version', async () => {
    const result = await cli(['--version']);
    assert.deepEqual([result.code, result.stdout], [0, `bookmaker ${VERSION}\n`]);
  });

  it('stops with a message naming a bad configuration variable', async () => {
    const result = await cli(['migrate'], { PORT: 'eighty' });
    assert.equal(result.code, 1);
    assert.match(result.stderr, /configuration error: PORT: must be an integer/);
  });

  it('prints usage and exits 2 for an unknown command or none', async () => {
    const unknown = await cli(['frobnicate']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /unknown command "frobnicate"/);
    assert.match(unknown.stderr, /Usage: bookmaker <command>/);
    const none = await cli([]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /Usage: bookmaker <command>/);
  });
});

describe('administrative commands beside a running server', () => {
  it('staff create, demo seed and demo live run while serve --demo-live runs; the new admin logs in at once, and both simulators price through the feed API', async () => {
    const fresh = await deploymentEnv({ migrated: true });
    const server = await startServe(fresh.env, ['--demo-live']);
    try {
      const created = await runCli(fresh.env, staffArgs('beside@bookmaker.test'));
      assert.equal(created.code, 0, created.stderr);
      const staff = JSON.parse(created.stdout);
      const login = await logIn(server.url, staff);
      assert.equal(login.status, 200, login.text);

      const seeded = await runCli(fresh.env, ['demo', 'seed']);
      assert.equal(seeded.code, 0, seeded.stderr);
      assert.deepEqual(JSON.parse(seeded.stdout), { sports: 3, competitions: 7, events: 30, markets: 413 });
      assert.match(seeded.stderr, /seeding Premier League/, 'says what it is doing');
      const sports = await request(server.url, 'GET', '/api/v1/catalog/sports');
      assert.equal(sports.body.sports.length, 3, 'the server sees the seeded catalog at once');

      // the server's own simulator, a process of its own, speaks for the demo producer within a tick
      const token = login.body.token as string;
      const demoProducer = async () =>
        (await request(server.url, 'GET', '/api/v1/admin/feed/producers', { token })).body.producers.find(
          (producer: { id: string }) => producer.id === 'demo',
        );
      const seededAt = (await demoProducer()).lastMessageAt;
      for (let tries = 0; (await demoProducer()).lastMessageAt === seededAt; tries++) {
        assert.ok(tries < 100, 'the demo live simulator of serve --demo-live pushed nothing in 10 s');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }

      // one run by hand, with a key of its own (the server's simulator's key stops working)
      const issued = await request(server.url, 'POST', '/api/v1/admin/feed/producers/demo/key', { token });
      assert.equal(issued.status, 200, issued.text);
      const env = { ...fresh.env, BOOKMAKER_FEED_KEY: issued.body.key };
      const live = await runCli(env, ['demo', 'live', '--url', server.url, '--ticks', '2', '--interval', '10']);
      assert.equal(live.code, 0, live.stderr);
      const ticks = live.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      assert.deepEqual(
        ticks.map((tick) => tick.tick),
        [1, 2],
      );
      assert.ok(ticks[0].outcomes.applied > 0, live.stdout);

      const keyless = await runCli(fresh.env, ['demo', 'live', '--url', server.url, '--ticks', '1']);
      assert.equal(keyless.code, 2);
      assert.match(keyless.stderr, /set BOOKMAKER_FEED_KEY/);
    } finally {
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 0);
      await fresh.dispose();
    }
  });

  it(
    'on the embedded database the commands reach the server through a socket only its owner can use',
    { skip: !embedded && 'PostgreSQL: the CLI connects to the database itself' },
    async () => {
      const fresh = await deploymentEnv({ migrated: true });
      const server = await startServe(fresh.env);
      try {
        const socket = join(fresh.env.DATA_DIR!, CHANNEL_FILE);
        assert.equal(statSync(socket).mode & 0o777, 0o600);
        assert.match(server.output(), /admin commands \(npx bookmaker …\) reach this server through .*admin\.sock/);
        const migrated = await runCli(fresh.env, ['migrate']);
        assert.deepEqual([migrated.code, JSON.parse(migrated.stdout)], [0, { applied: [] }]);
        assert.match(migrated.stderr, /bookmaker: ran by the server that owns /);
      } finally {
        server.child.kill('SIGTERM');
        await server.exited;
        await fresh.dispose();
      }
      assert.ok(!existsSync(join(fresh.env.DATA_DIR!, CHANNEL_FILE)), 'the socket goes with the server');
    },
  );
});

describe('the embedded database held by another command', { skip: !embedded && 'PostgreSQL has no such lock' }, () => {
  it('a second command says what to do instead of failing obscurely', async () => {
    const fresh = await deploymentEnv({ migrated: true });
    try {
      // a long command holds the embedded database (its lock, as every command without a server takes it)
      const holder = spawn(process.execPath, [HOLD_DATA_DIR, fresh.env.DATA_DIR!], {
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      const holderExit = new Promise((resolve) => holder.on('close', resolve));
      await once(holder.stdout, 'data');
      const second = await runCli(fresh.env, ['migrate']);
      assert.equal(second.code, 1);
      assert.match(
        second.stderr,
        /another process holds the embedded database in .*, and no server answers on .*admin\.sock/,
      );
      assert.match(second.stderr, /let it finish or stop it/);
      holder.stdin.end();
      assert.equal(await holderExit, 0);
    } finally {
      await fresh.dispose();
    }
  });
});

describe('serve', () => {
  it('says what it is doing in its log stream: database, each migration, URL, docs, the first step', async () => {
    const fresh = await deploymentEnv();
    const server = spawnServe(fresh.env);
    try {
      await server.until(/staff console: /);
      const said = messages(server.stdout());
      const all = Object.keys(await migrationProvider.getMigrations());
      const url = /listening on (http:\/\/[0-9.:]+)/.exec(server.stdout())![1]!;
      assert.equal(server.stderr(), '', 'one stream: standard output');
      const database = embedded
        ? `database: embedded PGlite in ${fresh.env.DATA_DIR}/pglite`
        : `database: PostgreSQL at ${new URL(fresh.env.DATABASE_URL!).host}${new URL(fresh.env.DATABASE_URL!).pathname}`;
      assert.deepEqual(said.slice(0, all.length + 3), [
        database,
        `migrations: ${all.length} to apply, each in its own transaction`,
        ...all.map((name) => `migrating: ${name}`),
        `migrations: ${all.length} applied`,
      ]);
      for (const line of [`listening on ${url}`, `API reference: ${url}/docs`, `staff console: ${url}/admin`]) {
        assert.ok(said.includes(line), line);
      }
      assert.ok(
        said.includes(
          'no staff account yet: create the first administrator in another terminal, with the same environment:',
        ),
      );
      const hint = said.find((line) => line.includes('npx bookmaker staff create'))!;
      assert.match(hint, /npx bookmaker staff create --email .* --role platform_admin/);
      const sameEnvironment = embedded ? `DATA_DIR=${fresh.env.DATA_DIR} npx` : 'DATABASE_URL=postgres://';
      assert.ok(hint.includes(sameEnvironment), 'the hint carries what the other terminal needs');
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await fresh.dispose();
    }
  });

  it('prints the same events readably with LOG_FORMAT=pretty (the default on a terminal)', async () => {
    const fresh = await deploymentEnv({ migrated: true });
    const server = spawnServe({ ...fresh.env, LOG_FORMAT: 'pretty' });
    try {
      await server.until(/staff console: /);
      const lines = server.stdout().trim().split('\n');
      assert.match(lines[0]!, /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: database: /);
      assert.ok(lines.some((line) => /^\[[\d:.]+\] INFO: listening on http:\/\/127\.0\.0\.1:\d+$/.test(line)));
      assert.ok(
        lines.every((line) => !line.startsWith('{')),
        'no JSON line among them',
      );
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
      await fresh.dispose();
    }
  });

  it('a port in use is one line naming PORT, said before anything is migrated', async () => {
    const fresh = await deploymentEnv();
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const result = await runCli({ ...fresh.env, PORT: String(port) }, ['serve']);
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        `bookmaker: PORT ${port} is already in use on 127.0.0.1: stop the program using it, or set PORT to a free port.\n`,
      );
      assert.ok(!existsSync(join(fresh.env.DATA_DIR!, 'pglite')), 'no database was opened');
    } finally {
      busy.close();
      await fresh.dispose();
    }
  });
});

describe('single API instance', () => {
  let first: RunningServer;
  before(async () => (first = await startServer(loadConfig(env))));
  after(() => first.stop());

  it('a second instance on the same database is refused with a clear message', async () => {
    await assert.rejects(startServer(loadConfig(env)), (error: Error) => {
      assert.ok(error instanceof InstanceLockError);
      assert.match(error.message, /Another Bookmaker (API instance|process) is already/);
      return true;
    });
    assert.equal((await request(first.url, 'GET', '/readyz')).status, 200, 'the first instance keeps serving');
  });

  it('the CLI refuses to serve beside a running instance and exits non-zero', async () => {
    const result = await cli(['serve']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /Another Bookmaker (API instance|process) is already/);
  });
});

describe('losing the instance lock', () => {
  it('stops the workers and exits, so two processes never deliver from one database', async () => {
    const fresh = await deploymentEnv({ migrated: true });
    const server = await startServe(fresh.env);
    try {
      if (embedded) {
        rmSync(join(fresh.env.DATA_DIR!, DATA_DIR_LOCK), { recursive: true, force: true });
      } else {
        const admin = new pg.Client({ connectionString: fresh.env.DATABASE_URL });
        await admin.connect();
        await admin.query(
          `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory'
           and database = (select oid from pg_database where datname = current_database())`,
        );
        await admin.end();
      }
      assert.equal(await server.exited, 1);
      assert.match(server.output(), /instance lock lost: refusing requests, stopping the workers and exiting/);
    } finally {
      server.child.kill('SIGKILL');
      await fresh.dispose();
    }
  });
});

describe('signals: each says what it does and what state it leaves', () => {
  it('SIGTERM while serving finishes the requests, closes the database, releases the instance lock: exit 0', async () => {
    const server = spawnServe(env);
    await server.until(/staff console: /);
    const url = /listening on (http:\/\/[0-9.:]+)/.exec(server.stdout())![1]!;
    assert.equal((await request(url, 'GET', '/healthz')).status, 200);
    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    assert.deepEqual(messages(server.stdout()).slice(-2), [
      'SIGTERM: stopping: refusing new requests, finishing those in flight, then stopping the workers and closing ' +
        'the database; SIGTERM again exits at once',
      'stopped: every request in flight was answered, the workers stopped, the database is closed',
    ]);
    const again = await startServer(loadConfig(env));
    await again.stop();
  });

  it('SIGINT during the migrations: the one under way completes, no other starts, exit 0; the next run finishes', async () => {
    const fresh = await deploymentEnv();
    try {
      const interrupted = spawnServe(fresh.env);
      await interrupted.until(/"migrating: /);
      interrupted.child.kill('SIGINT');
      assert.equal(await interrupted.exited, 0);
      const said = messages(interrupted.stdout());
      const all = Object.keys(await migrationProvider.getMigrations());
      const started = said.filter((line) => line.startsWith('migrating: ')).map((line) => line.slice(11));
      assert.ok(started.length >= 1 && started.length < all.length, `stopped part-way: ${started.join(', ')}`);
      assert.deepEqual(started, all.slice(0, started.length));
      assert.ok(
        said.includes(
          'SIGINT: stopping the start-up at its next step (a migration under way commits or rolls back whole ' +
            'first); SIGINT again exits at once',
        ),
      );
      assert.equal(
        said.at(-1),
        `stopped during migrations: ${started.join(', ')} applied, ${all[started.length]} and later not applied; ` +
          'the database is consistent; run again to continue',
      );
      assert.ok(!said.some((line) => line.startsWith('listening on')), 'it never listened');
      assert.equal(interrupted.stderr(), '');

      const next = spawnServe(fresh.env);
      try {
        await next.until(/staff console: /);
        const rest = all.length - started.length;
        const nextSaid = messages(next.stdout());
        assert.ok(nextSaid.includes(`migrations: ${rest} to apply, each in its own transaction`));
        assert.deepEqual(
          nextSaid.filter((line) => line.startsWith('migrating: ')),
          all.slice(started.length).map((name) => `migrating: ${name}`),
        );
        assert.ok(nextSaid.includes(`migrations: ${rest} applied`));
        const url = /listening on (http:\/\/[0-9.:]+)/.exec(next.stdout())![1]!;
        const ready = await request(url, 'GET', '/readyz');
        assert.deepEqual([ready.status, ready.body], [200, { status: 'ready' }], 'no migration pending');
      } finally {
        next.child.kill('SIGTERM');
        assert.equal(await next.exited, 0);
      }
    } finally {
      await fresh.dispose();
    }
  });
});

describe('signals while draining', () => {
  it('two signals a moment apart (npm run passing on a Ctrl-C) are one stop', async () => {
    const fresh = await deploymentEnv({ migrated: true });
    const server = spawnServe(fresh.env);
    try {
      await server.until(/staff console: /);
      server.child.kill('SIGINT');
      server.child.kill('SIGINT');
      assert.equal(await server.exited, 0);
      assert.equal(
        messages(server.stdout()).at(-1),
        'stopped: every request in flight was answered, the workers stopped, the database is closed',
      );
    } finally {
      await fresh.dispose();
    }
  });

  it('a second SIGTERM while a request is still in flight exits at once, 128 + 15, saying what is cut off', async () => {
    const fresh = await deploymentEnv({ migrated: true });
    const server = spawnServe(fresh.env);
    try {
      await server.until(/staff console: /);
      const { port } = new URL(/listening on (http:\/\/[0-9.:]+)/.exec(server.stdout())![1]!);
      // A request whose body never ends: draining waits for it.
      const socket = connect(Number(port), '127.0.0.1');
      socket.on('error', () => {});
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write('POST /api/v1/admin/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n');
      socket.write('Content-Length: 100\r\n\r\n{"email":');
      await new Promise((resolve) => setTimeout(resolve, 200));
      server.child.kill('SIGTERM');
      await server.until(/"SIGTERM: stopping: /);
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(server.child.exitCode, null, 'still draining');
      server.child.kill('SIGTERM');
      assert.equal(await server.exited, 128 + 15);
      socket.destroy();
      assert.equal(
        messages(server.stdout()).at(-1),
        'SIGTERM again: exiting at once; requests still in flight are cut off and what they had not committed is ' +
          'rolled back by the database; bets left pending are refused at the next start',
      );
    } finally {
      server.child.kill('SIGKILL');
      await fresh.dispose();
    }
  });
});

/** The messages of `serve`'s log lines, each of which must be one JSON object (the format when not on a terminal). */
function messages(stdout: string): string[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
}

/** `bookmaker serve` with its standard output and error apart; `until` waits for a pattern on standard output. */
function spawnServe(env: Record<string, string>) {
  const { DATABASE_URL: _database, LOG_FORMAT: _format, ...inherited } = process.env;
  const child = spawn(process.execPath, [BIN, 'serve'], { env: { ...inherited, ...env, LOG_LEVEL: 'info' } });
  let stdout = '';
  let stderr = '';
  const waiting = new Set<{ pattern: RegExp; resolve: () => void }>();
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
    for (const waiter of waiting) {
      if (!waiter.pattern.test(stdout)) continue;
      waiting.delete(waiter);
      waiter.resolve();
    }
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    until: (pattern: RegExp) =>
      new Promise<void>((resolve, reject) => {
        if (pattern.test(stdout)) return resolve();
        waiting.add({ pattern, resolve });
        void exited.then(() => reject(new Error(`serve exited before ${pattern}: ${stdout}${stderr}`)));
      }),
  };
}
