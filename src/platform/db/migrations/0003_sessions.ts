import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Set by the first money movement of the tenant; from then on its wallet identity is locked.
  await sql`alter table tenants add column first_financial_at timestamptz`.execute(db);

  await sql`
    create table players (
      id text primary key,
      tenant_id text not null references tenants(id),
      external_id text not null,
      display_name text not null,
      status text not null default 'active' check (status in ('active', 'blocked', 'paused', 'closed')),
      kyc_status text not null,
      created_at timestamptz not null,
      updated_at timestamptz not null,
      unique (tenant_id, external_id)
    )`.execute(db);

  await sql`
    create table player_sessions (
      id text primary key,
      tenant_id text not null references tenants(id),
      player_id text not null references players(id),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      last_activity_at timestamptz not null,
      ended_at timestamptz,
      end_reason text check (end_reason in ('logout', 'idle', 'expired', 'restricted', 'suspended'))
    )`.execute(db);
  await sql`create index player_sessions_player on player_sessions (player_id)`.execute(db);

  // A session has the token its partner server holds and one per launch exchange; only hashes are kept.
  await sql`
    create table session_tokens (
      token_hash text primary key,
      session_id text not null references player_sessions(id),
      issued_to text not null check (issued_to in ('server', 'iframe')),
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index session_tokens_session on session_tokens (session_id)`.execute(db);

  await sql`
    create table launch_tokens (
      token_hash text primary key,
      tenant_id text not null references tenants(id),
      session_id text not null references player_sessions(id),
      created_at timestamptz not null,
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index launch_tokens_expiry on launch_tokens (expires_at)`.execute(db);
}
