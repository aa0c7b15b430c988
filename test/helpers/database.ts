import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type DatabaseTarget, type Db } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';

/**
 * One migrated database per test file: in-memory PGlite by default, or a fresh PostgreSQL database
 * (created beside DATABASE_URL's, dropped at the end) when DATABASE_URL is set.
 */
export interface TestDatabase {
  db: Db;
  handle: DatabaseHandle;
  /** Set when running against PostgreSQL: the URL of this file's own database. */
  databaseUrl: string | undefined;
  /** Empties every table, so each test starts clean without paying for a new database. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function createTestDatabase(
  options: { migrate?: boolean } & Pick<DatabaseTarget, 'interpose'> = {},
): Promise<TestDatabase> {
  const databaseUrl = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  const handle = await openDatabase({ databaseUrl, interpose: options.interpose });
  if (options.migrate !== false) await migrateToLatest(handle.db);
  return {
    db: handle.db,
    handle,
    databaseUrl,
    reset: () => emptyAll(handle.db),
    close: async () => {
      await handle.close();
      if (databaseUrl) await dropPostgresDatabase(databaseUrl);
    },
  };
}

/**
 * Every table emptied and every sequence started again, as `truncate … restart identity` would, but by deleting rows:
 * a test leaves a few rows in each table, and deleting them costs a fifth of a truncate, which makes new files for
 * every table (60 ms a test on either engine, measured, against 10). Triggers (the audit log's append-only guard,
 * foreign keys) are off for this transaction only (`session_replication_role`, as pg_restore does).
 */
async function emptyAll(db: Db): Promise<void> {
  const { rows: tables } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(db);
  const { rows: sequences } = await sql<{ name: string }>`
    select sequencename as name from pg_sequences where schemaname = 'public'`.execute(db);
  await db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    for (const { name } of tables) await sql`delete from ${sql.table(name)}`.execute(tx);
    for (const { name } of sequences) await sql`select setval(${name}, 1, false)`.execute(tx);
  });
}

/** A new, empty database on the server of `baseUrl`; returns its URL. */
export async function createPostgresDatabase(baseUrl: string): Promise<string> {
  const name = `bookmaker_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  const adminUrl = new URL(url);
  adminUrl.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
