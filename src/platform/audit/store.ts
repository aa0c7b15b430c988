import type { Queryable } from '../db/database.ts';
import type { AuditLogTable } from '../db/schema.ts';
import type { Insertable } from 'kysely';

export async function insertAuditEntry(q: Queryable, entry: Insertable<AuditLogTable>): Promise<void> {
  await q.insertInto('audit_log').values(entry).execute();
}
