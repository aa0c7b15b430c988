import { mkdirSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { DataDirError, makePrivate, PRIVATE_DIR_MODE } from '../data-dir.ts';
import { Kysely, PostgresDialect, type PostgresPool, type Transaction } from 'kysely';
import pg from 'pg';
import { pgliteNotifications, postgresNotifications, registerNotifications } from './notifications.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { createPglite } from './pglite-image.ts';
import { preparingPool, STALE_PREPARED_STATEMENT } from './prepared-statements.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or a transaction: stores accept both so services decide the transaction. */
export type Queryable = Db | Tx;

export interface DatabaseHandle {
  db: Db;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

export interface DatabaseTarget {
  /** postgres:// URL; when absent PGlite is used. */
  databaseUrl?: string | undefined;
  /** PGlite data directory; absent means in memory (tests). A new cluster starts from an image (pglite-image.ts). */
  dataDir?: string | undefined;
  /**
   * The image a new PGlite cluster starts from, in place of a fresh cluster's: the tests give one already migrated
   * (test/helpers/database.ts).
   */
  image?: () => Promise<Blob | undefined>;
  /** Told when an idle pooled connection breaks (server restart, terminated backend); the pool replaces it. */
  onConnectionError?: (error: Error) => void;
  /**
   * Stands between Kysely and the PostgreSQL pool: the interleaving tests pause a transaction before a chosen
   * statement through it (test/helpers/interleaving.ts). The service never sets it.
   */
  interpose?: (pool: PostgresPool) => PostgresPool;
}

/** How a database's connections are used right now: the pool gauges of the metrics. */
export interface ConnectionUse {
  inUse: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

const connectionUses = new WeakMap<Db, () => ConnectionUse>();

/** The connections of a database opened by openDatabase, as they are used now. */
export function connectionUse(db: Db): ConnectionUse | undefined {
  return connectionUses.get(db)?.();
}

const INT8_OID = 20;
// Counters and minor-unit amounts stay far below 2^53; plain numbers keep arithmetic exact and simple.
const parseInt8 = (value: string): number => Number(value);

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID
            ? parseInt8
            : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
      },
    });
    // Without a listener, a broken idle connection would be an unhandled 'error' event and stop the process.
    pool.on(
      'error',
      target.onConnectionError ?? ((error) => process.stderr.write(`database connection lost: ${error.message}\n`)),
    );
    const prepared = preparingPool(pool);
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: target.interpose ? target.interpose(prepared) : prepared }),
    });
    const notifications = postgresNotifications(
      target.databaseUrl,
      target.onConnectionError ?? ((error) => process.stderr.write(`database listener lost: ${error.message}\n`)),
    );
    registerNotifications(db, notifications);
    connectionUses.set(db, () => ({
      inUse: pool.totalCount - pool.idleCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    }));
    return {
      db,
      kind: 'postgres',
      close: async () => {
        await notifications.closeAll();
        await db.destroy();
      },
    };
  }
  const pglite = await openPglite(target.dataDir, target.image);
  const dialect = new PGliteDialect(pglite);
  const db = new Kysely<Database>({ dialect });
  registerNotifications(db, pgliteNotifications(db, pglite));
  connectionUses.set(db, () => {
    const { busy, waiting } = dialect.connectionUse();
    return { inUse: busy ? 1 : 0, idle: busy ? 0 : 1, waiting };
  });
  return {
    db,
    kind: 'pglite',
    close: async () => {
      await db.destroy();
      await pglite.close();
    },
  };
}

/**
 * PGlite in `dataDir` (in memory without one). PGlite chooses the modes of the files it writes (initdb's are 0666),
 * so once it is open everything in its directory is made 0700/0600; the caller has checked the directory above it
 * (data-dir.ts). A failure to open says which directory and what to do.
 */
async function openPglite(dataDir: string | undefined, image?: () => Promise<Blob | undefined>): Promise<PGlite> {
  if (dataDir) mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE });
  let pglite: PGlite;
  try {
    pglite = await createPglite({ ...(dataDir ? { dataDir } : {}), parsers: { [INT8_OID]: parseInt8 } }, image);
  } catch (error) {
    // A file system error of Node's own (permissions, a missing directory) is said as such by whoever reports it.
    if (typeof (error as NodeJS.ErrnoException).syscall === 'string') throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new DataDirError(
      `the embedded database in ${dataDir ?? 'memory'} could not be opened (${reason}): its files may be damaged, ` +
        'changed by another program, or written by another PGlite version. Restore the directory from a backup ' +
        '(or, in development, move it aside to start with an empty database)',
    );
  }
  try {
    if (dataDir) makePrivate(dataDir);
  } catch (error) {
    await pglite.close();
    throw error;
  }
  return pglite;
}

/**
 * PostgreSQL's "try again" answers: a deadlock victim or a serialization failure committed nothing; nor did a
 * prepared statement a migration made stale (its connection is closed on release, so the next run gets another).
 */
const RETRYABLE = new Set(['40P01', '40001', ...STALE_PREPARED_STATEMENT]);
const TRANSACTION_ATTEMPTS = 3;

/**
 * The one transaction helper: every multi-statement change goes through it. Never call the network inside.
 * A transaction PostgreSQL aborted as a deadlock victim, for serialization or on a stale prepared statement is run
 * again (it committed nothing, and the work inside only touches the database), at most three times in all.
 */
export function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return runAgainIfAborted(async () => {
    let current: Tx | undefined;
    try {
      return await db.transaction().execute((tx) => {
        current = tx;
        transactionEndHooks.set(tx, []);
        return work(tx);
      });
    } finally {
      if (current) runTransactionEndHooks(current);
    }
  });
}

/**
 * Runs `work` (a transaction, or one statement on its own, which is its own transaction) again when PostgreSQL
 * aborted it as a deadlock victim, for serialization or on a stale prepared statement: it committed nothing. At
 * most three runs in all.
 */
export async function runAgainIfAborted<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (attempt >= TRANSACTION_ATTEMPTS || typeof code !== 'string' || !RETRYABLE.has(code)) throw error;
    }
  }
}

const transactionEndHooks = new WeakMap<Tx, Array<() => void>>();

/**
 * Runs `hook` once the transaction `q` has ended, committed or not (at once when `q` is not a transaction: its
 * statement has ended). For caches of rows: what a transaction wrote is visible to others only after its commit.
 * Only transactions of inTransaction are known: another one would never run its hooks, so it is refused.
 */
export function onTransactionEnd(q: Queryable, hook: () => void): void {
  if (!q.isTransaction) {
    hook();
    return;
  }
  const hooks = transactionEndHooks.get(q as Tx);
  if (!hooks) throw new Error('onTransactionEnd needs a transaction opened by inTransaction');
  hooks.push(hook);
}

function runTransactionEndHooks(tx: Tx): void {
  const hooks = transactionEndHooks.get(tx) ?? [];
  transactionEndHooks.delete(tx);
  // The transaction has ended: a failing hook must not turn its outcome into an error.
  for (const hook of hooks) {
    try {
      hook();
    } catch (error) {
      process.stderr.write(`a transaction-end hook failed: ${String(error)}\n`);
    }
  }
}
