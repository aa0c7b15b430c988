import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { inTransaction } from '../../src/platform/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

let database: TestDatabase;
before(async () => (database = await createTestDatabase()));
after(() => database.close());

const retryable = (code: string) => Object.assign(new Error(`aborted (${code})`), { code });

describe('inTransaction', () => {
  it('commits the work and returns its result', async () => {
    const result = await inTransaction(database.db, async (tx) => {
      await sql`insert into sports (id, name) values ('chess', 'Chess')`.execute(tx);
      return 'done';
    });
    assert.equal(result, 'done');
    assert.equal((await database.db.selectFrom('sports').select('id').where('id', '=', 'chess').execute()).length, 1);
  });

  it('rolls everything back when the work throws', async () => {
    await assert.rejects(inTransaction(database.db, async (tx) => {
      await sql`insert into sports (id, name) values ('darts', 'Darts')`.execute(tx);
      throw new Error('boom');
    }), /boom/);
    assert.equal((await database.db.selectFrom('sports').select('id').where('id', '=', 'darts').execute()).length, 0);
  });

  it('runs a deadlock victim or serialization failure again, at most three times in all', async () => {
    for (const code of ['40P01', '40001']) {
      let runs = 0;
      const result = await inTransaction(database.db, async () => {
        runs += 1;
        if (runs < 3) throw retryable(code);
        return runs;
      });
      assert.equal(result, 3);
      let always = 0;
      await assert.rejects(inTransaction(database.db, async () => {
        always += 1;
        throw retryable(code);
      }), { code });
      assert.equal(always, 3);
    }
  });

  it('does not retry other failures', async () => {
    let runs = 0;
    await assert.rejects(inTransaction(database.db, async () => {
      runs += 1;
      throw retryable('23505');
    }));
    assert.equal(runs, 1);
  });
});
