import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { debugDetails, explainFailure } from '../src/commands/failures.ts';
import { assertFails, bookmaker, KEY, tempDir } from './helpers/cli-run.ts';
import { BIN, until } from './helpers/process.ts';

const ROOT = join(import.meta.dirname, '..');
const WALLET = join(ROOT, 'reference-wallet', 'main.js');

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('CLI failures are one line that says what to do', () => {
  it('DATA_DIR/secrets.key that is not a file', async () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'secrets.key'));
    assertFails(
      await bookmaker({ DATA_DIR: dataDir }, ['migrate']),
      `bookmaker: configuration error: SECRETS_KEY: ${dataDir}/secrets.key, the development key, is not a file: put ` +
        'the key file back, or move this aside to have a new key made (what the old key encrypted can then no longer ' +
        'be read)\n',
    );
  });

  it('DATA_DIR under a regular file', async () => {
    const file = join(tempDir(), 'a-file');
    writeFileSync(file, '');
    const expected =
      `bookmaker: cannot stat ${file}/data: a part of this path is a file, not a directory. Set DATA_DIR to a ` +
      'directory (made if missing)\n';
    assertFails(await bookmaker({ DATA_DIR: join(file, 'data') }, ['migrate']), expected);
    assertFails(await bookmaker({ DATA_DIR: join(file, 'data'), SECRETS_KEY: KEY }, ['serve']), expected);
  });

  it('an embedded database PGlite cannot open', async () => {
    const dataDir = tempDir();
    mkdirSync(join(dataDir, 'pglite'), { mode: 0o700 });
    writeFileSync(join(dataDir, 'pglite', 'PG_VERSION'), 'not a version\n', { mode: 0o600 });
    const expected = new RegExp(
      `^bookmaker: the embedded database in ${escaped(dataDir)}/pglite could not be opened \\(.+\\): its files ` +
        'may be damaged, changed by another program, or written by another PGlite version\\. Restore the ' +
        'directory from a backup \\(or, in development, move it aside to start with an empty database\\)\\n$',
    );
    for (const args of [['migrate'], ['serve']]) {
      assertFails(await bookmaker({ DATA_DIR: dataDir, SECRETS_KEY: KEY }, args), expected);
    }
  });

  it('PostgreSQL that does not answer', async () => {
    const port = await closedPort();
    const env = { DATA_DIR: tempDir(), SECRETS_KEY: KEY, DATABASE_URL: `postgres://bookmaker@127.0.0.1:${port}/app` };
    const refused = (prefix: string) =>
      `${prefix}: cannot connect to PostgreSQL at 127.0.0.1:${port}/app (ECONNREFUSED): check that it is running ` +
      'and reachable, or correct DATABASE_URL\n';
    assertFails(await bookmaker(env, ['serve']), refused('bookmaker'));
    const opening = `bookmaker: database: PostgreSQL at 127.0.0.1:${port}/app\n`;
    // migrate meets the database inside the command; staff create before it, when it migrates first.
    assertFails(await bookmaker(env, ['migrate']), opening + refused('bookmaker migrate'));
    assertFails(
      await bookmaker(env, [
        'staff',
        'create',
        '--email',
        'a@b.test',
        '--password',
        'long enough pass',
        '--role',
        'trader',
      ]),
      opening + refused('bookmaker'),
    );
  });
});

/**
 * Files this user cannot read. Root reads everything, so as root the commands run as `nobody` (setpriv), when that
 * user can run the checkout's Node; as anyone else, as themselves.
 */
const asRoot = process.getuid?.() === 0;
const nobody = asRoot ? otherUser() : undefined;
const permissionsSkip =
  process.platform === 'win32'
    ? 'Unix file modes only'
    : asRoot && !nobody && 'running as root, and user nobody cannot run this checkout through setpriv';

