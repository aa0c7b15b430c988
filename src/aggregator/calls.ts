import type { AuditLog } from '../platform/audit/log.ts';
import type { Db, Tx } from '../platform/db/database.ts';
import type { AggregatorPrincipal, StaffCall } from '../platform/http/principals.ts';
import type { IdempotencyScope } from '../platform/idempotency/service.ts';

// How the calls that change aggregators and clients are scoped for idempotency and written to the audit trail.

/** What a POST of the aggregator API carries besides its body: its Idempotency-Key and the caller's address. */
export interface IdempotentCall {
  key: string;
  ip: string;
}

/** A key is scoped to its aggregator and bound to the API key that sent it, the operation and the body. */
export function idempotencyScope(
  principal: AggregatorPrincipal,
  call: IdempotentCall,
  operation: string,
  body: unknown,
): IdempotencyScope {
  return {
    scope: `aggregator:${principal.aggregatorId}`,
    key: call.key,
    credentialId: principal.keyId,
    operation,
    body,
  };
}

/** Every aggregator action is audited with the key that made it. */
export function recordAggregatorAction(
  audit: AuditLog,
  q: Db | Tx,
  principal: AggregatorPrincipal,
  call: IdempotentCall,
  action: string,
  target: { type: string; id: string },
  outcome: 'success' | 'failure',
  details: Record<string, unknown>,
) {
  return audit.record(q, {
    actor: { type: 'aggregator', id: principal.aggregatorId },
    action,
    target,
    outcome,
    ip: call.ip,
    details: { keyId: principal.keyId, ...details },
  });
}

/** Every platform action on an aggregator or a client is audited with the staff member who made it. */
export function recordStaffAction(
  audit: AuditLog,
  tx: Tx,
  call: StaffCall,
  action: string,
  target: { type: 'aggregator' | 'client'; id: string },
  details: Record<string, unknown>,
) {
  return audit.record(tx, {
    actor: { type: 'staff', id: call.staff.id },
    action,
    target,
    outcome: 'success',
    ip: call.ip,
    details,
  });
}
