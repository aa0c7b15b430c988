import { randomUUID } from 'node:crypto';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex, type SecretBox } from '../platform/crypto.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { validationError } from '../platform/errors.ts';
import { STAFF_ROLES, TENANT_BOUND_ROLES, type StaffPrincipal, type StaffRole } from '../platform/http/principals.ts';
import { staffErrors } from './errors.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from './password.ts';
import { NEW_PASSWORD_MIN_LENGTH } from './schemas.ts';
import * as store from './store.ts';
import { matchTotpStep, newTotpSecret, otpauthUrl } from './totp.ts';

export const STAFF_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
export const LOGIN_FAILURE_LIMIT = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;

export interface NewStaffInput {
  email: string;
  password: string;
  role: string;
  tenantId?: string | undefined;
}

export interface CreatedStaff {
  id: string;
  email: string;
  role: StaffRole;
  tenantId: string | null;
  totpSecret: string;
  otpauthUrl: string;
}

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const totpContext = (staffId: string) => `staff_users.totp_secret:${staffId}`;

export class StaffService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #secrets: SecretBox;
  readonly #audit: AuditLog;

  constructor(deps: { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#secrets = deps.secrets;
    this.#audit = deps.audit;
  }

  /** Creates an account with a fresh TOTP secret; the secret is returned this once and stored encrypted. */
  async create(input: NewStaffInput): Promise<CreatedStaff> {
    const email = input.email.trim().toLowerCase();
    const role = checkNewStaff(email, input);
    const tenantId = TENANT_BOUND_ROLES.includes(role) ? input.tenantId! : null;
    const id = randomUUID();
    const totpSecret = newTotpSecret();
    const passwordHash = await hashPassword(input.password);
    await inTransaction(this.#db, async (tx) => {
      if (await store.findStaffByEmail(tx, email)) {
        throw staffErrors.staff_exists({ field: 'email' }, `A staff account with e-mail ${email} already exists.`);
      }
      await store.insertStaff(tx, {
        id,
        email,
        password_hash: passwordHash,
        role,
        tenant_id: tenantId,
        totp_secret_enc: this.#secrets.encrypt(totpSecret, totpContext(id)),
        created_at: this.#clock.now(),
      });
      await this.#audit.record(tx, {
        actor: { type: 'system', id: 'cli' },
        action: 'staff.create',
        target: { type: 'staff', id },
        outcome: 'success',
        details: { email, role, tenantId },
      });
    });
    return { id, email, role, tenantId, totpSecret, otpauthUrl: otpauthUrl(totpSecret, email) };
  }

  /**
   * Password and TOTP together; every attempt is audited with its real reason, while the caller
   * only ever learns "invalid credentials" or "locked" so accounts cannot be probed.
   */
  async login(
    input: { email: string; password: string; totp: string },
    ip: string,
  ): Promise<{ token: string; expiresAt: Date }> {
    const email = input.email.trim().toLowerCase();
    const now = this.#clock.now();
    const staff = await store.findStaffByEmail(this.#db, email);
    const attempt = { actor: { type: 'anonymous' as const }, action: 'staff.login', ip };

    if (!staff || staff.status !== 'active') {
      await verifyPassword(input.password, DUMMY_PASSWORD_HASH);
      await this.#audit.record(this.#db, {
        ...attempt,
        outcome: 'failure',
        details: { email, reason: staff ? 'disabled' : 'unknown_email' },
      });
      throw invalidCredentials();
    }
    const target = { type: 'staff', id: staff.id };
    const lockUntil = new Date(now.getTime() + LOCKOUT_MS);
    if (!(await store.reserveLoginAttempt(this.#db, staff.id, now, LOGIN_FAILURE_LIMIT, lockUntil))) {
      const current = await store.findStaffByEmail(this.#db, email);
      await this.#audit.record(this.#db, { ...attempt, target, outcome: 'denied', details: { reason: 'locked' } });
      throw accountLocked(current?.locked_until ?? lockUntil, now);
    }

    const reason = await this.#secondFactorFailure(staff, input, now);
    if (reason) {
      await this.#audit.record(this.#db, { ...attempt, target, outcome: 'failure', details: { reason } });
      throw invalidCredentials();
    }

    const token = newToken('staff');
    const expiresAt = new Date(now.getTime() + STAFF_TOKEN_TTL_MS);
    await inTransaction(this.#db, async (tx) => {
      await store.clearLoginFailures(tx, staff.id);
      await store.insertStaffToken(tx, { tokenHash: sha256Hex(token), staffId: staff.id, createdAt: now, expiresAt });
      await this.#audit.record(tx, { ...attempt, actor: { type: 'staff', id: staff.id }, target, outcome: 'success' });
    });
    return { token, expiresAt };
  }

  /** Returns why the password or TOTP failed, or null when both hold (the TOTP step is then consumed). */
  async #secondFactorFailure(
    staff: { id: string; password_hash: string; totp_secret_enc: string },
    input: { password: string; totp: string },
    now: Date,
  ): Promise<string | null> {
    if (!(await verifyPassword(input.password, staff.password_hash))) return 'wrong_password';
    const secret = this.#secrets.decrypt(staff.totp_secret_enc, totpContext(staff.id));
    const step = matchTotpStep(secret, input.totp, now);
    if (step === null) return 'wrong_totp';
    if (!(await store.claimTotpStep(this.#db, staff.id, step))) return 'totp_reused';
    return null;
  }

  async authenticate(token: string): Promise<StaffPrincipal | null> {
    const row = await store.findLiveStaffToken(this.#db, sha256Hex(token), this.#clock.now());
    if (!row) return null;
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      tenantId: row.tenant_id,
      sessionExpiresAt: row.expires_at,
    };
  }

  /** True until the first account exists: the server then tells a newcomer to create the first administrator. */
  async noStaffYet(): Promise<boolean> {
    return !(await store.anyStaff(this.#db));
  }

  async purgeStaleTokens(): Promise<number> {
    return store.deleteStaleStaffTokens(this.#db, new Date(this.#clock.now().getTime() - STAFF_TOKEN_RETENTION_MS));
  }

  async logout(token: string, staff: StaffPrincipal, ip: string): Promise<void> {
    await inTransaction(this.#db, async (tx) => {
      await store.revokeStaffToken(tx, sha256Hex(token), this.#clock.now());
      await this.#audit.record(tx, {
        actor: { type: 'staff', id: staff.id },
        action: 'staff.logout',
        target: { type: 'staff', id: staff.id },
        outcome: 'success',
        ip,
      });
    });
  }
}

const STAFF_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;

function checkNewStaff(email: string, input: NewStaffInput): StaffRole {
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
    throw validationError(
      'tenant',
      'An operator is bound to exactly one tenant: give its id with --tenant tn_…; other roles take none.',
    );
  }
  return role;
}

function invalidCredentials() {
  return staffErrors.invalid_credentials();
}

function accountLocked(until: Date, now: Date) {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return staffErrors.account_locked(
    { retryAfterSeconds },
    'Too many failed log-ins: the account is locked for a while.',
  );
}
