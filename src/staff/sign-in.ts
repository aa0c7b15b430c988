import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { SecretBox } from '../platform/crypto.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import { invalidCredentials, reserveAttempt } from './attempts.ts';
import { totpContext } from './creation.ts';
import type { Enrolment, TotpEnrolment } from './enrolment.ts';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './password.ts';
import type { LoginBody } from './schemas.ts';
import { insertSessionToken, newSession, type StaffSession } from './sessions.ts';
import * as store from './store.ts';
import { matchTotpStep } from './totp.ts';

/** A sign-in either opens a session or, for an account with no authenticator yet, starts its enrolment. */
export type LoginResult = StaffSession | { enrolment: Enrolment };

type SignInDeps = { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog; enrolment: TotpEnrolment };

/** Staff sign-in: password and TOTP, or the password alone to start the enrolment of the authenticator. */
export class SignIn {
  readonly #deps: SignInDeps;

  constructor(deps: SignInDeps) {
    this.#deps = deps;
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
    await reserveAttempt(this.#deps, staff, now, attempt);

    if (!(await verifyPassword(input.password, staff.password_hash))) throw await failure('wrong_password');
    if (staff.totp_enrolled_at === null) {
      // No authenticator yet: a code cannot be right, and without one the answer is the enrolment.
      if (input.totp !== undefined) throw await failure('not_enrolled');
      return { enrolment: await this.#deps.enrolment.start(staff, now, ip) };
    }
    if (input.totp === undefined) throw await failure('totp_missing');
    const secret = this.#deps.secrets.decrypt(staff.totp_secret_enc!, totpContext(staff.id));
    const step = matchTotpStep(secret, input.totp, now);
    if (step === null) throw await failure('wrong_totp');
    if (!(await store.claimTotpStep(this.#deps.db, staff.id, step))) throw await failure('totp_reused');

    const session = newSession(now);
    const signedIn = await inTransaction(this.#deps.db, async (tx) => {
      if (!(await store.recordLogin(tx, staff.id, now, staff.totp_secret_enc!))) return false;
      await insertSessionToken(tx, session, staff.id, now);
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
}
