import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { preparingPool } from '../../src/platform/db/prepared-statements.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../helpers/database.ts';

// The PostgreSQL pool only: PGlite has no pool and prepares nothing.
const server = process.env.DATABASE_URL;
let url: string;
let db: Kysely<object>;
before(async () => {
  if (!server) return;
  url = await createPostgresDatabase(server);
  // One connection, so every statement below runs on the connection whose prepared statements are read.
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  db = new Kysely({ dialect: new PostgresDialect({ pool: preparingPool(pool, { perConnection: 3, parameters: 4 }) }) });
});
after(async () => {
  if (!server) return;
  await db.destroy();
  await dropPostgresDatabase(url);
});

/** The statements prepared on the connection (read by a statement without parameters, itself never prepared). */
async function prepared(): Promise<string[]> {
  const { rows } = await sql<{
    statement: string;
  }>`select statement from pg_prepared_statements order by prepare_time`.execute(db);
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
