import { sql, type Kysely } from 'kysely';

/**
 * What the staff console needs:
 * - Staff enrol their authenticator at first sign-in. `totp_secret_enc` is null until then (and again after a
 *   reset); `totp_enrolled_at` says when. The pending enrolment of an account is one at a time: the hash of its
 *   single-use token, its fresh secret (encrypted) and its expiry, all three set or none. Accounts created before
 *   this migration were enrolled when created.
 * - `last_login_at` for the accounts list.
 * - Staff tokens end after 30 minutes without a request: `last_used_at`, written at most once a minute. Tokens
 *   live at this migration count as used now, so an upgrade does not end every open session.
 * - Aggregator keys: when each was last used (at most once a minute) and the first characters of the key, to tell
 *   keys apart without showing them; keys issued before this migration have no prefix.
 * - The audit log: the tenant a row is about (its target when that is a tenant, else `details.tenantId`), computed
 *   by the database so that rows written before stay readable the same way, and indexes for the newest-first pages
 *   and their filters. Computing it needs no UPDATE, which the append-only trigger would refuse.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table staff_users
      alter column totp_secret_enc drop not null,
      add column totp_enrolled_at timestamptz,
      add column enrolment_token_hash text unique,
      add column enrolment_secret_enc text,
      add column enrolment_expires_at timestamptz,
      add column last_login_at timestamptz`.execute(db);
  await sql`update staff_users set totp_enrolled_at = created_at`.execute(db);
  await sql`
    alter table staff_users
      add constraint staff_users_enrolled_has_secret check ((totp_enrolled_at is null) = (totp_secret_enc is null)),
      add constraint staff_users_enrolment_whole check (
        (enrolment_token_hash is null) = (enrolment_secret_enc is null)
        and (enrolment_token_hash is null) = (enrolment_expires_at is null))`.execute(db);

  await sql`alter table staff_tokens add column last_used_at timestamptz`.execute(db);
  await sql`update staff_tokens set last_used_at = greatest(created_at, now())`.execute(db);
  await sql`alter table staff_tokens alter column last_used_at set not null`.execute(db);

  await sql`
    alter table aggregator_keys
      add column key_prefix text,
      add column last_used_at timestamptz`.execute(db);

  await sql`
    alter table audit_log
      add column tenant_id text generated always as (
        case when target_type = 'tenant' then target_id else details ->> 'tenantId' end
      ) stored`.execute(db);
  await sql`create index audit_log_newest on audit_log (occurred_at desc, id desc)`.execute(db);
  await sql`
    create index audit_log_tenant on audit_log (tenant_id, occurred_at desc, id desc)
    where tenant_id is not null`.execute(db);
  await sql`create index audit_log_actor on audit_log (actor_type, actor_id, occurred_at desc)`.execute(db);
  await sql`create index audit_log_target on audit_log (target_type, target_id, occurred_at desc)`.execute(db);
}
