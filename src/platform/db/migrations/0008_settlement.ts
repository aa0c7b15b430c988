import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * Money after the stake: results and settlement versions, cash-outs, adjustments, and the delivery engine's claims.
 * Lists are written out (a migration is history); test/platform/schema.test.ts keeps them equal to the constants.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const results = ['won', 'lost', 'void', 'half_won', 'half_lost'];

  // A market's results, and how many times they were set (1 = settled, 2 and more = resettled).
  await sql`alter table markets add column settlement_version integer not null default 0`.execute(db);
  await sql`alter table markets add column settled_at timestamptz`.execute(db);
  await sql`alter table selections add column result text`.execute(db);
  await sql`alter table selections add constraint selections_result_check ${oneOf('result', results)}`.execute(db);

  await sql`alter table bet_legs add column result text`.execute(db);
  await sql`alter table bet_legs add constraint bet_legs_result_check ${oneOf('result', results)}`.execute(db);
  await sql`create index bet_legs_market on bet_legs (market_id)`.execute(db);

  const betStates = [
    'pending',
    'accepted',
    'refused',
    'partially_cashed_out',
    'won',
    'lost',
    'void',
    'half_won',
    'half_lost',
    'cashed_out',
  ];
  await sql`alter table bets drop constraint bets_status_check`.execute(db);
  await sql`alter table bets add constraint bets_status_check ${oneOf('status', betStates)}`.execute(db);
  await sql`
    alter table bets
      add column cashed_out_stake bigint not null default 0,
      add column settled_version integer not null default 0,
      add column settled_return bigint,
      add column settled_at timestamptz,
      add constraint bets_cashed_out_stake_check check (cashed_out_stake >= 0 and cashed_out_stake <= stake)`.execute(
    db,
  );
  await sql`create index bets_status on bets (status)`.execute(db);

  await sql`
    create table cashouts (
      id text primary key,
      bet_id text not null references bets(id),
      request_id text not null,
      number integer not null,
      stake bigint not null check (stake > 0),
      amount bigint not null check (amount > 0),
      closes_bet boolean not null,
      created_at timestamptz not null,
      unique (bet_id, request_id),
      unique (bet_id, number)
    )`.execute(db);

  // The ledger: who owes (the player, by our id), the delivery engine's claim, and an operator's review.
  const holdReasons = [
    'refused',
    'refused_address',
    'destination_changed',
    'obsolete_credit_requires_review',
    'obsolete_debit_requires_review',
    'correction_insufficient_funds',
  ];
  const kinds = ['bet', 'payout', 'refund', 'cashout', 'resettle', 'rollback', 'adjustment'];
  await sql`alter table wallet_obligations add column player_id text`.execute(db);
  await sql`
    update wallet_obligations o set player_id = b.player_id from bets b where b.id = o.bet_id`.execute(db);
  await sql`alter table wallet_obligations alter column player_id set not null`.execute(db);
  await sql`
    alter table wallet_obligations
      add column claimed_until timestamptz,
      add column reviewed_by text,
      add column review_reason text`.execute(db);
  await sql`alter table wallet_obligations drop constraint wallet_obligations_hold_reason_check`.execute(db);
  await sql`alter table wallet_obligations add constraint wallet_obligations_hold_reason_check ${oneOf('hold_reason', holdReasons)}`.execute(
    db,
  );
  await sql`alter table wallet_obligations add constraint wallet_obligations_kind_check ${oneOf('kind', kinds)}`.execute(
    db,
  );
  await sql`create index wallet_obligations_player on wallet_obligations (player_id, created_at)`.execute(db);
  await sql`create index wallet_obligations_tenant on wallet_obligations (tenant_id, created_at)`.execute(db);
  await sql`create index wallet_obligations_applied on wallet_obligations (tenant_id, resolved_at)`.execute(db);
  await sql`create index wallet_calls_obligation on wallet_calls (obligation_id, attempted_at)`.execute(db);

  await sql`
    create table adjustments (
      id text primary key,
      tenant_id text not null references tenants(id),
      player_id text not null references players(id),
      direction text not null ${oneOf('direction', ['credit', 'debit'])},
      amount bigint not null check (amount > 0),
      reason text not null,
      staff_id text not null,
      idempotency_key text not null,
      request_hash text not null,
      obligation_id text not null references wallet_obligations(id),
      created_at timestamptz not null,
      unique (tenant_id, idempotency_key)
    )`.execute(db);
  await sql`create index adjustments_player on adjustments (player_id, created_at)`.execute(db);
}
