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

/**
 * The rows as CSV (RFC 4180: comma-separated, CRLF line ends, a header line). A cell a spreadsheet would read as a
 * formula (starting with =, +, -, @, a tab or a carriage return) is neutralised with a leading apostrophe; a cell
 * holding a comma, a quote or a line break is quoted, its quotes doubled. `details` is the row's JSON.
 */
export function auditCsv(rows: AuditRow[]): string {
  const lines = [COLUMNS.join(',')];
  for (const row of rows) {
    const cells: Array<string | null> = [
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
    ];
    lines.push(cells.map(csvCell).join(','));
  }
  return lines.join('\r\n') + '\r\n';
}

function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
