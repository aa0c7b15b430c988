import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table sports (
      id text primary key,
      name text not null,
      sort_order integer not null default 0
    )`.execute(db);

  await sql`
    create table competitions (
      id text primary key,
      sport_id text not null references sports(id),
      name text not null,
      country text not null
    )`.execute(db);

  await sql`
    create table events (
      id text primary key,
      competition_id text not null references competitions(id),
      home text not null,
      away text not null,
      starts_at timestamptz not null,
      status text not null check (status in ('scheduled', 'live', 'finished', 'cancelled')),
      score_home integer,
      score_away integer,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index events_competition on events (competition_id, starts_at)`.execute(db);

  // Lines (2.5 goals, -1.5 handicap) and odds are integers in thousandths: exact, never binary floats.
  await sql`
    create table markets (
      id text primary key,
      event_id text not null references events(id),
      type text not null check (type in ('match_result', 'moneyline', 'totals', 'handicap', 'both_teams_to_score', 'correct_score')),
      line_milli integer,
      name text not null,
      status text not null check (status in ('open', 'suspended', 'closed', 'settled')),
      sort_order integer not null default 0,
      updated_at timestamptz not null
    )`.execute(db);
  await sql`create index markets_event on markets (event_id)`.execute(db);

  await sql`
    create table selections (
      id text primary key,
      market_id text not null references markets(id),
      name text not null,
      outcome text not null,
      odds_milli integer not null check (odds_milli > 1000),
      odds_version integer not null default 1,
      sort_order integer not null default 0
    )`.execute(db);
  await sql`create index selections_market on selections (market_id)`.execute(db);

  // Per-tenant betting limits, in minor units of the tenant currency.
  await sql`
    alter table tenants
      add column min_stake bigint not null default 100,
      add column max_stake bigint not null default 1000000,
      add column max_payout bigint not null default 50000000,
      add column max_selection_liability bigint not null default 20000000,
      add column max_event_liability bigint not null default 50000000`.execute(db);

  await sql`
    create table bets (
      id text primary key,
      tenant_id text not null references tenants(id),
      player_id text not null references players(id),
      request_id text not null,
      request_hash text not null,
      status text not null check (status in ('pending', 'accepted', 'refused')),
      refusal text,
      stake bigint not null check (stake > 0),
      currency text not null,
      odds_milli bigint not null,
      potential_payout bigint not null,
      placed_at timestamptz not null,
      decided_at timestamptz,
      unique (player_id, request_id)
    )`.execute(db);
  await sql`create index bets_player on bets (player_id, placed_at)`.execute(db);

  await sql`
    create table bet_legs (
      bet_id text not null references bets(id),
      position integer not null,
      selection_id text not null references selections(id),
      market_id text not null,
      event_id text not null,
      odds_milli integer not null,
      odds_version integer not null,
      primary key (bet_id, position)
    )`.execute(db);

  // Capacity reserved by a bet, so that exactly what was reserved is released if the stake is refused.
  await sql`
    create table exposure (
      tenant_id text not null references tenants(id),
      scope text not null check (scope in ('selection', 'event')),
      ref_id text not null,
      reserved bigint not null check (reserved >= 0),
      primary key (tenant_id, scope, ref_id)
    )`.execute(db);
  await sql`
    create table bet_exposure (
      bet_id text not null references bets(id),
      scope text not null,
      ref_id text not null,
      amount bigint not null,
      released_at timestamptz,
      primary key (bet_id, scope, ref_id)
    )`.execute(db);

  // The ledger of obligations: every movement is a row first (exact body text), a wallet call second.
  await sql`
    create table wallet_obligations (
      id text primary key,
      tenant_id text not null references tenants(id),
      bet_id text references bets(id),
      sequence integer not null,
      tx_id text not null unique,
      endpoint text not null check (endpoint in ('debit', 'credit', 'rollback')),
      wallet_url text not null,
      kind text not null,
      amount bigint not null check (amount >= 0),
      body text not null,
      -- sending: a stake debit on its one attempt; pending: owed, to be (re)delivered by the engine
      status text not null check (status in ('sending', 'pending', 'applied', 'refused', 'unknown', 'failed')),
      attempts integer not null default 0,
      last_outcome text,
      operator_code text,
      next_attempt_at timestamptz not null,
      created_at timestamptz not null,
      resolved_at timestamptz,
      unique (bet_id, sequence)
    )`.execute(db);
  await sql`create index wallet_obligations_due on wallet_obligations (status, next_attempt_at)`.execute(db);

  await sql`
    create table wallet_calls (
      id bigserial primary key,
      tenant_id text not null,
      obligation_id text,
      tx_id text not null,
      endpoint text not null,
      kind text not null,
      http_status integer,
      outcome text not null,
      reason text,
      operator_code text,
      duration_ms integer not null,
      attempted_at timestamptz not null
    )`.execute(db);
  await sql`create index wallet_calls_tx on wallet_calls (tx_id)`.execute(db);
}
