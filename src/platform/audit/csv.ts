import { toCsv } from '../http/csv.ts';
import type { AuditRow } from './log.ts';

const COLUMNS = [
  'id',
  'occurredAt',
  'actorType',
  'actorId',
  'action',
  'targetType',
  'targetId',
  'tenantId',
  'outcome',
  'ip',
  'details',
] as const;

/** The rows as CSV (platform/http/csv.ts: formulas neutralised, quoted as needed); `details` is the row's JSON. */
export function auditCsv(rows: AuditRow[]): string {
  const lines: Array<ReadonlyArray<string | null>> = [COLUMNS];
  for (const row of rows) {
    lines.push([
      String(row.id),
      row.occurred_at.toISOString(),
      row.actor_type,
      row.actor_id,
      row.action,
      row.target_type,
      row.target_id,
      row.tenant_id,
      row.outcome,
      row.ip,
      JSON.stringify(row.details),
    ]);
  }
  return toCsv(lines);
}
