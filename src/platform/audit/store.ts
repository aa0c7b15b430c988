import { sql, type Insertable } from 'kysely';
import type { Queryable } from '../db/database.ts';
import type { AuditLogTable } from '../db/schema.ts';
import { pageInTimeOrder, type TimePage } from '../db/paging.ts';

export async function insertAuditEntry(q: Queryable, entry: Insertable<AuditLogTable>): Promise<void> {
  await q.insertInto('audit_log').values(entry).execute();
}

export interface AuditFilter extends TimePage {
  actorType?: string | undefined;
  actorId?: string | undefined;
  /** One action, or every action that starts with the prefix. */
  action?: { exact: string } | { prefix: string } | undefined;
  targetType?: string | undefined;
  targetId?: string | undefined;
  /** Any of these targets (a client's history: the client and its tenants). */
  targets?: Array<{ type: string; ids: string[] }> | undefined;
  /** Inclusive. */
  from?: Date | undefined;
  /** Exclusive. */
  to?: Date | undefined;
  /** Rows about a tenant: its own (tenant_id), and those its staff accounts made or were the target of. */
  about?: { tenantId: string; staffIds: string[] } | undefined;
}

/** One page in time order (newest first unless asked) after the cursor's row, and one more row to tell if more exist. */
export function listAuditEntries(q: Queryable, filter: AuditFilter) {
  let query = q.selectFrom('audit_log').selectAll();
  if (filter.actorType) query = query.where('actor_type', '=', filter.actorType);
  if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
  if (filter.action && 'exact' in filter.action) query = query.where('action', '=', filter.action.exact);
  if (filter.action && 'prefix' in filter.action) {
    query = query.where(sql<boolean>`starts_with(action, ${filter.action.prefix})`);
  }
  if (filter.targetType) query = query.where('target_type', '=', filter.targetType);
  if (filter.targetId) query = query.where('target_id', '=', filter.targetId);
  const targets = filter.targets?.filter((target) => target.ids.length > 0);
  if (targets) {
    query = query.where((eb) =>
      eb.or(targets.map((target) => eb.and([eb('target_type', '=', target.type), eb('target_id', 'in', target.ids)]))),
    );
  }
  if (filter.from) query = query.where('occurred_at', '>=', filter.from);
  if (filter.to) query = query.where('occurred_at', '<', filter.to);
  const about = filter.about;
  if (about) {
    query = query.where((eb) =>
      eb.or([
        eb('tenant_id', '=', about.tenantId),
        ...(about.staffIds.length > 0
          ? [
              eb.and([eb('actor_type', '=', 'staff'), eb('actor_id', 'in', about.staffIds)]),
              eb.and([eb('target_type', '=', 'staff'), eb('target_id', 'in', about.staffIds)]),
            ]
          : []),
      ]),
    );
  }
  return pageInTimeOrder(query, 'occurred_at', filter).execute();
}
