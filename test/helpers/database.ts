import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type DatabaseTarget, type Db } from '../../src/platform/db/database.ts';
import { migrateToLatest } from '../../src/platform/db/migrate.ts';
import { PGliteDialect } from '../../src/platform/db/pglite-dialect.ts';
import { preparedClusterImage } from '../../src/platform/db/pglite-image.ts';
import type { Database } from '../../src/platform/db/schema.ts';

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
  const migrate = options.migrate !== false;
  const databaseUrl = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
  const image = migrate ? migratedClusterImage : undefined;
  const handle = await openDatabase({ databaseUrl, interpose: options.interpose, image });
  // Started from a migrated image (PGlite), there is nothing left to do but read the history once.
  if (migrate) await migrateToLatest(handle.db);
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
 * A PGlite cluster with every migration run, as an image new test databases start from: opening one costs a fifth of
 * running the migrations on a fresh cluster (1.7 s of CPU a test file, measured). Named after the migrations' own
 * files, so a changed or added migration makes a new image.
 */
const migratedClusterImage = () =>
  preparedClusterImage(`migrated-${migrationsFingerprint()}`, async (cluster) => {
    const db = new Kysely<Database>({ dialect: new PGliteDialect(cluster) });
    await migrateToLatest(db);
    await db.destroy();
  });

function migrationsFingerprint(): string {
  const folder = new URL('../../src/platform/db/migrations/', import.meta.url);
  const hash = createHash('sha256');
  for (const file of readdirSync(folder).sort()) hash.update(file).update(readFileSync(new URL(file, folder)));
  return hash.digest('hex').slice(0, 16);
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
