import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table aggregators (
      id text primary key,
      name text not null,
      created_at timestamptz not null,
      created_by text not null
    )`.execute(db);

  // One row per aggregator, replaced as a whole on each change; version counts the changes.
  await sql`
    create table aggregator_authorizations (
      aggregator_id text primary key references aggregators(id),
      version integer not null,
      enabled boolean not null,
      client_quota integer not null check (client_quota >= 0),
      currencies jsonb not null,
      jurisdictions jsonb not null,
      territories jsonb not null,
      wallet_origins jsonb not null,
      auto_activation boolean not null,
      agreement_ref text not null,
      expires_at timestamptz not null,
      updated_at timestamptz not null,
      updated_by text not null
    )`.execute(db);

  await sql`
    create table aggregator_keys (
      id text primary key,
      aggregator_id text not null references aggregators(id),
      key_hash text not null unique,
      scopes jsonb not null,
      expires_at timestamptz not null,
      revoked_at timestamptz,
      created_at timestamptz not null,
      created_by text not null
    )`.execute(db);

  await sql`
    create table clients (
      id text primary key,
      aggregator_id text not null references aggregators(id),
      external_id text not null,
      name text not null,
      legal_name text not null,
      brand_name text not null,
      currency text not null,
      jurisdiction text not null,
      locale text not null,
      territories jsonb not null,
      embed_origins jsonb not null,
      status text not null check (status in ('suspended', 'active')),
      platform_suspended_at timestamptz,
      config_version integer not null default 1,
      created_at timestamptz not null,
      activated_at timestamptz,
      unique (aggregator_id, external_id)
    )`.execute(db);

  await sql`
    create table tenants (
      id text primary key,
      client_id text references clients(id),
      environment text not null check (environment in ('production', 'sandbox')),
      name text not null,
      currency text not null,
      locale text not null,
      jurisdiction text not null,
      embed_origins jsonb not null default '[]',
      wallet_url text not null,
      wallet_mode text not null default 'seamless' check (wallet_mode in ('seamless')),
      wallet_secret_enc text not null,
      status text not null check (status in ('suspended', 'active')),
      created_at timestamptz not null
    )`.execute(db);
  await sql`create index tenants_client_id on tenants (client_id)`.execute(db);

  await sql`
    create table integration_keys (
      id text primary key,
      tenant_id text not null references tenants(id),
      key_hash text not null unique,
      created_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  // The contract's "one key at a time" is a database fact, not a hope.
  await sql`create unique index integration_keys_one_live on integration_keys (tenant_id) where revoked_at is null`.execute(
    db,
  );

  await sql`
    create table idempotency_records (
      scope text not null,
      idempotency_key text not null,
      credential_id text not null,
      request_hash text not null,
      state text not null check (state in ('in_progress', 'completed')),
      response_status integer,
      response_body_enc text,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      primary key (scope, idempotency_key)
    )`.execute(db);
}
