import type { StaffView } from './schemas.ts';
import type { StaffUser } from './tables.ts';

/** A staff account as the admin API shows it: never its password hash, TOTP secret or pending enrolment. */
export function staffView(row: StaffUser, now: Date): StaffView {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    tenantId: row.tenant_id,
    status: row.status,
    enrolled: row.totp_enrolled_at !== null,
    enrolledAt: row.totp_enrolled_at?.toISOString() ?? null,
    lockedUntil: row.locked_until && row.locked_until > now ? row.locked_until.toISOString() : null,
    createdAt: row.created_at.toISOString(),
    lastLoginAt: row.last_login_at?.toISOString() ?? null,
  };
}
