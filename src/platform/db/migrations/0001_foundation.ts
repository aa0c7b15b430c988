import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table staff_users (
      id text primary key,
      email text not null unique check (email = lower(email)),
      password_hash text not null,
      role text not null check (role in ('platform_admin', 'trader', 'operator')),
      tenant_id text,
      totp_secret_enc text not null,
      totp_last_step integer not null default 0,
      failed_logins integer not null default 0,
      locked_until timestamptz,
      status text not null default 'active' check (status in ('active', 'disabled')),
      created_at timestamptz not null default now(),
      check ((role = 'operator') = (tenant_id is not null))
    )`.execute(db);

  await sql`
    create table staff_tokens (
      token_hash text primary key,
      staff_id text not null references staff_users(id),
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index staff_tokens_staff_id on staff_tokens (staff_id)`.execute(db);

  await sql`
    create table audit_log (
      id bigserial primary key,
      occurred_at timestamptz not null,
      actor_type text not null,
      actor_id text,
      action text not null,
      target_type text,
      target_id text,
      outcome text not null,
      ip text,
      details jsonb not null default '{}'
    )`.execute(db);
  await sql`create index audit_log_action on audit_log (action, occurred_at)`.execute(db);

  // Append-only is enforced by the database itself, not by convention.
  await sql`
    create function audit_log_is_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_log is append-only';
    end $$`.execute(db);
  await sql`
    create trigger audit_log_append_only before update or delete on audit_log
    for each row execute function audit_log_is_append_only()`.execute(db);
}
