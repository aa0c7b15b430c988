import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * Operator adjustments get bounds and four eyes: each tenant has a maximum single adjustment and a threshold above
 * which a second staff member must approve it. An adjustment above the threshold is `proposed` and owes nothing
 * until another staff member approves it (then its obligation is owed) or rejects it. Adjustments made before this
 * migration were owed at once: they are `approved`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table tenants
      add column max_adjustment bigint not null default 1000000 check (max_adjustment > 0),
      add column adjustment_approval_above bigint not null default 100000 check (adjustment_approval_above >= 0)`.execute(
    db,
  );
  await sql`
    alter table adjustments
      add column status text not null default 'approved' ${oneOf('status', ['proposed', 'approved', 'rejected'])},
      add column decided_by text references staff_users(id),
      add column decided_at timestamptz,
      add column decision_reason text,
      alter column obligation_id drop not null`.execute(db);
  await sql`alter table adjustments alter column status drop default`.execute(db);
  // Money is owed exactly when an adjustment is approved; a decision is never its proposer's, and a rejection is
  // always someone's.
  await sql`
    alter table adjustments add constraint adjustments_owed_when_approved
    check ((status = 'approved') = (obligation_id is not null))`.execute(db);
  await sql`
    alter table adjustments add constraint adjustments_four_eyes
    check ((decided_by is null or decided_by <> staff_id)
      and (status <> 'rejected' or decided_by is not null)
      and (status <> 'proposed' or decided_by is null))`.execute(db);
  await sql`create index adjustments_proposed on adjustments (tenant_id, created_at) where status = 'proposed'`.execute(
    db,
  );
}
