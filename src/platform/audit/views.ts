import type { Clock } from '../clock.ts';
import type { Db } from '../db/database.ts';
import { validationError } from '../errors.ts';
import { tenantFilter } from '../http/permissions.ts';
import { decodeCursor, keysetPage } from '../http/cursor.ts';
import type { StaffCall } from '../http/principals.ts';
import { auditCsv } from './csv.ts';
import { auditErrors } from './errors.ts';
import type { AuditRow } from './log.ts';
import { AUDIT_PAGE, MAX_EXPORT_ROWS, type AuditEntry, type AuditQuery } from './schemas.ts';
import { listAuditEntries, type AuditFilter } from './store.ts';

type AuditViewsDeps = { db: Db; clock: Clock; staffOfTenant: (tenantId: string) => Promise<string[]> };

/**
 * The audit log as staff read it. The platform reads every row (or the rows about one tenant); an operator only
 * the rows about their own tenant: those whose target is the tenant or whose details name it (`tenant_id`), and
 * those its staff accounts made or were the target of (their log-ins, their adjustments, their creation).
 */
export class AuditViews {
  readonly #deps: AuditViewsDeps;

  constructor(deps: AuditViewsDeps) {
    this.#deps = deps;
  }

  async list(
    call: Pick<StaffCall, 'staff'>,
    query: AuditQuery,
  ): Promise<{ entries: AuditEntry[]; nextCursor: string }> {
    const limit = query.limit ?? AUDIT_PAGE;
    const after = query.cursor ? auditCursor(query.cursor) : undefined;
    const filter = await this.#filter(call, query);
    const rows = await listAuditEntries(this.#deps.db, { ...filter, after, order: query.order, limit });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.occurred_at, id: String(row.id) }));
    return { entries: page.map(auditEntry), nextCursor };
  }

  /** Every row the filter matches, in the list's order, as one CSV file; refused when more than MAX_EXPORT_ROWS match. */
  async csv(call: Pick<StaffCall, 'staff'>, query: AuditQuery): Promise<{ filename: string; body: string }> {
    const filter = await this.#filter(call, query);
    const rows = await listAuditEntries(this.#deps.db, { ...filter, order: query.order, limit: MAX_EXPORT_ROWS });
    if (rows.length > MAX_EXPORT_ROWS) {
      throw auditErrors.export_too_large(
        { maxRows: MAX_EXPORT_ROWS },
        `More than ${MAX_EXPORT_ROWS} rows match: narrow the filter (from, to, action, ...).`,
      );
    }
    const stamp = this.#deps.clock
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, 'Z')
      .replace(/[-:]/g, '');
    return { filename: `audit-${stamp}.csv`, body: auditCsv(rows) };
  }

  async #filter(call: Pick<StaffCall, 'staff'>, query: AuditQuery): Promise<Omit<AuditFilter, 'limit'>> {
    const tenantId =
      tenantFilter(call.staff, query.tenantId, 'Operators read the audit log of their own tenant only.') ?? undefined;
    const from = query.from ? new Date(query.from) : undefined;
    const to = query.to ? new Date(query.to) : undefined;
    if (from && to && to <= from) throw validationError('to', 'to must be after from.');
    return {
      actorType: query.actorType,
      actorId: query.actorId,
      action: actionFilter(query.action),
      targetType: query.targetType,
      targetId: query.targetId,
      from,
      to,
      about: tenantId === undefined ? undefined : { tenantId, staffIds: await this.#deps.staffOfTenant(tenantId) },
    };
  }
}

/** `staff.login` is one action; `staff.` or `staff.*` every action under it. */
function actionFilter(action: string | undefined): AuditFilter['action'] {
  if (action === undefined) return undefined;
  if (action.endsWith('*')) return { prefix: action.slice(0, -1) };
  if (action.endsWith('.')) return { prefix: action };
  return { exact: action };
}

function auditCursor(cursor: string): { at: Date; id: number } {
  const { at, id } = decodeCursor(cursor);
  if (!/^[1-9][0-9]{0,15}$/.test(id)) throw validationError('cursor', 'The cursor is not one this API returned.');
  return { at, id: Number(id) };
}

function auditEntry(row: AuditRow): AuditEntry {
  return {
    id: String(row.id),
    occurredAt: row.occurred_at.toISOString(),
    actor: { type: row.actor_type, id: row.actor_id },
    action: row.action,
    target: row.target_type === null ? null : { type: row.target_type, id: row.target_id },
    tenantId: row.tenant_id,
    outcome: row.outcome as AuditEntry['outcome'],
    ip: row.ip,
    details: row.details,
  };
}
