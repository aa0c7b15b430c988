import { randomBytes } from 'node:crypto';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex, type SecretBox } from '../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import type { ErrorFactory } from '../platform/errors.ts';
import type { StaffCall, StaffPrincipal, StaffRole } from '../platform/http/principals.ts';
import { insertNewStaff, totpContext, type NewStaffInput } from './creation.ts';
import { staffErrors } from './errors.ts';
import { DUMMY_PASSWORD_HASH, PASSWORD_COST, verifyPassword, type PasswordCost } from './password.ts';
import { staffView } from './records.ts';
import type { EnrolBody, LoginBody, StaffView } from './schemas.ts';
import * as store from './store.ts';
import type { StaffUser } from './tables.ts';
import { matchTotpStep, newTotpSecret, otpauthUrl } from './totp.ts';

export const STAFF_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
/** A staff session also ends after this long without a request: the one setting of the idle timeout. */
export const STAFF_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** A token's last use is written at most this often (so at most one write a minute per token). */
const TOKEN_TOUCH_INTERVAL_MS = 60 * 1000;
/** How long an enrolment token (and its secret) may be used to finish the enrolment. */
export const ENROLMENT_TTL_MS = 10 * 60 * 1000;
export const LOGIN_FAILURE_LIMIT = 5;
export const LOCKOUT_MS = 15 * 60 * 1000;
const STAFF_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;
const ENROLMENT_TOKEN_PREFIX = 'bm_enrol_';

/** What the staff token check can refuse with, for the API documents (auth.staff guards). */
export const STAFF_SESSION_ERRORS: readonly ErrorFactory[] = [staffErrors.session_expired];

export interface CreatedStaff {
  id: string;
  email: string;
  role: StaffRole;
  tenantId: string | null;
  totpSecret: string;
  otpauthUrl: string;
}

export interface Enrolment {
  enrolmentToken: string;
  secret: string;
  otpauthUrl: string;
  expiresAt: Date;
}

export interface StaffSession {
  token: string;
  expiresAt: Date;
}

/** A sign-in either opens a session or, for an account with no authenticator yet, starts its enrolment. */
export type LoginResult = StaffSession | { enrolment: Enrolment };

const enrolmentContext = (staffId: string, tokenHash: string) => `staff_users.enrolment_secret:${staffId}:${tokenHash}`;

type StaffServiceDeps = { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog; passwordCost?: PasswordCost };

/** Staff sign-in (password, TOTP, first enrolment of the authenticator) and the sessions it opens. */
export class StaffService {
  readonly #deps: StaffServiceDeps;
  readonly #passwordCost: PasswordCost;

  constructor(deps: StaffServiceDeps) {
    this.#deps = deps;
    this.#passwordCost = deps.passwordCost ?? PASSWORD_COST;
  }

  /**
   * For scripts and tests (`staff create --enrol-now`): an account enrolled at once, with a fresh TOTP secret that
   * is returned this once and stored encrypted.
   */
  async create(input: NewStaffInput): Promise<CreatedStaff> {
    const totpSecret = newTotpSecret();
    const row = await insertNewStaff(this.#creation(), input, cli, totpSecret);
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      tenantId: row.tenant_id,
      totpSecret,
      otpauthUrl: otpauthUrl(totpSecret, row.email),
    };
  }

