import { randomUUID } from 'node:crypto';
import type { AuditLog, AuditRecord } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { SecretBox } from '../platform/crypto.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { validationError } from '../platform/errors.ts';
import { STAFF_ROLES, TENANT_BOUND_ROLES, type StaffRole } from '../platform/http/principals.ts';
import { staffErrors } from './errors.ts';
import { hashPassword, type PasswordCost } from './password.ts';
import { NEW_PASSWORD_MIN_LENGTH } from './schemas.ts';
import * as store from './store.ts';
import type { StaffUser } from './tables.ts';

export interface NewStaffInput {
  email: string;
  password: string;
  role: string;
  tenantId?: string | undefined;
}

/** Who creates an account, for the audit trail: a staff member through the admin API, or a command. */
export interface Creator {
  actor: AuditRecord['actor'];
  ip?: string | undefined;
  /** How the tenant is named where the account is created: `--tenant` on the command line, `tenantId` in the API. */
  tenantField: 'tenant' | 'tenantId';
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The context a TOTP secret is encrypted with: it only decrypts as this account's. */
export const totpContext = (staffId: string) => `staff_users.totp_secret:${staffId}`;

/**
 * Inserts an account with its audit line. With `totpSecret`, the account is enrolled at once (scripts and tests);
 * without, it enrols its authenticator at first sign-in.
 */
export async function insertNewStaff(
  deps: { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog; passwordCost: PasswordCost },
  input: NewStaffInput,
  by: Creator,
  totpSecret?: string,
): Promise<StaffUser> {
  const email = input.email.trim().toLowerCase();
  const role = checkNewStaff(email, input, by.tenantField);
  const tenantId = TENANT_BOUND_ROLES.includes(role) ? input.tenantId! : null;
  const id = randomUUID();
  const passwordHash = await hashPassword(input.password, deps.passwordCost);
  const now = deps.clock.now();
  return inTransaction(deps.db, async (tx) => {
    if (await store.findStaffByEmail(tx, email)) {
      throw staffErrors.staff_exists({ field: 'email' }, `A staff account with e-mail ${email} already exists.`);
    }
    await store.insertStaff(tx, {
      id,
      email,
      password_hash: passwordHash,
      role,
      tenant_id: tenantId,
      totp_secret_enc: totpSecret ? deps.secrets.encrypt(totpSecret, totpContext(id)) : null,
      totp_enrolled_at: totpSecret ? now : null,
      created_at: now,
    });
    await deps.audit.record(tx, {
      actor: by.actor,
      action: 'staff.create',
      target: { type: 'staff', id },
      outcome: 'success',
      ip: by.ip,
      details: { email, role, tenantId, enrolled: totpSecret !== undefined },
    });
    return (await store.findStaff(tx, id))!;
  });
}

function checkNewStaff(email: string, input: NewStaffInput, tenantField: Creator['tenantField']): StaffRole {
  if (!EMAIL_PATTERN.test(email) || email.length > 254) {
    throw validationError('email', 'A valid e-mail address is required.');
  }
  if (input.password.length < NEW_PASSWORD_MIN_LENGTH || input.password.length > 256) {
    throw validationError('password', `The password must be ${NEW_PASSWORD_MIN_LENGTH} to 256 characters.`);
  }
  if (!(STAFF_ROLES as readonly string[]).includes(input.role)) {
    throw validationError('role', `The role must be one of ${STAFF_ROLES.join(', ')}.`);
  }
  const role = input.role as StaffRole;
  if (TENANT_BOUND_ROLES.includes(role) !== Boolean(input.tenantId)) {
    const named = tenantField === 'tenant' ? 'with --tenant tn_…' : 'as tenantId';
    throw validationError(
      tenantField,
      `An operator is bound to exactly one tenant: give its id ${named}; other roles take none.`,
    );
  }
  return role;
}
