import type { Queryable } from '../platform/db/database.ts';
import type { NewStaffUser, StaffUser } from './tables.ts';

export async function insertStaff(q: Queryable, staff: NewStaffUser): Promise<void> {
  await q.insertInto('staff_users').values(staff).execute();
}

export function findStaffByEmail(q: Queryable, email: string): Promise<StaffUser | undefined> {
  return q.selectFrom('staff_users').selectAll().where('email', '=', email).executeTakeFirst();
}

/**
 * Reserves one login attempt before the credentials are checked, in one statement: an attempt is counted as a
 * failure until it succeeds, and the attempt that reaches the limit locks the account. Returns false when the
 * account is locked, so parallel guesses cannot run past the limit.
 */
export async function reserveLoginAttempt(
  q: Queryable,
  staffId: string,
  now: Date,
  limit: number,
  lockUntil: Date,
): Promise<boolean> {
  const row = await q
    .updateTable('staff_users')
    .set((eb) => ({
      failed_logins: eb
        .case()
        .when('failed_logins', '>=', limit - 1)
        .then(0)
        .else(eb('failed_logins', '+', 1))
        .end(),
      locked_until: eb
        .case()
        .when('failed_logins', '>=', limit - 1)
        .then(lockUntil)
        .else(eb.ref('locked_until'))
        .end(),
    }))
    .where('id', '=', staffId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function clearLoginFailures(q: Queryable, staffId: string): Promise<void> {
  await q.updateTable('staff_users').set({ failed_logins: 0, locked_until: null }).where('id', '=', staffId).execute();
}

/** Accepts a TOTP step only if it is newer than the last one used: one statement, so concurrent reuse loses. */
export async function claimTotpStep(q: Queryable, staffId: string, step: number): Promise<boolean> {
  const row = await q
    .updateTable('staff_users')
    .set({ totp_last_step: step })
    .where('id', '=', staffId)
    .where('totp_last_step', '<', step)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function insertStaffToken(
  q: Queryable,
  token: { tokenHash: string; staffId: string; createdAt: Date; expiresAt: Date },
): Promise<void> {
  await q
    .insertInto('staff_tokens')
    .values({
      token_hash: token.tokenHash,
      staff_id: token.staffId,
      created_at: token.createdAt,
      expires_at: token.expiresAt,
    })
    .execute();
}

export function findLiveStaffToken(q: Queryable, tokenHash: string, now: Date) {
  return q
    .selectFrom('staff_tokens')
    .innerJoin('staff_users', 'staff_users.id', 'staff_tokens.staff_id')
    .select([
      'staff_users.id',
      'staff_users.email',
      'staff_users.role',
      'staff_users.tenant_id',
      'staff_tokens.expires_at',
    ])
    .where('staff_tokens.token_hash', '=', tokenHash)
    .where('staff_tokens.revoked_at', 'is', null)
    .where('staff_tokens.expires_at', '>', now)
    .where('staff_users.status', '=', 'active')
    .executeTakeFirst();
}

export async function revokeStaffToken(q: Queryable, tokenHash: string, now: Date): Promise<void> {
  await q
    .updateTable('staff_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Expired or revoked tokens are kept a day for investigations, then deleted. */
export async function deleteStaleStaffTokens(q: Queryable, before: Date): Promise<number> {
  const result = await q
    .deleteFrom('staff_tokens')
    .where((eb) => eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function anyStaff(q: Queryable): Promise<boolean> {
  return (await q.selectFrom('staff_users').select('id').limit(1).executeTakeFirst()) !== undefined;
}
