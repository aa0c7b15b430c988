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

/** Arbitrary but fixed: every Bookmaker process on one database contends for this key. */
const ADVISORY_LOCK_KEY = 7_310_552_001;

/** Held on a dedicated connection for the life of the process; the server drops it if we die. */
export async function lockPostgres(databaseUrl: string): Promise<InstanceLock> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [
    ADVISORY_LOCK_KEY,
  ]);
  if (!rows[0]?.locked) {
    await client.end();
    throw new InstanceLockError(
      'Another Bookmaker instance is already running on this database (PostgreSQL advisory lock held). ' +
        'The deployment runs a single API instance; stop the other one first.',
    );
  }
  return { release: () => client.end() };
}

/** PGlite files must never be opened by two processes; a lock file in DATA_DIR guards them. */
export async function lockDataDir(dataDir: string, onLost: (error: Error) => void): Promise<InstanceLock> {
  try {
    const release = await lockfile.lock(dataDir, {
      lockfilePath: join(dataDir, 'instance.lock'),
      stale: 10_000,
      update: 2_000,
      retries: 0,
      onCompromised: onLost,
    });
    return { release };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new InstanceLockError(
        `Another Bookmaker process is already using the embedded database in ${dataDir}. ` +
          'Stop it first (the embedded database allows one process at a time), or use DATABASE_URL.',
      );
    }
    throw error;
  }
}
