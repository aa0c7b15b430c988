import { randomBytes } from 'node:crypto';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { sha256Hex, type SecretBox } from '../platform/crypto.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { invalidCredentials, reserveAttempt } from './attempts.ts';
import { totpContext } from './creation.ts';
import { staffErrors } from './errors.ts';
import type { EnrolBody } from './schemas.ts';
import { insertSessionToken, newSession, type StaffSession } from './sessions.ts';
import * as store from './store.ts';
import type { StaffUser } from './tables.ts';
import { matchTotpStep, newTotpSecret, otpauthUrl } from './totp.ts';

/** How long an enrolment token (and its secret) may be used to finish the enrolment. */
export const ENROLMENT_TTL_MS = 10 * 60 * 1000;
const ENROLMENT_TOKEN_PREFIX = 'bm_enrol_';

export interface Enrolment {
  enrolmentToken: string;
  secret: string;
  otpauthUrl: string;
  expiresAt: Date;
}

const enrolmentContext = (staffId: string, tokenHash: string) => `staff_users.enrolment_secret:${staffId}:${tokenHash}`;

type TotpEnrolmentDeps = { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog };

/**
 * The enrolment of an account's authenticator at its first sign-in: started by the right password (sign-in.ts),
 * finished by the first code of the new authenticator, which signs in.
 */
export class TotpEnrolment {
  readonly #deps: TotpEnrolmentDeps;

  constructor(deps: TotpEnrolmentDeps) {
    this.#deps = deps;
  }

  /**
   * A fresh secret and a single-use token for it, replacing any enrolment this account had pending. The password
   * was right and there is nothing else to prove yet, so the failed attempts are forgotten as by a log-in.
   */
  async start(staff: StaffUser, now: Date, ip: string): Promise<Enrolment> {
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
    await reserveAttempt(this.#deps, staff, now, attempt);
    const secret = this.#deps.secrets.decrypt(staff.enrolment_secret_enc!, enrolmentContext(staff.id, tokenHash));
    const step = matchTotpStep(secret, input.totp, now);
    if (step === null) {
      await failure('wrong_totp');
      throw invalidCredentials();
    }
    const session = newSession(now);
    const finished = await inTransaction(this.#deps.db, async (tx) => {
      const enrolled = { secretEnc: this.#deps.secrets.encrypt(secret, totpContext(staff.id)), step };
      if (!(await store.finishEnrolment(tx, staff.id, tokenHash, now, enrolled))) return false;
      await insertSessionToken(tx, session, staff.id, now);
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
}

function enrolmentInvalid(reason: 'unknown' | 'expired') {
  return staffErrors.enrolment_invalid(
    { reason },
    reason === 'expired'
      ? 'The enrolment has expired; sign in again to start a new one.'
      : 'The enrolment token is unknown, used or replaced by a newer sign-in; sign in again.',
  );
}
