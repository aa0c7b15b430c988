import { sql } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { StaffRole } from '../platform/http/principals.ts';
import type { NewStaffUser, StaffUser, StaffStatus } from './tables.ts';
import { pageInTimeOrder, type TimePage } from '../platform/db/paging.ts';

export async function insertStaff(q: Queryable, staff: NewStaffUser): Promise<void> {
  await q.insertInto('staff_users').values(staff).execute();
}

export function findStaffByEmail(q: Queryable, email: string): Promise<StaffUser | undefined> {
  return q.selectFrom('staff_users').selectAll().where('email', '=', email).executeTakeFirst();
}

export function findStaff(q: Queryable, id: string, options: { lock?: boolean } = {}): Promise<StaffUser | undefined> {
  const query = q.selectFrom('staff_users').selectAll().where('id', '=', id);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export function findStaffByEnrolmentToken(q: Queryable, tokenHash: string): Promise<StaffUser | undefined> {
  return q.selectFrom('staff_users').selectAll().where('enrolment_token_hash', '=', tokenHash).executeTakeFirst();
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

/**
 * A successful sign-in: failures forgotten, the time kept for the accounts list. Only while the account is still
 * active with the authenticator the code was checked against: false when it was disabled or reset meanwhile. The
 * row stays locked until the caller's transaction ends, so a disable or reset waits and then ends the new session.
 */
export async function recordLogin(q: Queryable, staffId: string, now: Date, secretEnc: string): Promise<boolean> {
  const row = await q
    .updateTable('staff_users')
    .set({ failed_logins: 0, locked_until: null, last_login_at: now })
    .where('id', '=', staffId)
    .where('status', '=', 'active')
    .where('totp_secret_enc', '=', secretEnc)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
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

/** A new pending enrolment replaces the previous one (whose token stops working); only for an account not enrolled. */
export async function startEnrolment(
  q: Queryable,
  staffId: string,
  enrolment: { tokenHash: string; secretEnc: string; expiresAt: Date },
): Promise<boolean> {
  const row = await q
    .updateTable('staff_users')
    .set({
      enrolment_token_hash: enrolment.tokenHash,
      enrolment_secret_enc: enrolment.secretEnc,
      enrolment_expires_at: enrolment.expiresAt,
    })
    .where('id', '=', staffId)
    .where('totp_enrolled_at', 'is', null)
    .where('status', '=', 'active')
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Finishes the enrolment of this token, once: the secret becomes the account's, the code's step is used, the
 * pending enrolment is gone and the sign-in recorded. False when the token was used, replaced or expired meanwhile.
 */
export async function finishEnrolment(
  q: Queryable,
  staffId: string,
  tokenHash: string,
  now: Date,
  enrolled: { secretEnc: string; step: number },
): Promise<boolean> {
  const row = await q
    .updateTable('staff_users')
    .set({
      totp_secret_enc: enrolled.secretEnc,
      totp_enrolled_at: now,
      totp_last_step: enrolled.step,
      enrolment_token_hash: null,
      enrolment_secret_enc: null,
      enrolment_expires_at: null,
      failed_logins: 0,
      locked_until: null,
      last_login_at: now,
    })
    .where('id', '=', staffId)
    .where('enrolment_token_hash', '=', tokenHash)
    .where('enrolment_expires_at', '>', now)
    .where('status', '=', 'active')
    .where('totp_enrolled_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** The account must enrol again: no secret, no pending enrolment, no step used. */
export async function resetTotp(q: Queryable, staffId: string): Promise<StaffUser> {
  return q
    .updateTable('staff_users')
    .set({
      totp_secret_enc: null,
      totp_enrolled_at: null,
      totp_last_step: 0,
      enrolment_token_hash: null,
      enrolment_secret_enc: null,
      enrolment_expires_at: null,
    })
    .where('id', '=', staffId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setStaffStatus(q: Queryable, staffId: string, status: StaffStatus): Promise<StaffUser> {
  return q
    .updateTable('staff_users')
    .set(
      status === 'disabled'
        ? { status, enrolment_token_hash: null, enrolment_secret_enc: null, enrolment_expires_at: null }
        : { status, failed_logins: 0, locked_until: null },
    )
    .where('id', '=', staffId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Locks the enabled platform administrators (in id order, so two administrators disabling each other queue) and
 * returns their ids: the last one is never disabled.
 */
export async function lockEnabledPlatformAdmins(q: Queryable): Promise<string[]> {
  const rows = await q
    .selectFrom('staff_users')
    .select('id')
    .where('role', '=', 'platform_admin')
    .where('status', '=', 'active')
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map((row) => row.id);
}

export interface StaffFilter extends TimePage {
  role?: StaffRole | undefined;
  tenantId?: string | undefined;
  status?: StaffStatus | undefined;
  /** Part of the e-mail, lower case. */
  emailContains?: string | undefined;
}

/** One page by creation time (newest first unless asked), and one more row to tell whether another page exists. */
export function listStaff(q: Queryable, filter: StaffFilter): Promise<StaffUser[]> {
  let query = q.selectFrom('staff_users').selectAll();
  if (filter.role) query = query.where('role', '=', filter.role);
  if (filter.tenantId) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.emailContains) {
    query = query.where(sql<boolean>`strpos(email, ${filter.emailContains}) > 0`);
  }
  return pageInTimeOrder(query, 'created_at', filter).execute();
}

/** The accounts bound to a tenant (its operators), disabled ones included: their past actions are the tenant's. */
/** The e-mail addresses of these accounts, by id. */
export async function emailsOf(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.selectFrom('staff_users').select(['id', 'email']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

export async function staffIdsOfTenant(q: Queryable, tenantId: string): Promise<string[]> {
  const rows = await q.selectFrom('staff_users').select('id').where('tenant_id', '=', tenantId).execute();
  return rows.map((row) => row.id);
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
      last_used_at: token.createdAt,
    })
    .execute();
}

/** The token with its account, whatever its state: the caller tells live from ended (and why). */
export function findStaffToken(q: Queryable, tokenHash: string) {
  return q
    .selectFrom('staff_tokens')
    .innerJoin('staff_users', 'staff_users.id', 'staff_tokens.staff_id')
    .select([
      'staff_users.id',
      'staff_users.email',
      'staff_users.role',
      'staff_users.tenant_id',
      'staff_users.status',
      'staff_tokens.expires_at',
      'staff_tokens.revoked_at',
      'staff_tokens.last_used_at',
    ])
    .where('staff_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/** Records a use of the token unless one was recorded since `notSince`: at most one write a minute per token. */
export async function touchStaffToken(q: Queryable, tokenHash: string, now: Date, notSince: Date): Promise<void> {
  await q
    .updateTable('staff_tokens')
    .set({ last_used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('last_used_at', '<=', notSince)
    .execute();
}

export async function revokeStaffToken(q: Queryable, tokenHash: string, now: Date): Promise<void> {
  await q
    .updateTable('staff_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Ends every session of an account (disabled, or its authenticator reset); returns how many were live. */
export async function revokeTokensOf(q: Queryable, staffId: string, now: Date): Promise<number> {
  const result = await q
    .updateTable('staff_tokens')
    .set({ revoked_at: now })
    .where('staff_id', '=', staffId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Expired, idle or revoked tokens are kept a day for investigations, then deleted. */
export async function deleteStaleStaffTokens(q: Queryable, before: Date, idleBefore: Date): Promise<number> {
  const result = await q
    .deleteFrom('staff_tokens')
    .where((eb) =>
      eb.or([eb('expires_at', '<', before), eb('revoked_at', '<', before), eb('last_used_at', '<', idleBefore)]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function anyStaff(q: Queryable): Promise<boolean> {
  return (await q.selectFrom('staff_users').select('id').limit(1).executeTakeFirst()) !== undefined;
}