  /** An account that enrols its authenticator at first sign-in (`staff create`, POST /api/v1/admin/staff). */
  async createForEnrolment(input: NewStaffInput, by?: StaffCall): Promise<StaffView> {
    const creator = by
      ? { actor: { type: 'staff' as const, id: by.staff.id }, ip: by.ip, tenantField: 'tenantId' as const }
      : cli;
    return staffView(await insertNewStaff(this.#creation(), input, creator), this.#deps.clock.now());
  }

  /**
   * Password and TOTP together, or, for an account with no authenticator yet, the password alone starts its
   * enrolment. Every attempt is audited with its real reason, while the caller only ever learns "invalid
   * credentials" or "locked" unless the password is right, so accounts cannot be probed.
   */
  async login(input: LoginBody, ip: string): Promise<LoginResult> {
    const email = input.email.trim().toLowerCase();
    const now = this.#deps.clock.now();
    const staff = await store.findStaffByEmail(this.#deps.db, email);
    const attempt = { actor: { type: 'anonymous' as const }, action: 'staff.login', ip };

    if (!staff || staff.status !== 'active') {
      await verifyPassword(input.password, DUMMY_PASSWORD_HASH);
      await this.#deps.audit.record(this.#deps.db, {
        ...attempt,
        outcome: 'failure',
        details: { email, reason: staff ? 'disabled' : 'unknown_email' },
      });
      throw invalidCredentials();
    }
    const target = { type: 'staff', id: staff.id };
    const failure = async (reason: string) => {
      await this.#deps.audit.record(this.#deps.db, { ...attempt, target, outcome: 'failure', details: { reason } });
      return invalidCredentials();
    };
    await this.#reserveAttempt(staff, now, attempt);

    if (!(await verifyPassword(input.password, staff.password_hash))) throw await failure('wrong_password');
    if (staff.totp_enrolled_at === null) {
      // No authenticator yet: a code cannot be right, and without one the answer is the enrolment.
      if (input.totp !== undefined) throw await failure('not_enrolled');
      return { enrolment: await this.#startEnrolment(staff, now, ip) };
    }
    if (input.totp === undefined) throw await failure('totp_missing');
    const secret = this.#deps.secrets.decrypt(staff.totp_secret_enc!, totpContext(staff.id));
    const step = matchTotpStep(secret, input.totp, now);
    if (step === null) throw await failure('wrong_totp');
    if (!(await store.claimTotpStep(this.#deps.db, staff.id, step))) throw await failure('totp_reused');

    const session = this.#newSession(now);
    const signedIn = await inTransaction(this.#deps.db, async (tx) => {
      if (!(await store.recordLogin(tx, staff.id, now, staff.totp_secret_enc!))) return false;
      await this.#insertToken(tx, session, staff.id, now);
      await this.#deps.audit.record(tx, {
        ...attempt,
        actor: { type: 'staff', id: staff.id },
        target,
        outcome: 'success',
      });
      return true;
    });
    // Disabled or reset between the checks and now: as any other refusal.
    if (!signedIn) throw await failure('changed_meanwhile');
    return session;
  }

  /**
   * A fresh secret and a single-use token for it, replacing any enrolment this account had pending. The password
   * was right and there is nothing else to prove yet, so the failed attempts are forgotten as by a log-in.
   */
  async #startEnrolment(staff: StaffUser, now: Date, ip: string): Promise<Enrolment> {
    const secret = newTotpSecret();
    const enrolmentToken = ENROLMENT_TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const tokenHash = sha256Hex(enrolmentToken);
    const expiresAt = new Date(now.getTime() + ENROLMENT_TTL_MS);
    await inTransaction(this.#deps.db, async (tx) => {
      const started = await store.startEnrolment(tx, staff.id, {
        tokenHash,
        secretEnc: this.#deps.secrets.encrypt(secret, enrolmentContext(staff.id, tokenHash)),
        expiresAt,
      });
      // Enrolled or disabled since it was read: as any other refusal.
      if (!started) throw invalidCredentials();
      await store.clearLoginFailures(tx, staff.id);
      await this.#deps.audit.record(tx, {
        actor: { type: 'anonymous' },
        action: 'staff.login',
        target: { type: 'staff', id: staff.id },
        outcome: 'success',
        ip,
        details: { next: 'enrol', enrolmentExpiresAt: expiresAt.toISOString() },
      });
    });
    return { enrolmentToken, secret, otpauthUrl: otpauthUrl(secret, staff.email), expiresAt };
  }

  /**
   * The first code of the new authenticator finishes the enrolment and signs in. The token is used once; a wrong
   * code counts as a failed log-in (the same lockout); an unknown, used, replaced or expired token says so.
   */
  async enrol(input: EnrolBody, ip: string): Promise<StaffSession> {
    const now = this.#deps.clock.now();
    const tokenHash = sha256Hex(input.enrolmentToken);
    const staff = await store.findStaffByEnrolmentToken(this.#deps.db, tokenHash);
    const attempt = { actor: { type: 'anonymous' as const }, action: 'staff.enrol', ip };
    if (!staff || staff.status !== 'active') {
      await this.#deps.audit.record(this.#deps.db, {
        ...attempt,
        outcome: 'failure',
        details: { reason: 'unknown_token' },
      });
      throw enrolmentInvalid('unknown');
    }
    const target = { type: 'staff', id: staff.id };
    const failure = async (reason: string) =>
      this.#deps.audit.record(this.#deps.db, { ...attempt, target, outcome: 'failure', details: { reason } });
    if (staff.enrolment_expires_at! <= now) {
      await failure('expired');
      throw enrolmentInvalid('expired');
    }
    await this.#reserveAttempt(staff, now, attempt);
    const secret = this.#deps.secrets.decrypt(staff.enrolment_secret_enc!, enrolmentContext(staff.id, tokenHash));
    const step = matchTotpStep(secret, input.totp, now);
    if (step === null) {
      await failure('wrong_totp');
      throw invalidCredentials();
    }
    const session = this.#newSession(now);
    const finished = await inTransaction(this.#deps.db, async (tx) => {
      const enrolled = { secretEnc: this.#deps.secrets.encrypt(secret, totpContext(staff.id)), step };
      if (!(await store.finishEnrolment(tx, staff.id, tokenHash, now, enrolled))) return false;
      await this.#insertToken(tx, session, staff.id, now);
      await this.#deps.audit.record(tx, {
        ...attempt,
        actor: { type: 'staff', id: staff.id },
        target,
        outcome: 'success',
      });
      return true;
    });
    if (!finished) {
      await failure('used');
      throw enrolmentInvalid('unknown');
    }
    return session;
  }

  /** Counts the attempt before anything is checked; a locked account is refused (429) and the refusal audited. */
  async #reserveAttempt(
    staff: StaffUser,
    now: Date,
    attempt: { actor: { type: 'anonymous' }; action: string; ip: string },
  ): Promise<void> {
    const lockUntil = new Date(now.getTime() + LOCKOUT_MS);
    if (await store.reserveLoginAttempt(this.#deps.db, staff.id, now, LOGIN_FAILURE_LIMIT, lockUntil)) return;
    const current = await store.findStaff(this.#deps.db, staff.id);
    await this.#deps.audit.record(this.#deps.db, {
      ...attempt,
      target: { type: 'staff', id: staff.id },
      outcome: 'denied',
      details: { reason: 'locked' },
    });
    throw accountLocked(current?.locked_until ?? lockUntil, now);
  }

  #insertToken(tx: Tx, session: StaffSession, staffId: string, now: Date): Promise<void> {
    const tokenHash = sha256Hex(session.token);
    return store.insertStaffToken(tx, { tokenHash, staffId, createdAt: now, expiresAt: session.expiresAt });
  }

  #newSession(now: Date): StaffSession {
    return { token: newToken('staff'), expiresAt: new Date(now.getTime() + STAFF_TOKEN_TTL_MS) };
  }

  /**
   * The staff member behind a token, or null for a token that never was one. A token that was one but has ended
   * says why (401 session_expired: idle, expired or revoked). A use is recorded at most once a minute.
   */
  async authenticate(token: string): Promise<StaffPrincipal | null> {
    const tokenHash = sha256Hex(token);
    const row = await store.findStaffToken(this.#deps.db, tokenHash);
    if (!row) return null;
    const now = this.#deps.clock.now();
    if (row.revoked_at !== null || row.status !== 'active') throw sessionEnded('revoked');
    if (row.expires_at <= now) throw sessionEnded('expired');
    if (row.last_used_at.getTime() + STAFF_IDLE_TIMEOUT_MS <= now.getTime()) throw sessionEnded('idle');
    let lastUsed = row.last_used_at;
    const notSince = new Date(now.getTime() - TOKEN_TOUCH_INTERVAL_MS);
    if (lastUsed <= notSince) {
      await store.touchStaffToken(this.#deps.db, tokenHash, now, notSince);
      lastUsed = now;
    }
    const idleExpiresAt = new Date(lastUsed.getTime() + STAFF_IDLE_TIMEOUT_MS);
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      tenantId: row.tenant_id,
      sessionExpiresAt: row.expires_at,
      idleExpiresAt: idleExpiresAt < row.expires_at ? idleExpiresAt : row.expires_at,
    };
  }

  /** True until the first account exists: the server then tells a newcomer to create the first administrator. */
  async noStaffYet(): Promise<boolean> {
    return !(await store.anyStaff(this.#deps.db));
  }

  async purgeStaleTokens(): Promise<number> {
    const before = new Date(this.#deps.clock.now().getTime() - STAFF_TOKEN_RETENTION_MS);
    return store.deleteStaleStaffTokens(this.#deps.db, before, new Date(before.getTime() - STAFF_IDLE_TIMEOUT_MS));
  }

  async logout(token: string, staff: StaffPrincipal, ip: string): Promise<void> {
    await inTransaction(this.#deps.db, async (tx) => {
      await store.revokeStaffToken(tx, sha256Hex(token), this.#deps.clock.now());
      await this.#deps.audit.record(tx, {
        actor: { type: 'staff', id: staff.id },
        action: 'staff.logout',
        target: { type: 'staff', id: staff.id },
        outcome: 'success',
        ip,
      });
    });
  }

  /** What creating an account needs: the service's own parts, with the password cost in force. */
  #creation() {
    return { ...this.#deps, passwordCost: this.#passwordCost };
  }
}

/** Accounts created by `bookmaker staff create` (in the CLI process or through the server's local channel). */
const cli = { actor: { type: 'system' as const, id: 'cli' }, tenantField: 'tenant' as const };

function invalidCredentials() {
  return staffErrors.invalid_credentials();
}

function enrolmentInvalid(reason: 'unknown' | 'expired') {
  return staffErrors.enrolment_invalid(
    { reason },
    reason === 'expired'
      ? 'The enrolment has expired; sign in again to start a new one.'
      : 'The enrolment token is unknown, used or replaced by a newer sign-in; sign in again.',
  );
}

function sessionEnded(reason: 'idle' | 'expired' | 'revoked') {
  const messages = {
    idle: `The staff session ended after ${STAFF_IDLE_TIMEOUT_MS / 60_000} minutes without a request; sign in again.`,
    expired: 'The staff session has reached its 12-hour lifetime; sign in again.',
    revoked: 'The staff session was ended (logged out, account disabled or authenticator reset); sign in again.',
  };
  return staffErrors.session_expired({ reason }, messages[reason]);
}

function accountLocked(until: Date, now: Date) {
  const retryAfterSeconds = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
  return staffErrors.account_locked(
    { retryAfterSeconds },
    'Too many failed log-ins: the account is locked for a while.',
  );
}
