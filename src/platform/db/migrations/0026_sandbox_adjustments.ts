import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * An adjustment is made by a staff member, or by a sandbox tenant's server through the sandbox controls
 * (docs/sandbox-outcomes.md), which is not staff: `made_by` says which, and `staff_id` names the staff member only
 * when there is one. The casino's server makes it approved at once (no four eyes in a sandbox: nobody there to
 * approve it), and its Idempotency-Key is the tenant's, unique in the tenant (a staff member's is unique per staff
 * member, migration 0021). Adjustments made before this migration were all staff's.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table adjustments
      add column made_by text not null default 'staff' ${oneOf('made_by', ['staff', 'sandbox_server'])},
      alter column staff_id drop not null`.execute(db);
  await sql`alter table adjustments alter column made_by drop default`.execute(db);
  await sql`
    alter table adjustments add constraint adjustments_maker
    check ((made_by = 'staff') = (staff_id is not null)
      and (made_by = 'staff' or (status = 'approved' and decided_by is null)))`.execute(db);
  await sql`
    create unique index adjustments_sandbox_idempotency_key on adjustments (tenant_id, idempotency_key)
    where staff_id is null`.execute(db);
}
