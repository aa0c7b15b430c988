import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { SecretBox } from '../platform/crypto.ts';
import type { Db } from '../platform/db/database.ts';
import type { StaffCall, StaffPrincipal, StaffRole } from '../platform/http/principals.ts';
import { insertNewStaff, type NewStaffInput } from './creation.ts';
import { TotpEnrolment } from './enrolment.ts';
import { PASSWORD_COST, type PasswordCost } from './password.ts';
import { staffView } from './records.ts';
import type { EnrolBody, LoginBody, StaffView } from './schemas.ts';
import { StaffSessions, type StaffSession } from './sessions.ts';
import { SignIn, type LoginResult } from './sign-in.ts';
import * as store from './store.ts';
import { newTotpSecret, otpauthUrl } from './totp.ts';

// What the staff guard can refuse with (for app.ts to hand to auth), and the idle timeout routes.ts answers with.
export { STAFF_IDLE_TIMEOUT_MS, STAFF_SESSION_ERRORS } from './sessions.ts';

export interface CreatedStaff {
  id: string;
  email: string;
  role: StaffRole;
  tenantId: string | null;
  totpSecret: string;
  otpauthUrl: string;
}

type StaffServiceDeps = { db: Db; clock: Clock; secrets: SecretBox; audit: AuditLog; passwordCost?: PasswordCost };

/**
 * The staff domain, built from its dependencies. Its use cases: `sign-in.ts` (password and TOTP), `enrolment.ts`
 * (the authenticator's enrolment at first sign-in), `sessions.ts` (the sessions they open: the token check, log-out,
 * purge). The methods below are what routes.ts, the auth guard, the commands and a periodic job call, one each, so
 * that none depends on how it is split; and the accounts made at once or for enrolment (creation.ts).
 */
export class StaffService {
  readonly #deps: StaffServiceDeps;
  readonly #passwordCost: PasswordCost;
  readonly #signIn: SignIn;
  readonly #enrolment: TotpEnrolment;
  readonly #sessions: StaffSessions;

  constructor(deps: StaffServiceDeps) {
    this.#deps = deps;
    this.#passwordCost = deps.passwordCost ?? PASSWORD_COST;
    this.#enrolment = new TotpEnrolment(deps);
    this.#signIn = new SignIn({ ...deps, enrolment: this.#enrolment });
    this.#sessions = new StaffSessions(deps);
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

  /** POST /api/v1/admin/auth/login: see SignIn.login. */
  login(input: LoginBody, ip: string): Promise<LoginResult> {
    return this.#signIn.login(input, ip);
  }

  /** POST /api/v1/admin/auth/enrol: see TotpEnrolment.enrol. */
  enrol(input: EnrolBody, ip: string): Promise<StaffSession> {
    return this.#enrolment.enrol(input, ip);
  }

  /** The `auth.staff()` guard: see StaffSessions.authenticate. */
  authenticate(token: string): Promise<StaffPrincipal | null> {
    return this.#sessions.authenticate(token);
  }

  /** True until the first account exists: the server then tells a newcomer to create the first administrator. */
  async noStaffYet(): Promise<boolean> {
    return !(await store.anyStaff(this.#deps.db));
  }

  /** The periodic purge of stale staff tokens. */
  purgeStaleTokens(): Promise<number> {
    return this.#sessions.purgeStaleTokens();
  }

  /** POST /api/v1/admin/auth/logout: see StaffSessions.logout. */
  logout(token: string, staff: StaffPrincipal, ip: string): Promise<void> {
    return this.#sessions.logout(token, staff, ip);
  }

  /** What creating an account needs: the service's own parts, with the password cost in force. */
  #creation() {
    return { ...this.#deps, passwordCost: this.#passwordCost };
  }
}

/** Accounts created by `bookmaker staff create` (in the CLI process or through the server's local channel). */
const cli = { actor: { type: 'system' as const, id: 'cli' }, tenantField: 'tenant' as const };
