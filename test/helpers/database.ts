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
    reset: () => truncateAll(handle.db),
    close: async () => {
      await handle.close();
      if (databaseUrl) await dropPostgresDatabase(databaseUrl);
    },
  };
}

async function truncateAll(db: Db): Promise<void> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(db);
  if (rows.length === 0) return;
  const tables = rows.map((row) => `"${row.name}"`).join(', ');
  await sql.raw(`truncate ${tables} restart identity cascade`).execute(db);
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