function otherUser(): { uid: number; gid: number } | undefined {
  try {
    const user = {
      uid: Number(execFileSync('id', ['-u', 'nobody']).toString()),
      gid: Number(execFileSync('id', ['-g', 'nobody']).toString()),
    };
    const args = [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', process.execPath, BIN, '--version'];
    execFileSync('setpriv', args, { stdio: 'ignore' });
    return user;
  } catch {
    return undefined;
  }
}

/** A DATA_DIR for the user the commands run as, in a directory that user may pass through. */
function dataDirOf(owner: { uid: number; gid: number } | undefined): string {
  const parent = tempDir();
  chmodSync(parent, 0o711);
  const dataDir = join(parent, 'data');
  mkdirSync(dataDir, { mode: 0o700 });
  if (owner) chownSync(dataDir, owner.uid, owner.gid);
  return dataDir;
}

function writeKey(file: string, mode: number, owner: { uid: number; gid: number } | undefined): void {
  writeFileSync(file, KEY, { mode });
  chmodSync(file, mode);
  if (owner) chownSync(file, owner.uid, owner.gid);
}

describe('CLI failures: files this user may not use', { skip: permissionsSkip }, () => {
  it('a secrets.key it cannot read', async () => {
    const dataDir = dataDirOf(nobody);
    writeKey(join(dataDir, 'secrets.key'), 0o000, nobody);
    assertFails(
      await bookmaker({ DATA_DIR: dataDir }, ['migrate'], nobody),
      `bookmaker: cannot open ${dataDir}/secrets.key: permission denied. Run bookmaker as the user that owns ` +
        `DATA_DIR (${dataDir}), and let that user read and write everything in it: chown -R <user> ${dataDir} && ` +
        `chmod -R u+rwX ${dataDir}\n`,
    );
  });

  it('a DATA_DIR of another user', { skip: !asRoot && 'needs root, to make a directory of another user' }, async () => {
    const dataDir = dataDirOf(undefined);
    assertFails(
      await bookmaker({ DATA_DIR: dataDir }, ['migrate'], nobody),
      `bookmaker: DATA_DIR ${dataDir} belongs to another user (uid 0, this process runs as uid ${nobody!.uid}): ` +
        'run bookmaker as the user that owns it, or set DATA_DIR to a directory of your own\n',
    );
  });

  it(
    'a file another user left in DATA_DIR',
    { skip: !asRoot && 'needs root, to leave a file of another user' },
    async () => {
      const dataDir = dataDirOf(nobody);
      const key = join(dataDir, 'secrets.key');
      writeKey(key, 0o600, undefined);
      const fix = `chown -R ${nobody!.uid} ${key}`;
      assertFails(
        await bookmaker({ DATA_DIR: dataDir }, ['migrate'], nobody),
        `bookmaker: ${key} belongs to another user (uid 0, this process runs as uid ${nobody!.uid}; was bookmaker ` +
          `run as that user?): give it back with ${fix} (as root) and try again\n`,
      );
    },
  );
});

/** The machine's own Node (Debian's is 20), older than the pinned 24: the `node` a person types by habit. */
const OLDER_NODE = '/usr/bin/node';

function olderNodeSkip(): string | false {
  if (!existsSync(OLDER_NODE)) return `${OLDER_NODE} does not exist`;
  const version = execFileSync(OLDER_NODE, ['--version'], { encoding: 'utf8' }).trim();
  return Number(version.slice(1).split('.')[0]) >= 24 && `${OLDER_NODE} is ${version}, not older than Node 24`;
}

describe('started on an older Node', { skip: olderNodeSkip() }, () => {
  it('bookmaker --help runs again on the pinned Node and prints the same usage', () => {
    const run = (node: string) =>
      spawnSync(node, [BIN, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '/usr/bin:/bin' } });
    const older = run(OLDER_NODE);
    const pinned = run(process.execPath);
    assert.equal(older.stderr, '');
    assert.equal(older.status, 0);
    assert.match(pinned.stdout, /^Usage: bookmaker <command> \[flags\]\n/);
    assert.equal(older.stdout, pinned.stdout);
  });

  it('reference-wallet/main.js runs the wallet again on the pinned Node; it answers, and stops on SIGTERM', async () => {
    const wallet = spawn(OLDER_NODE, [WALLET], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', WALLET_PORT: '0' },
    });
    let stdout = '';
    let stderr = '';
    wallet.stdout.on('data', (chunk) => (stdout += chunk));
    wallet.stderr.on('data', (chunk) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => wallet.on('close', resolve));
    try {
      const started = await until('the wallet to listen', async () => (stdout.includes('\n') ? stdout : undefined));
      const { wallet: url, controlToken } = JSON.parse(started) as { wallet: string; controlToken: string };
      const stats = await fetch(`${url}/_control/stats`, { headers: { 'x-control-token': controlToken } });
      assert.equal(stats.status, 200);
    } finally {
      wallet.kill('SIGTERM');
    }
    assert.equal(await exited, 0, stderr);
    assert.equal(stderr, '');
  });

  it('without the pinned Node, both launchers say which Node they need and what to run', () => {
    const copy = tempDir();
    for (const [launcher, words] of [
      ['bin/bookmaker.js', 'bookmaker needs Node 24 (found VERSION); run npm install first.\n'],
      [
        'reference-wallet/main.js',
        'the reference wallet needs Node 24 (found VERSION): run npm install, then npm run wallet\n',
      ],
    ] as const) {
      const file = join(copy, launcher);
      mkdirSync(dirname(file), { recursive: true });
      copyFileSync(join(ROOT, launcher), file);
      writeFileSync(join(copy, 'package.json'), '{ "type": "module" }');
      const run = spawnSync(OLDER_NODE, [file], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      });
      const version = execFileSync(OLDER_NODE, ['--version'], { encoding: 'utf8' }).trim();
      assert.deepEqual([run.status, run.stdout, run.stderr], [1, '', words.replace('VERSION', version)], launcher);
    }
  });
});

