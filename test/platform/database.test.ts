import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { inTransaction, onTransactionEnd } from '../../src/platform/db/database.ts';
import { migrateToLatest, migrator } from '../../src/platform/db/migrate.ts';
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
    await assert.rejects(
      inTransaction(database.db, async (tx) => {
        await sql`insert into sports (id, name) values ('darts', 'Darts')`.execute(tx);
        throw new Error('boom');
      }),
      /boom/,
    );
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
      await assert.rejects(
        inTransaction(database.db, async () => {
          always += 1;
          throw retryable(code);
        }),
        { code },
      );
      assert.equal(always, 3);
    }
  });

  it('does not retry other failures', async () => {
    let runs = 0;
    await assert.rejects(
      inTransaction(database.db, async () => {
        runs += 1;
        throw retryable('23505');
      }),
    );
    assert.equal(runs, 1);
  });
});

describe('onTransactionEnd', () => {
  it('runs a hook once the transaction has committed, when others can see what it wrote', async () => {
    const seen: number[] = [];
    await inTransaction(database.db, async (tx) => {
      await sql`insert into sports (id, name) values ('golf', 'Golf')`.execute(tx);
      onTransactionEnd(tx, () => seen.push(1));
      assert.deepEqual(seen, [], 'not before the commit');
    });
    assert.deepEqual(seen, [1]);
  });

  it('runs it after a rollback too, and a failing hook does not change the transaction outcome', async () => {
    const seen: string[] = [];
    await assert.rejects(
      inTransaction(database.db, async (tx) => {
        onTransactionEnd(tx, () => seen.push('rolled back'));
        throw new Error('boom');
      }),
      /boom/,
    );
    const result = await inTransaction(database.db, async (tx) => {
      onTransactionEnd(tx, () => {
        throw new Error('hook failed');
      });
      return 'committed';
    });
    assert.deepEqual([seen, result], [['rolled back'], 'committed']);
  });

  it('runs at once outside a transaction, and refuses a transaction inTransaction did not open', async () => {
    let ran = false;
    onTransactionEnd(database.db, () => (ran = true));
    assert.equal(ran, true);
    await database.db.transaction().execute(async (tx) => {
      assert.throws(() => onTransactionEnd(tx, () => undefined), /inTransaction/);
    });
  });
});

describe('migration 0006', () => {
  it('keeps refused bets as code and details only, and drops transport reasons players must not see', async () => {
    const old = await createTestDatabase({ migrate: false });
    try {
      await migrator(old.db).migrateTo('0005_catalog_betting');
      await sql`insert into tenants (id, environment, name, currency, locale, jurisdiction, wallet_url,
        wallet_secret_enc, status, created_at) values ('tn_1', 'production', 'Sol', 'BRL', 'pt-BR', 'BR',
        'https://wallet.example', 'x', 'active', now())`.execute(old.db);
      await sql`insert into players (id, tenant_id, external_id, display_name, kyc_status, created_at, updated_at)
        values ('pl_1', 'tn_1', 'p1', 'Player', 'verified', now(), now())`.execute(old.db);
      const refusals = {
        bt_1: { status: 503, code: 'wallet_unavailable', message: 'Not confirmed.', details: { reason: 'timeout' } },
        bt_2: {
          status: 402,
          code: 'payment_rejected',
          message: 'Refused.',
          details: { operatorCode: 'player_blocked' },
        },
        bt_3: { status: 402, code: 'insufficient_funds', message: 'Not enough.' },
      };
      for (const [id, refusal] of Object.entries(refusals)) {
        await sql`insert into bets (id, tenant_id, player_id, request_id, request_hash, status, refusal, stake,
          currency, odds_milli, potential_payout, placed_at) values (${id}, 'tn_1', 'pl_1', ${id}, 'h', 'refused',
          ${JSON.stringify(refusal)}, 100, 'BRL', 2000, 200, now())`.execute(old.db);
      }
      await migrateToLatest(old.db);
      const rows = await old.db.selectFrom('bets').select(['id', 'refusal']).orderBy('id').execute();
      assert.deepEqual(
        rows.map((row) => [row.id, JSON.parse(row.refusal!)]),
        [
          ['bt_1', { code: 'wallet_unavailable' }],
          ['bt_2', { code: 'payment_rejected', details: { operatorCode: 'player_blocked' } }],
          ['bt_3', { code: 'insufficient_funds' }],
        ],
      );
    } finally {
      await old.close();
    }
  });
});

describe('migration 0011', () => {
  it('counts a request as possibly sent wherever an older obligation shows one may have left, and starts every history', async () => {
    const old = await createTestDatabase({ migrate: false });
    try {
      await migrator(old.db).migrateTo('0010_statement_check');
      await sql`insert into tenants (id, environment, name, currency, locale, jurisdiction, wallet_url,
        wallet_secret_enc, status, created_at) values ('tn_1', 'production', 'Sol', 'BRL', 'pt-BR', 'BR',
        'https://wallet.example', 'x', 'active', now())`.execute(old.db);
      await sql`insert into players (id, tenant_id, external_id, display_name, kyc_status, created_at, updated_at)
        values ('pl_1', 'tn_1', 'p1', 'Player', 'verified', now(), now())`.execute(old.db);
      // id, status, hold reason, attempts, a logged call, a live claim
      const rows: Array<[string, string, string | null, number, boolean, boolean]> = [
        ['ob_never', 'pending', null, 0, false, false],
        ['ob_tried', 'pending', null, 2, true, false],
        ['ob_lost_race', 'held', 'refused', 0, true, false],
        ['ob_claimed', 'pending', null, 0, false, true],
        ['ob_superseded', 'held', 'obsolete_credit_requires_review', 0, false, false],
      ];
      for (const [id, status, holdReason, attempts, logged, claimed] of rows) {
        await sql`insert into wallet_obligations (id, tenant_id, player_id, sequence, tx_id, endpoint, wallet_url, kind,
          amount, body, status, hold_reason, attempts, next_attempt_at, created_at, claimed_until)
          values (${id}, 'tn_1', 'pl_1', 1, ${id}, 'credit', 'https://wallet.example', 'adjustment', 100, '{}',
          ${status}, ${holdReason}, ${attempts}, now(), now(), ${claimed ? new Date() : null})`.execute(old.db);
        if (logged) {
          await sql`insert into wallet_calls (tenant_id, obligation_id, tx_id, endpoint, kind, http_status, outcome,
            duration_ms, attempted_at) values ('tn_1', ${id}, ${id}, 'credit', 'adjustment', 200, 'applied', 1, now())`.execute(
            old.db,
          );
        }
      }
      await migrateToLatest(old.db);
      const migrated = await old.db.selectFrom('wallet_obligations').select(['id', 'claims']).orderBy('id').execute();
      assert.deepEqual(
        migrated.map((row) => [row.id, row.claims]),
        [
          ['ob_claimed', 1],
          ['ob_lost_race', 1],
          ['ob_never', 0],
          ['ob_superseded', 1],
          ['ob_tried', 2],
        ],
      );
      const history = await old.db
        .selectFrom('wallet_obligation_history')
        .select(['obligation_id', 'from_status', 'to_status'])
        .orderBy('obligation_id')
        .execute();
      assert.deepEqual(
        history.map((row) => [row.obligation_id, row.from_status, row.to_status]),
        [
          ['ob_claimed', null, 'pending'],
          ['ob_lost_race', null, 'held'],
          ['ob_never', null, 'pending'],
          ['ob_superseded', null, 'held'],
          ['ob_tried', null, 'pending'],
        ],
      );
    } finally {
      await old.close();
    }
  });
});
