import pg from 'pg';
import { ensurePrivateDir, makePrivate } from '../src/platform/data-dir.ts';
import { createPglite } from '../src/platform/db/pglite-image.ts';

/** What the wallet's ledger needs of a database: the same few calls on PGlite and on a PostgreSQL server. */
export interface SqlQueryable {
  query<T>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
}
export interface SqlDatabase extends SqlQueryable {
  exec(text: string): Promise<void>;
  transaction<T>(work: (tx: SqlQueryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** bigint columns (balances, amounts) as numbers: exact below 2^53, far above any balance. */
const BIGINT = 20;

/**
 * Embedded PGlite: one session, so transactions never overlap (in memory when no directory is given). A directory
 * is kept private to this user as the service keeps its own: one open to others is refused, and what PGlite writes
 * in it is made 0700/0600.
 */
export async function openPglite(dataDir?: string): Promise<SqlDatabase> {
  if (dataDir) ensurePrivateDir(dataDir, 'WALLET_DATA_DIR');
  const db = await createPglite({ ...(dataDir ? { dataDir } : {}), parsers: { [BIGINT]: Number } });
  if (dataDir) makePrivate(dataDir);
  return {
    query: (text, params) => db.query(text, params),
    exec: async (text) => void (await db.exec(text)),
    transaction: (work) => db.transaction((tx) => work(tx)),
    close: () => db.close(),
  };
}

function parserOf(oid: number, format?: 'text' | 'binary'): (value: string) => unknown {
  if (oid === BIGINT) return Number;
  return pg.types.getTypeParser(oid, format) as (value: string) => unknown;
}

/** A PostgreSQL server: real concurrency, so the ledger's row locks and unique keys do the work. */
export function openPostgres(connectionString: string): SqlDatabase {
  const pool = new pg.Pool({
    connectionString,
    max: 16,
    types: { getTypeParser: parserOf as typeof pg.types.getTypeParser },
  });
  // An idle connection that breaks (a server restart) must not stop the wallet.
  pool.on('error', () => undefined);
  const on =
    (target: pg.Pool | pg.PoolClient) =>
    async <T>(text: string, params?: unknown[]) => ({ rows: (await target.query(text, params)).rows as T[] });
  return {
    query: on(pool),
    exec: async (text) => void (await pool.query(text)),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const result = await work({ query: on(client) });
        await client.query('commit');
        return result;
      } catch (error) {
        await client.query('rollback').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}