describe('explainFailure', () => {
  it('says an unexpected error in one line, with how to see more', () => {
    assert.equal(
      explainFailure(new TypeError('x is not a function')),
      'unexpected error: x is not a function. Run the command again with LOG_LEVEL=debug to see where it ' +
        'happened, and report it',
    );
    assert.match(explainFailure('thrown text'), /^unexpected error: thrown text\. /);
  });

  it('says a database error that is not about connecting as unexpected, with its SQLSTATE', () => {
    const error = Object.assign(new Error('relation "x" does not exist'), { code: '42P01', severity: 'ERROR' });
    assert.match(
      explainFailure(error),
      /^unexpected error: the database answered relation "x" does not exist \(SQLSTATE 42P01\)\. /,
    );
  });

  it('names the file and the fix for file system errors', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), {
      code: 'ENOSPC',
      syscall: 'write',
      path: '/srv/data/pglite/base/5/1259',
    });
    assert.equal(
      explainFailure(full, { dataDir: '/srv/data' }),
      'cannot write /srv/data/pglite/base/5/1259: no space left on the device. Free some space, then try again',
    );
    const readOnly = Object.assign(new Error('EROFS'), { code: 'EROFS', syscall: 'open', path: '/srv/data/x' });
    assert.equal(
      explainFailure(readOnly),
      'cannot open /srv/data/x: the file system is read-only. Set DATA_DIR to a directory on a writable one',
    );
  });

  it('shows the stack only under LOG_LEVEL=debug or trace', () => {
    const error = new Error('boom');
    assert.equal(debugDetails(error, undefined), undefined);
    assert.equal(debugDetails(error, 'info'), undefined);
    assert.equal(debugDetails(error, 'debug'), error.stack);
    assert.equal(debugDetails(error, 'trace'), error.stack);
  });
});
