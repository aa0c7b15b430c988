import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { inTransaction, type Db } from '../../src/platform/db/database.ts';
import { preparingPool } from '../../src/platform/db/prepared-statements.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../helpers/database.ts';

// The PostgreSQL pool only: PGlite has no pool and prepares nothing.
const server = process.env.DATABASE_URL;
let url: string;
let db: Kysely<object>;
/**
 * A pool with a listener for its connections' errors, as the service's has: a connection closed after a stale
 * statement may still be closing when the database is dropped, and its error must not stop the test process.
 */
function testPool(max: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
before(async () => {
  if (!server) return;
  url = await createPostgresDatabase(server);
  // One connection, so every statement below runs on the connection whose prepared statements are read.
  const pool = preparingPool(testPool(1), { perConnection: 3, parameters: 4 });
  db = new Kysely({ dialect: new PostgresDialect({ pool }) });
});
after(async () => {
  if (!server) return;
  await db.destroy();
  await dropPostgresDatabase(url);
});

/** The statements prepared on the connection (read by a statement without parameters, itself never prepared). */
async function prepared(on: Kysely<object> = db): Promise<string[]> {
  const { rows } = await sql<{
    statement: string;
  }>`select statement from pg_prepared_statements order by prepare_time`.execute(on);
  return rows.map((row) => row.statement);
}

const value = (n: number) => sql<number>`select ${n}::int + 0 as n`;

describe('prepared statements', { skip: !server && 'PostgreSQL only (set DATABASE_URL)' }, () => {
  it('prepares a statement with parameters once on its connection and runs it by name after that', async () => {
    assert.deepEqual((await value(1).execute(db)).rows, [{ n: 1 }]);
    assert.deepEqual((await value(2).execute(db)).rows, [{ n: 2 }]);
    assert.deepEqual(await prepared(), ['select $1::int + 0 as n']);
  });

  it('runs statements without parameters, and batches above the parameter bound, unprepared', async () => {
    await sql`select 1`.execute(db);
    const batch = await sql<{
      n: number;
    }>`select n from (values ${sql.join([1, 2, 3, 4, 5].map((n) => sql`(${n}::int)`))}) as v(n)`.execute(db);
    assert.equal(batch.rows.length, 5);
    assert.deepEqual(await prepared(), ['select $1::int + 0 as n']);
  });

  it('keeps at most the bound per connection; statements past it still run, unprepared', async () => {
    for (const text of ['a', 'b', 'c', 'd']) {
      assert.deepEqual(
        (await sql<{ t: string }>`select ${text}::text as t, ${text.length}::int as l`.execute(db)).rows,
        [{ t: text, l: 1 }],
      );
    }
    // The four texts are one statement, the second prepared; a third fills the bound, the next runs unprepared.
    await sql`select ${1}::int as a`.execute(db);
    assert.deepEqual((await sql<{ c: number }>`select ${7}::int as c`.execute(db)).rows, [{ c: 7 }]);
    assert.equal((await prepared()).length, 3);
    assert.ok(!(await prepared()).includes('select $1::int as c'));
  });
});

describe(
  'prepared statements a migration made stale',
  { skip: !server && 'PostgreSQL only (set DATABASE_URL)' },
  () => {
    // A pool of its own: the one above has filled its bound of prepared statements.
    let fresh: Kysely<object>;
    const addColumn = (column: string) => sql`alter table stale add column ${sql.raw(column)} int`.execute(fresh);
    const readAll = (q: Kysely<object> = fresh) => sql`select * from stale where a = ${1}`.execute(q);
    const preparedReads = async () => (await prepared(fresh)).filter((text) => text.includes('from stale')).length;

    before(async () => {
      if (!server) return;
      fresh = new Kysely({
        dialect: new PostgresDialect({ pool: preparingPool(testPool(1)) }),
      });
      await sql`create table stale (a int)`.execute(fresh);
      await sql`insert into stale values (1)`.execute(fresh);
    });
    after(() => fresh?.destroy());

    it('outside a transaction: run again unprepared, with the new columns, on a connection then replaced', async () => {
      assert.deepEqual((await readAll()).rows, [{ a: 1 }]);
      assert.equal(await preparedReads(), 1);
      await addColumn('b');
      assert.deepEqual((await readAll()).rows, [{ a: 1, b: null }]);
      assert.equal(await preparedReads(), 0, 'a new connection, with nothing prepared yet');
    });

    it('inside one: the transaction fails, its connection is replaced, and inTransaction runs it again', async () => {
      assert.deepEqual((await readAll()).rows, [{ a: 1, b: null }]);
      await addColumn('c');
      await assert.rejects(
        fresh.transaction().execute((tx) => readAll(tx)),
        (error: { code?: string }) => error.code === '0A000',
      );
      assert.deepEqual((await readAll()).rows, [{ a: 1, b: null, c: null }]);
      await addColumn('d');
      const rows = await inTransaction(fresh as unknown as Db, async (tx) => (await readAll(tx as never)).rows);
      assert.deepEqual(rows, [{ a: 1, b: null, c: null, d: null }]);
    });
  },
);
