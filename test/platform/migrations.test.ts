import assert from 'node:assert/strict';
import { after, beforeEach, describe, it } from 'node:test';
import { Migrator, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from '../../src/platform/db/database.ts';
import { migrateToLatest, MigrationsInterrupted } from '../../src/platform/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/** Migrations of a schema of their own, so that each test starts from nothing. */
function provider(migrations: Record<string, Migration>): MigrationProvider {
  return { getMigrations: () => Promise.resolve(migrations) };
}

const createTable = (name: string): Migration => ({
  up: async (db: Kysely<any>) => {
    await sql`create table ${sql.table(name)} (id int primary key)`.execute(db);
  },
});

const THREE = {
  t1_first: createTable('t_first'),
  t2_second: createTable('t_second'),
  t3_third: createTable('t_third'),
};

async function tables(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`
    select tablename as name from pg_tables where schemaname = 'public' and tablename like 't\\_%'
    order by tablename`.execute(db);
  return rows.map((row) => row.name);
}

async function recorded(db: Db): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(db);
  return rows.map((row) => row.name);
}

let database: TestDatabase;
beforeEach(async () => {
  await database?.close();
  database = await createTestDatabase({ migrate: false });
});
after(() => database.close());

describe('migrations: each in a transaction of its own', () => {
  it('applies every pending migration in order, saying each one as it starts', async () => {
    const pending: string[][] = [];
    const applying: string[] = [];
    const applied = await migrateToLatest(database.db, {
      provider: provider(THREE),
      pending: (names) => pending.push(names),
      applying: (name) => applying.push(name),
    });
    assert.deepEqual(applied, ['t1_first', 't2_second', 't3_third']);
    assert.deepEqual(pending, [['t1_first', 't2_second', 't3_third']]);
    assert.deepEqual(applying, ['t1_first', 't2_second', 't3_third']);
    assert.deepEqual(await migrateToLatest(database.db, { provider: provider(THREE) }), [], 'up to date');
  });

  it('a migration that fails mid-way leaves no part of itself, and those before it stay applied', async () => {
    const failing: Migration = {
      up: async (db: Kysely<any>) => {
        await sql`create table t_half (id int primary key)`.execute(db);
        await sql`insert into t_missing values (1)`.execute(db);
      },
    };
    const migrations = { t1_first: THREE.t1_first, t2_half: failing, t3_third: THREE.t3_third };
    await assert.rejects(migrateToLatest(database.db, { provider: provider(migrations) }), /t_missing/);
    assert.deepEqual(await tables(database.db), ['t_first'], 't_half was rolled back with its migration');
    assert.deepEqual(await recorded(database.db), ['t1_first']);
  });

  it('a stop lets the migration under way finish, starts no other, and says what is applied', async () => {
    const stop = new AbortController();
    const run = migrateToLatest(database.db, {
      provider: provider(THREE),
      applying: (name) => {
        if (name === 't2_second') stop.abort();
      },
      signal: stop.signal,
    });
    await assert.rejects(run, (error: unknown) => {
      assert.ok(error instanceof MigrationsInterrupted);
      assert.equal(
        error.message,
        'stopped during migrations: t1_first, t2_second applied, t3_third not applied; the database is ' +
          'consistent; run again to continue',
      );
      assert.deepEqual(error.applied, ['t1_first', 't2_second']);
      assert.deepEqual(error.notApplied, ['t3_third']);
      return true;
    });
    assert.deepEqual(await tables(database.db), ['t_first', 't_second']);
    assert.deepEqual(await migrateToLatest(database.db, { provider: provider(THREE) }), ['t3_third'], 'run again');
  });

  it('a stop before the first migration applies none, and names the first as not applied "and later"', async () => {
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(migrateToLatest(database.db, { provider: provider(THREE), signal: stop.signal }), {
      name: 'MigrationsInterrupted',
      message:
        'stopped during migrations: none applied, t1_first and later not applied; the database is consistent; ' +
        'run again to continue',
    });
    assert.deepEqual(await tables(database.db), []);
  });

  it('a database a newer release migrated is refused, naming the migration this release does not know', async () => {
    const newer = { ...THREE, t4_newer: createTable('t_newer') };
    await migrateToLatest(database.db, { provider: provider(newer) });
    await assert.rejects(migrateToLatest(database.db, { provider: provider(THREE) }), {
      message:
        "the database was migrated by a newer release (t4_newer is not one of this release's migrations): run " +
        'that release, or restore a backup taken before it',
    });
  });

  it('two runs at once take turns: each migration is applied once, by one of them', async () => {
    const runs = await Promise.all([
      migrateToLatest(database.db, { provider: provider(THREE) }),
      migrateToLatest(database.db, { provider: provider(THREE) }),
    ]);
    assert.deepEqual(runs.flat().sort(), ['t1_first', 't2_second', 't3_third']);
    assert.deepEqual(await recorded(database.db), ['t1_first', 't2_second', 't3_third']);
  });

  it('the history is the one Kysely keeps: a database its Migrator began is continued, and the reverse', async () => {
    await migrateToLatest(database.db, { provider: provider({ t1_first: THREE.t1_first }) });
    const kysely = new Migrator({
      db: database.db,
      provider: provider({ t1_first: THREE.t1_first, t2_second: THREE.t2_second }),
    });
    assert.equal((await kysely.migrateToLatest()).error, undefined);
    assert.deepEqual(await migrateToLatest(database.db, { provider: provider(THREE) }), ['t3_third']);
    assert.deepEqual(await tables(database.db), ['t_first', 't_second', 't_third']);
  });
});
