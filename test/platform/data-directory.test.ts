import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BIN, until } from '../helpers/process.ts';

// DATA_DIR's modes matter for the embedded database; on PostgreSQL the database's files are the server's business
// (this suite runs once, on PGlite). Modes are Unix's.
const skip =
  process.env.DATABASE_URL !== undefined
    ? 'PGlite only: on PostgreSQL the database files are not in DATA_DIR'
    : process.platform === 'win32' && 'Unix file modes only';

/** A DATA_DIR path that does not exist yet, so the CLI makes it. */
const newDataDir = () => join(mkdtempSync(join(tmpdir(), 'bookmaker-modes-')), 'data');

/** The development environment, with no SECRETS_KEY: the key is generated into DATA_DIR/secrets.key. */
const environment = (dataDir: string, extra: Record<string, string> = {}) => ({
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  APP_ENV: 'development',
  DATA_DIR: dataDir,
  PORT: '0',
  METRICS_PORT: '0',
  LOG_LEVEL: 'info',
  ...extra,
});

/** `bookmaker <args>` under the most permissive umask: only the service itself can make its files private. */
function spawnCli(env: Record<string, string>, args: string[]): ChildProcess {
  return spawn('/bin/sh', ['-c', 'umask 000 && exec "$0" "$@"', process.execPath, BIN, ...args], { env });
}

/** Runs it to the end; a command still running after a minute (a server that should have refused) is killed. */
async function runCli(env: Record<string, string>, args: string[]) {
  const child = spawnCli(env, args);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk) => (stdout += chunk));
  child.stderr!.on('data', (chunk) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** Every path under `root` (itself included) whose mode is not 0700 (a directory) or 0600 (anything else). */
function notPrivate(root: string): string[] {
  const found: string[] = [];
  const visit = (path: string) => {
    const stats = lstatSync(path);
    const mode = stats.mode & 0o777;
    if (mode !== (stats.isDirectory() ? 0o700 : 0o600)) found.push(`${path} ${mode.toString(8)}`);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
  return found;
}

const openToOthers = (dir: string, mode: string) =>
  `bookmaker: DATA_DIR ${dir} is open to other users (mode ${mode}; it must be 0700: only its owner may use it): ` +
  `run chmod -R go-rwx ${dir} and try again\n`;

describe('DATA_DIR is private to the user running the service', { skip }, () => {
  it('a command run with umask 000 leaves DATA_DIR 0700, its directories 0700 and its files 0600', async () => {
    const dataDir = newDataDir();
    const migrated = await runCli(environment(dataDir), ['migrate']);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.ok(existsSync(join(dataDir, 'secrets.key')), 'the development key was generated');
    assert.ok(existsSync(join(dataDir, 'pglite', 'PG_VERSION')), 'the embedded database was made');
    assert.deepEqual(notPrivate(dataDir), []);
  });

  it('the server run with umask 000 keeps everything private, its socket and what a command writes included', async () => {
    const dataDir = newDataDir();
    const env = environment(dataDir);
    const server = spawnCli(env, ['serve']);
    let output = '';
    server.stdout!.on('data', (chunk) => (output += chunk));
    server.stderr!.on('data', (chunk) => (output += chunk));
    const exited = new Promise<number | null>((resolve) => server.on('close', resolve));
    try {
      await until('the server to listen', async () => (/listening on /.test(output) ? true : undefined));
      const seeded = await runCli(env, ['demo', 'seed']);
      assert.equal(seeded.code, 0, seeded.stderr);
      assert.match(seeded.stderr, /ran by the server that owns/);
      assert.ok(existsSync(join(dataDir, 'admin.sock')));
      assert.deepEqual(notPrivate(dataDir), [], 'while the server runs');
    } finally {
      server.kill('SIGTERM');
    }
    assert.equal(await exited, 0, output);
    assert.deepEqual(notPrivate(dataDir), [], 'once it has stopped');
  });

  it('a DATA_DIR others may enter stops the server and the commands, naming the command that fixes it', async () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { mode: 0o700 });
    chmodSync(dataDir, 0o755);
    for (const args of [['serve'], ['migrate']]) {
      const refused = await runCli(environment(dataDir), args);
      assert.deepEqual([refused.code, refused.stderr], [1, openToOthers(dataDir, '0755')], args.join(' '));
    }
    // With the key given, nothing reads DATA_DIR before the database: the same check stops it there.
    const key = { SECRETS_KEY: Buffer.alloc(32, 3).toString('base64') };
    for (const args of [['serve'], ['migrate']]) {
      const refused = await runCli(environment(dataDir, key), args);
      assert.deepEqual([refused.code, refused.stderr], [1, openToOthers(dataDir, '0755')], args.join(' '));
    }
    assert.deepEqual(readdirSync(dataDir), [], 'nothing was written into it');
  });

  it('a DATA_DIR group members may read is refused too', async () => {
    const dataDir = newDataDir();
    mkdirSync(dataDir, { mode: 0o700 });
    chmodSync(dataDir, 0o750);
    const refused = await runCli(environment(dataDir), ['migrate']);
    assert.deepEqual([refused.code, refused.stderr], [1, openToOthers(dataDir, '0750')]);
  });

  it('a data directory of an older version (0755, files 0666) is refused until the printed command is run', async () => {
    const dataDir = newDataDir();
    assert.equal((await runCli(environment(dataDir), ['migrate'])).code, 0);
    openEverything(dataDir);
    const refused = await runCli(environment(dataDir), ['migrate']);
    assert.deepEqual([refused.code, refused.stderr], [1, openToOthers(dataDir, '0755')]);

    const fix = /run (chmod -R go-rwx \S+) and try again/.exec(refused.stderr)![1]!;
    const fixed = await new Promise<number | null>((resolve) => spawn('/bin/sh', ['-c', fix]).on('close', resolve));
    assert.equal(fixed, 0);
    const again = await runCli(environment(dataDir), ['migrate']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual(notPrivate(dataDir), []);
  });

  it('inside a private DATA_DIR, a file or directory open to others is made private again', async () => {
    const dataDir = newDataDir();
    assert.equal((await runCli(environment(dataDir), ['migrate'])).code, 0);
    openEverything(dataDir);
    chmodSync(dataDir, 0o700);
    writeFileSync(join(dataDir, 'pglite', 'left-by-hand'), '', { mode: 0o666 });
    chmodSync(join(dataDir, 'pglite', 'left-by-hand'), 0o666);
    const migrated = await runCli(environment(dataDir), ['migrate']);
    assert.equal(migrated.code, 0, migrated.stderr);
    assert.deepEqual(notPrivate(dataDir), []);
  });

  it('a DATA_DIR that is a file is refused with what to do', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'bookmaker-modes-')), 'data');
    writeFileSync(file, '');
    const refused = await runCli(environment(file), ['migrate']);
    assert.deepEqual(
      [refused.code, refused.stderr],
      [1, `bookmaker: DATA_DIR ${file} is not a directory: set DATA_DIR to a directory (made if missing)\n`],
    );
  });
});

/** What older versions left: DATA_DIR and its directories 0755, the database's files 0666. */
function openEverything(root: string): void {
  const visit = (path: string) => {
    const stats = lstatSync(path);
    chmodSync(path, stats.isDirectory() ? 0o755 : 0o666);
    if (stats.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(root);
}
