import { sql, type Kysely } from 'kysely';

/**
 * An adjustment's Idempotency-Key belongs to the staff member who sent it, not to the whole tenant: two operators who
 * happen to send the same key each get their own adjustment, where the second used to get the first one's back as a
 * replay and see its own silently lost (as Stripe scopes keys to the account that sent them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table adjustments drop constraint adjustments_tenant_id_idempotency_key_key`.execute(db);
  await sql`
    alter table adjustments
      add constraint adjustments_staff_idempotency_key unique (tenant_id, staff_id, idempotency_key)`.execute(db);
}
