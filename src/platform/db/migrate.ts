import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './database.ts';
import { migrationProvider } from './migrations/index.ts';

/**
 * Kysely's bookkeeping table, kept as Kysely writes it (one row per applied migration: its name and an ISO time), so
 * that databases migrated by earlier releases, and Kysely's own Migrator in tests, read the same history.
 */
const MIGRATIONS_TABLE = 'kysely_migration';
/**
 * The advisory lock Kysely's PostgreSQL adapter takes around a migration run: two runs, this one's or Kysely's own,
 * in two processes (`bookmaker migrate` beside a starting server) take turns.
 */
const MIGRATION_LOCK = '3853314791062309107';
/** PostgreSQL's undefined_table: no migration was ever applied to this database. */
const UNDEFINED_TABLE = '42P01';

/** Kysely's Migrator over the service's migrations, for tests that build a database as an older release left it. */
export function migrator(db: Db, provider: MigrationProvider = migrationProvider): Migrator {
  return new Migrator({ db, provider });
}

interface MigrationRun {
  /** Hears the pending migrations before the first is applied, so a long run says what it is doing. */
  pending?: (names: string[]) => void;
  /** Hears each migration as it starts. */
  applying?: (name: string) => void;
  /** Once aborted, no further migration starts: the one under way commits or rolls back whole, then the run stops. */
  signal?: AbortSignal;
  /** The migrations (the service's own unless a test gives others). */
  provider?: MigrationProvider;
}

/** A run stopped between two migrations: each one is applied whole or not at all, so the database is consistent. */
export class MigrationsInterrupted extends Error {
  readonly applied: readonly string[];
  readonly notApplied: readonly string[];
  constructor(applied: string[], notApplied: string[]) {
    const done = applied.length > 0 ? `${applied.join(', ')} applied, ` : 'none applied, ';
    super(
      `stopped during migrations: ${done}${notApplied[0]}${notApplied.length > 1 ? ' and later' : ''} not applied; ` +
        'the database is consistent; run again to continue',
    );
    this.name = 'MigrationsInterrupted';
    this.applied = applied;
    this.notApplied = notApplied;
  }
}

/**
 * Applies every pending migration, each in a transaction of its own that also records it: a failing migration
 * leaves nothing of itself and keeps those before it; a stop (`signal`) waits for the one under way and starts no
 * other. Resolves with the names applied.
 *
 * Kysely's Migrator would run them all in one transaction, or, one at a time, introspect the whole catalog before
 * each (70 ms a migration on PGlite); this reads the history once and takes Kysely's lock in each transaction.
 */
export async function migrateToLatest(db: Db, run: MigrationRun = {}): Promise<string[]> {
  const known = await knownMigrations(run.provider ?? migrationProvider);
  const pending = pendingOf(known, await appliedMigrations(db));
  if (pending.length === 0) return [];
  run.pending?.(pending);
  await ensureHistoryTable(db);
  const applied: string[] = [];
  for (const name of pending) {
    // The event loop turns first: PGlite answers without I/O, so a signal's handler would otherwise wait for the end.
    await new Promise((resolve) => setImmediate(resolve));
    if (run.signal?.aborted) throw new MigrationsInterrupted(applied, pending.slice(applied.length));
    run.applying?.(name);
    if (await applyOne(db, name, known.get(name)!)) applied.push(name);
  }
  return applied;
}

/** Ready = the database answers and no migration is pending. One read of the history, no catalog introspection. */
export async function isReady(db: Db): Promise<{ ready: boolean; reason?: string }> {
  try {
    const pending = pendingOf(await knownMigrations(migrationProvider), await appliedMigrations(db));
    return pending.length === 0 ? { ready: true } : { ready: false, reason: 'migrations_pending' };
  } catch {
    return { ready: false, reason: 'database_unreachable' };
  }
}

/** Ordered by name, as Kysely orders them. */
async function knownMigrations(provider: MigrationProvider): Promise<Map<string, Migration>> {
  const migrations = await provider.getMigrations();
  return new Map(
    Object.keys(migrations)
      .sort()
      .map((name) => [name, migrations[name]!] as const),
  );
}

async function appliedMigrations(db: Db): Promise<string[]> {
  try {
    const { rows } = await sql<{ name: string }>`select name from ${sql.table(MIGRATIONS_TABLE)}`.execute(db);
    return rows.map((row) => row.name).sort();
  } catch (error) {
    if ((error as { code?: unknown }).code === UNDEFINED_TABLE) return [];
    throw error;
  }
}

/**
 * The known migrations not applied yet. The applied ones must be the first known ones, in order: anything else is a
 * database that a newer release migrated, or a history edited by hand, and nothing is applied to it.
 */
function pendingOf(known: Map<string, Migration>, applied: string[]): string[] {
  const names = [...known.keys()];
  applied.forEach((name, index) => {
    if (names[index] !== name) {
      throw new Error(
        known.has(name)
          ? `the database's migration history is out of order: ${name} is applied, ${names[index]} is not`
          : `the database was migrated by a newer release (${name} is not one of this release's migrations): ` +
              'run that release, or restore a backup taken before it',
      );
    }
  });
  return names.slice(applied.length);
}

async function ensureHistoryTable(db: Db): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK)})`.execute(tx);
    await sql`create table if not exists ${sql.table(MIGRATIONS_TABLE)}
      (name varchar(255) not null primary key, timestamp varchar(255) not null)`.execute(tx);
  });
}

/**
 * One migration and its line of history in one transaction, under the migration lock. Answers false when another
 * run applied it meanwhile: the lock made them take turns.
 */
async function applyOne(db: Db, name: string, migration: Migration): Promise<boolean> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK)})`.execute(tx);
    const done = await sql`select from ${sql.table(MIGRATIONS_TABLE)} where name = ${name}`.execute(tx);
    if (done.rows.length > 0) return false;
    await migration.up(tx);
    await sql`insert into ${sql.table(MIGRATIONS_TABLE)} (name, timestamp)
      values (${name}, to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))`.execute(tx);
    return true;
  });
}
