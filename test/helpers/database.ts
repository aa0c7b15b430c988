import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Kysely, PostgresDialect, sql } from 'kysely';
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
  /** Empties every table, so each test starts clean without paying for a new database; or puts back what was kept. */
  reset(to?: KeptState): Promise<void>;
  /** Keeps what every table holds now, for `reset(kept)`: a costly starting point built once per file. */
  keep(): Promise<KeptState>;
  close(): Promise<void>;
}

export async function createTestDatabase(
  options: { migrate?: boolean } & Pick<DatabaseTarget, 'interpose'> = {},
): Promise<TestDatabase> {
  const migrate = options.migrate !== false;
  const server = process.env.DATABASE_URL;
  const databaseUrl = server
    ? await createPostgresDatabase(server, migrate ? await migratedTemplate(server) : undefined)
    : undefined;
  const image = migrate ? migratedClusterImage : undefined;
  const handle = await openDatabase({ databaseUrl, interpose: options.interpose, image });
  // Started from a migrated image (PGlite) or template (PostgreSQL), there is nothing left to do but read the history.
  if (migrate) await migrateToLatest(handle.db);
  return {
    db: handle.db,
    handle,
    databaseUrl,
    reset: (to) => emptyAll(handle.db, to),
    keep: () => keepAll(handle.db),
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

/** What a file's tables held at one moment, kept in a schema of their own beside them. */
export interface KeptState {
  schema: string;
  /** Each table's columns but the generated ones, which the insert that puts rows back must leave out. */
  columns: Map<string, string[]>;
  sequences: Array<{ name: string; value: string | null }>;
}

/**
 * Every table emptied and every sequence started again, as `truncate … restart identity` would, but by deleting rows:
 * a test leaves a few rows in each table, and deleting them costs a fifth of a truncate, which makes new files for
 * every table (60 ms a test on either engine, measured, against 10). Triggers (the audit log's append-only guard,
 * foreign keys) are off for this transaction only (`session_replication_role`, as pg_restore does). Given a kept
 * state, the tables are filled again from it and the sequences go on from where they were.
 */
async function emptyAll(db: Db, to?: KeptState): Promise<void> {
  const [tables, sequences] = await Promise.all([publicTables(db), publicSequences(db)]);
  await db.transaction().execute(async (tx) => {
    await sql`set local session_replication_role = replica`.execute(tx);
    for (const name of tables) {
      await sql`delete from ${sql.table(name)}`.execute(tx);
      const columns = to?.columns.get(name);
      if (to && columns) {
        const list = sql.join(columns.map((column) => sql.id(column)));
        await sql`insert into ${sql.table(name)} (${list}) overriding system value
          select ${list} from ${sql.table(`${to.schema}.${name}`)}`.execute(tx);
      }
    }
    for (const name of sequences) {
      const kept = to?.sequences.find((sequence) => sequence.name === name)?.value ?? null;
      if (kept === null) await sql`select setval(${name}, 1, false)`.execute(tx);
      else await sql`select setval(${name}, ${kept}, true)`.execute(tx);
    }
  });
}

async function keepAll(db: Db): Promise<KeptState> {
  const schema = 'kept_state';
  const [tables, sequences] = await Promise.all([publicTables(db), publicSequences(db)]);
  await db.transaction().execute(async (tx) => {
    await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(tx);
    await sql`create schema ${sql.id(schema)}`.execute(tx);
    for (const name of tables) {
      await sql`create table ${sql.table(`${schema}.${name}`)} as table ${sql.table(name)}`.execute(tx);
    }
  });
  const { rows } = await sql<{ name: string; value: string | null }>`
    select sequencename as name, last_value::text as value from pg_sequences where schemaname = 'public'`.execute(db);
  const { rows: columns } = await sql<{ table: string; column: string }>`
    select table_name as table, column_name as column from information_schema.columns
    where table_schema = 'public' and is_generated = 'NEVER' order by table_name, ordinal_position`.execute(db);
  const byTable = new Map<string, string[]>();
  for (const { table, column } of columns) byTable.set(table, [...(byTable.get(table) ?? []), column]);
  return { schema, columns: byTable, sequences: rows.filter((row) => sequences.includes(row.name)) };
}

async function publicTables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables
    where schemaname = 'public' and tablename not like 'kysely_migration%'`.execute(db);
  return rows.map((row) => row.name);
}

async function publicSequences(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select sequencename as name from pg_sequences where schemaname = 'public'`.execute(db);
  return rows.map((row) => row.name);
}

/**
 * A deployment's database with every migration run, as its first start leaves it: on the server of `baseUrl` a copy
 * of the migrated template (its URL returned), or else a PGlite cluster in `pgliteDir` from the migrated image. For
 * the process tests whose subject is not the migrations: a first start that migrates costs a spawned server about 1.4
 * s of CPU, on each engine.
 */
export async function migratedDeploymentDatabase(target: {
  baseUrl: string | undefined;
  pgliteDir: string;
}): Promise<string | undefined> {
  if (target.baseUrl) return createPostgresDatabase(target.baseUrl, await migratedTemplate(target.baseUrl));
  const handle = await openDatabase({ dataDir: target.pgliteDir, image: migratedClusterImage });
  await handle.close();
  return undefined;
}

/** A new database on the server of `baseUrl`, empty or a copy of `template`; returns its URL. */
export async function createPostgresDatabase(baseUrl: string, template?: string): Promise<string> {
  const name = `bookmaker_test_${randomBytes(6).toString('hex')}`;
  await withAdmin(baseUrl, (admin) => admin.query(`create database ${name}${template ? ` template ${template}` : ''}`));
  return databaseUrlNamed(baseUrl, name);
}

/**
 * The PostgreSQL side of the image: a database with every migration run, named after the migrations' files, made
 * once per server and copied for each test file (`create database … template`: a file copy, a tenth of migrating).
 * The first test file to need it makes it under an advisory lock, so two files at once make it once; nothing stays
 * connected to it, as a template requires. A changed migration makes a new one (old ones are left to `dropdb`).
 */
let template: Promise<string> | undefined;
function migratedTemplate(baseUrl: string): Promise<string> {
  template ??= makeTemplate(baseUrl, `bookmaker_template_${migrationsFingerprint()}`);
  return template;
}

async function makeTemplate(baseUrl: string, name: string): Promise<string> {
  await withAdmin(baseUrl, async (admin) => {
    await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await admin.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount) return;
    // Made under another name and renamed when complete: a template that exists is a whole one.
    const making = `${name}_making`;
    await admin.query(`drop database if exists ${making}`);
    await admin.query(`create database ${making}`);
    const db = new Kysely<Database>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrlNamed(baseUrl, making) }) }),
    });
    try {
      await migrateToLatest(db);
    } finally {
      await db.destroy();
    }
    await admin.query(`alter database ${making} rename to ${name}`);
  });
  return name;
}

async function withAdmin<T>(baseUrl: string, use: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    return await use(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrlNamed(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(url: string): Promise<void> {
  const name = new URL(url).pathname.slice(1);
  await withAdmin(databaseUrlNamed(url, 'postgres'), (admin) =>
    admin.query(`drop database if exists ${name} with (force)`),
  );
}
