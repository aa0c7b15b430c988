import { chmod, readFile, rmdir, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import lockfile from 'proper-lockfile';

/** One API instance per database: the delivery workers and PGlite itself assume it. */
export class InstanceLockError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InstanceLockError';
  }
}

export interface InstanceLock {
  release(): Promise<void>;
}

/** Told when the lock is lost while held: another process may now run the workers on the same database. */
export type LockLost = (error: Error) => void;

/** Arbitrary but fixed: every Bookmaker API instance on one database contends for this key. */
const ADVISORY_LOCK_KEY = 7_310_552_001;
/** A half-open connection gives no error by itself: the lock's connection is asked a question this often. */
const HEARTBEAT_MS = 5_000;

/**
 * Held on a dedicated connection for the life of the process; the server drops it if we die. If that connection
 * breaks (server restart, terminated backend), the lock is gone with it and `onLost` is told.
 */
export async function lockPostgres(databaseUrl: string, onLost: LockLost): Promise<InstanceLock> {
  const client = new pg.Client({ connectionString: databaseUrl, keepAlive: true });
  await client.connect();
  const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
    ADVISORY_LOCK_KEY,
  ]);
  if (!rows[0]?.locked) {
    await client.end();
    throw new InstanceLockError(
      'Another Bookmaker API instance is already running on this database (PostgreSQL advisory lock held). ' +
        'The deployment runs a single API instance; stop the other one first.',
    );
  }
  let releasing = false;
  let reported = false;
  const lost = (error: Error) => {
    if (releasing || reported) return;
    reported = true;
    clearInterval(heartbeat);
    onLost(error);
  };
  client.on('error', lost);
  client.on('end', () => lost(new Error('the connection holding the instance lock closed')));
  const heartbeat = setInterval(() => {
    client.query('select 1').catch((error: Error) => lost(error));
  }, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    release: async () => {
      releasing = true;
      clearInterval(heartbeat);
      await client.end();
    },
  };
}

export const DATA_DIR_LOCK = 'instance.lock';
/** Who holds the lock: `{ pid, host }`, so a process that finds the lock of a dead one need not wait for it. */
const LOCK_OWNER = 'instance.owner';

/**
 * PGlite files must never be opened by two processes; a lock file in DATA_DIR guards them. A lock whose owner was
 * killed expires 10 s after its last refresh; sooner when the owner is known to be dead (same host, no such process).
 */
export async function lockDataDir(dataDir: string, onLost: LockLost): Promise<InstanceLock> {
  const lockfilePath = join(dataDir, DATA_DIR_LOCK);
  const owner = join(dataDir, LOCK_OWNER);
  const take = () =>
    lockfile.lock(dataDir, { lockfilePath, stale: 10_000, update: 2_000, retries: 0, onCompromised: onLost });
  try {
    let release: () => Promise<void>;
    try {
      release = await take();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || !(await ownerIsDead(owner))) throw error;
      await rmdir(lockfilePath).catch(() => undefined);
      release = await take();
    }
    // Private whatever the umask, like everything in DATA_DIR (data-dir.ts): proper-lockfile makes its directory.
    await chmod(lockfilePath, 0o700);
    await writeFile(owner, JSON.stringify({ pid: process.pid, host: hostname() }), { mode: 0o600 });
    return { release };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new InstanceLockError(
        `Another Bookmaker process is already using the embedded database in ${dataDir}: the embedded database ` +
          'allows one process at a time. Stop that process first. (The lock of a process killed on this machine ' +
          'is taken over at once; of one that ran elsewhere, 10 seconds after it stopped.)',
      );
    }
    throw error;
  }
}

/** Only when it is certain: the owner ran on this host, and no process has its pid any more. */
async function ownerIsDead(ownerFile: string): Promise<boolean> {
  try {
    const { pid, host } = JSON.parse(await readFile(ownerFile, 'utf8')) as { pid: number; host: string };
    if (host !== hostname() || !Number.isInteger(pid) || pid === process.pid) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
