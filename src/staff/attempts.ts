import type { AuditLog } from '../platform/audit/log.ts';
import type { Db } from '../platform/db/database.ts';
import { staffErrors } from './errors.ts';
import * as store from './store.ts';
import type { StaffUser } from './tables.ts';

export const LOGIN_FAILURE_LIMIT = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

/** A sign-in or enrolment attempt, as the audit trail records it. */
export type Attempt = { actor: { type: 'anonymous' }; action: string; ip: string };

/** Counts the attempt before anything is checked; a locked account is refused (429) and the refusal audited. */
export async function reserveAttempt(
  deps: { db: Db; audit: AuditLog },
  staff: StaffUser,
  now: Date,
  attempt: Attempt,
): Promise<void> {
  const lockUntil = new Date(now.getTime() + LOCKOUT_MS);
  if (await store.reserveLoginAttempt(deps.db, staff.id, now, LOGIN_FAILURE_LIMIT, lockUntil)) return;
  const current = await store.findStaff(deps.db, staff.id);
  await deps.audit.record(deps.db, {
    ...attempt,
    target: { type: 'staff', id: staff.id },
    outcome: 'denied',
    details: { reason: 'locked' },
  });
  throw accountLocked(current?.locked_until ?? lockUntil, now);
}

export function invalidCredentials() {
  return staffErrors.invalid_credentials();
}

function accountLocked(until: Date, now: Date) {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return staffErrors.account_locked(
    { retryAfterSeconds },
    'Too many failed log-ins: the account is locked for a while.',
  );
}
