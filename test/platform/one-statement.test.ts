import assert from 'node:assert/strict';
import { after as afterAll, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { after, IncompleteStatementError, writeTogether } from '../../src/platform/db/one-statement.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase();
  await sql`create table probe (name text primary key, n int not null)`.execute(t.db);
});
afterAll(() => t.close());
beforeEach(() => sql`truncate probe`.execute(t.db));

const insert = (name: string, n: number) =>
  sql`insert into probe values (${name}, ${n}) on conflict do nothing returning name, n`;
const names = async () =>
  (await sql<{ name: string }>`select name from probe order by name`.execute(t.db)).rows.map((row) => row.name);

describe('writes of several parts in one statement', () => {
  it('writes every part, and answers the rows each part returned', async () => {
    const written = await writeTogether(t.db, [
      { name: 'first', query: insert('a', 1) },
      { name: 'second', query: insert('b', 2) },
    ]);
    assert.deepEqual(written, { first: [{ name: 'a', n: 1 }], second: [{ name: 'b', n: 2 }] });
    assert.deepEqual(await names(), ['a', 'b']);
  });

  it('a part gated on an earlier one writes only if that one wrote a row', async () => {
    await insert('a', 0).execute(t.db);
    const gated = (name: string) => sql`insert into probe select ${name}, 1 where ${after('first')} returning name`;
    const written = await writeTogether(t.db, [
      { name: 'first', query: insert('a', 1) },
      { name: 'second', query: gated('b') },
    ]);
    assert.deepEqual(written, { first: [], second: [] });
    assert.deepEqual(await names(), ['a']);
  });

  it('a part that does not return the rows it must undoes every part of the statement', async () => {
    await insert('b', 0).execute(t.db);
    const statement = writeTogether(t.db, [
      { name: 'first', query: insert('a', 1) },
      { name: 'second', query: insert('b', 2), rows: 1 },
    ]);
    await assert.rejects(statement, (error: unknown) => {
      assert.ok(error instanceof IncompleteStatementError);
      assert.equal(error.part, 'second');
      return true;
    });
    assert.deepEqual(await names(), ['b'], 'the first part wrote nothing either');
  });

  it('on its own, a statement aborted as a deadlock victim runs again', async () => {
    await sql`create sequence if not exists probe_runs`.execute(t.db);
    await sql`
      create or replace function probe_deadlock_once() returns int language plpgsql as $$
      begin
        if nextval('probe_runs') = 1 then raise exception using errcode = '40P01', message = 'deadlock detected'; end if;
        return 1;
      end $$`.execute(t.db);
    const written = await writeTogether(t.db, [
      { name: 'first', query: sql`insert into probe select 'a', probe_deadlock_once() returning name` },
    ]);
    assert.deepEqual(written, { first: [{ name: 'a' }] });
    assert.deepEqual(await names(), ['a']);
  });

  it('refuses two parts of the same name', async () => {
    await assert.rejects(
      writeTogether(t.db, [
        { name: 'first', query: insert('a', 1) },
        { name: 'first', query: insert('b', 2) },
      ]),
      /names of their own/,
    );
    assert.deepEqual(await names(), []);
  });

  it('a part that returns the rows it must lets the statement write', async () => {
    const written = await writeTogether(t.db, [{ name: 'first', query: insert('a', 1), rows: 1 }]);
    assert.deepEqual(written, { first: [{ name: 'a', n: 1 }] });
  });
});
