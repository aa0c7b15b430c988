import assert from 'node:assert/strict';
import { after as afterAll, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { StatementPart } from '../../src/platform/db/one-statement.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

// The check that a statement compiled once is what a fresh build gives (compiled.ts), as the test command runs it.
process.env.BOOKMAKER_CHECK_COMPILED = '1';
const { after, IncompleteStatementError, writeTogether } = await import('../../src/platform/db/one-statement.ts');
const { columnsOf } = await import('../../src/platform/db/compiled.ts');

let t: TestDatabase;
before(async () => {
  t = await createTestDatabase();
  await sql`create table probe (name text primary key, n int not null)`.execute(t.db);
});
afterAll(() => t.close());
beforeEach(() => sql`truncate probe`.execute(t.db));

/** A part inserting one probe row: its text is its shape's, its values are the run's. */
const insert = (part: string, name: string, n: number, rows?: number): StatementPart => ({
  name: part,
  shape: 'insert into probe',
  build: (_db, slot) =>
    sql`insert into probe values (${slot('name')}, ${slot('n')}) on conflict do nothing returning name, n`,
  values: { name, n },
  ...(rows === undefined ? {} : { rows }),
});
const names = async () =>
  (await sql<{ name: string }>`select name from probe order by name`.execute(t.db)).rows.map((row) => row.name);

describe('writes of several parts in one statement', () => {
  it('writes every part, and answers the rows each part returned', async () => {
    const written = await writeTogether(t.db, [insert('first', 'a', 1), insert('second', 'b', 2)]);
    assert.deepEqual(written, { first: [{ name: 'a', n: 1 }], second: [{ name: 'b', n: 2 }] });
    assert.deepEqual(await names(), ['a', 'b']);
  });

  it('a part gated on an earlier one writes only if that one wrote a row', async () => {
    await writeTogether(t.db, [insert('first', 'a', 0)]);
    const gated: StatementPart = {
      name: 'second',
      shape: 'gated insert into probe',
      build: (_db, slot) => sql`insert into probe select ${slot('name')}, 1 where ${after('first')} returning name`,
      values: { name: 'b' },
    };
    const written = await writeTogether(t.db, [insert('first', 'a', 1), gated]);
    assert.deepEqual(written, { first: [], second: [] });
    assert.deepEqual(await names(), ['a']);
  });

  it('a part that does not return the rows it must undoes every part of the statement', async () => {
    await writeTogether(t.db, [insert('first', 'b', 0)]);
    const statement = writeTogether(t.db, [insert('first', 'a', 1), insert('second', 'b', 2, 1)]);
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
      {
        name: 'first',
        shape: 'insert into probe, deadlocked once',
        build: (_db, slot) => sql`insert into probe select ${slot('name')}, probe_deadlock_once() returning name`,
        values: { name: 'a' },
      },
    ]);
    assert.deepEqual(written, { first: [{ name: 'a' }] });
    assert.deepEqual(await names(), ['a']);
  });

  it('refuses two parts of the same name', async () => {
    await assert.rejects(writeTogether(t.db, [insert('first', 'a', 1), insert('first', 'b', 2)]), /names of their own/);
    assert.deepEqual(await names(), []);
  });

  it('a part that returns the rows it must lets the statement write', async () => {
    const written = await writeTogether(t.db, [insert('first', 'a', 1, 1)]);
    assert.deepEqual(written, { first: [{ name: 'a', n: 1 }] });
  });
});

describe('a statement compiled once per shape', () => {
  it("runs again with each run's values bound to its slots", async () => {
    for (const [name, n] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      assert.deepEqual(await writeTogether(t.db, [insert('first', name, n)]), { first: [{ name, n }] });
    }
    assert.deepEqual(await names(), ['a', 'b', 'c']);
  });

  it('refuses a run that leaves a slot without a value, before anything is sent', async () => {
    const missing = { ...insert('first', 'a', 1), values: { name: 'a' } };
    await assert.rejects(writeTogether(t.db, [missing]), /no value for its slot "first.n"/);
    assert.deepEqual(await names(), []);
  });

  it('fails a builder whose text depends on more than its shape (the check of the test runs)', async () => {
    const dataInText = (name: string): StatementPart => ({
      name: 'first',
      shape: 'insert into probe, a name in the text',
      build: () => sql`insert into probe values (${sql.lit(name)}, 1) returning name`,
      values: {},
    });
    await writeTogether(t.db, [dataInText('a')]);
    await assert.rejects(writeTogether(t.db, [dataInText('b')]), /depend on more than its shape/);
    assert.deepEqual(await names(), ['a'], 'the second run was not sent');
  });

  it('gives a row the columns Kysely would write: one whose value is undefined is left out, null is written', () => {
    assert.deepEqual(columnsOf({ status: 'accepted', decided_at: undefined, refusal: null }), ['status', 'refusal']);
  });
});
