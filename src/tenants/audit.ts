import type { AuditLog } from '../platform/audit/log.ts';
import type { Tx } from '../platform/db/database.ts';
import type { StaffCall } from '../platform/http/principals.ts';

/** Every staff change to a tenant (settings, credentials) is audited in the transaction that makes it. */
export function recordTenantChange(
  audit: AuditLog,
  tx: Tx,
  call: StaffCall,
  action: string,
  tenantId: string,
  details: Record<string, unknown>,
) {
  return audit.record(tx, {
    actor: { type: 'staff', id: call.staff.id },
    action,
    target: { type: 'tenant', id: tenantId },
    outcome: 'success',
    ip: call.ip,
    details,
  });
}
