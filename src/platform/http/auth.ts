/**
 * Authentication and authorization plumbing, in one place: the guards routes put in front of their handlers, the
 * request decorations they fill, and the limits on failed attempts; which role holds which permission is
 * permissions.ts. Each credential is checked by the domain that issued it (the Authenticators); this module only
 * wires them in.
 */
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Acting } from '../audit/log.ts';
import { TOKEN_PREFIX } from '../crypto.ts';
import { platformErrors, type AppError, type ErrorFactory } from '../errors.ts';
import { bearerToken } from './bearer.ts';
import { FailureBudget } from './failure-budget.ts';
import { allows, rolesFor, type Permission } from './permissions.ts';
import type {
  AggregatorPrincipal,
  AggregatorScope,
  ProducerPrincipal,
  SessionPrincipal,
  StaffPrincipal,
  TenantPrincipal,
} from './principals.ts';
import type { TypedApp } from './types.ts';

declare module 'fastify' {
  interface FastifyRequest {
    staff?: StaffPrincipal;
    staffToken?: string;
    session?: SessionPrincipal;
    aggregator?: AggregatorPrincipal;
    tenant?: TenantPrincipal;
    producer?: ProducerPrincipal;
  }
}

/**
 * What a guard established, read by the handler behind it. Handlers read their principal through these, never
 * `request.staff!`: a handler whose route lacks the guard is a wiring mistake, answered 500 and logged, not a
 * request served as nobody.
 */
export const guarded = {
  staff: (request: FastifyRequest): StaffPrincipal => request.staff ?? unguarded('staff'),
  staffToken: (request: FastifyRequest): string => request.staffToken ?? unguarded('staff'),
  session: (request: FastifyRequest): SessionPrincipal => request.session ?? unguarded('player'),
  /** Behind `auth.playerIfAny()`: the session when the call carried a token, undefined when it was anonymous. */
  sessionIfAny: (request: FastifyRequest): SessionPrincipal | undefined => request.session,
  tenant: (request: FastifyRequest): TenantPrincipal => request.tenant ?? unguarded('tenantKey'),
  aggregator: (request: FastifyRequest): AggregatorPrincipal => request.aggregator ?? unguarded('aggregator'),
  producer: (request: FastifyRequest): ProducerPrincipal => request.producer ?? unguarded('feed'),
  /** A staff member's action: who, and from where (the audit trail's actor and address). */
  staffCall: (request: FastifyRequest) => ({ staff: guarded.staff(request), ip: request.ip }),
  /** The same staff action as the audit trail names its actor (the use cases the service also runs by rule). */
  acting: (request: FastifyRequest): Acting => ({
    actor: { type: 'staff', id: guarded.staff(request).id },
    ip: request.ip,
  }),
};

function unguarded(guardName: keyof Auth): never {
  throw new Error(`This route reads a principal its guard did not set: put auth.${guardName}() in its onRequest.`);
}

/**
 * `X-Player-Activity: background` marks a player call the app made on its own (a poll of open bets or offers),
 * not for something the player did: the session is checked but its idle clock is not reset, so an open iframe
 * left alone still times out.
 */
const BACKGROUND_HEADER = 'x-player-activity';

/** A credential check provided by the domain that issued the credential. */
interface CredentialCheck<A extends unknown[], P> {
  check(...args: A): Promise<P>;
  /** The catalogued errors the check can throw, listed in the OpenAPI documents. */
  errors: readonly ErrorFactory[];
}

export interface Authenticators {
  staff: CredentialCheck<[token: string], StaffPrincipal | null>;
  player: CredentialCheck<[token: string, options: { forLogout: boolean; background: boolean }], SessionPrincipal>;
  aggregator: CredentialCheck<[key: string, ip: string], AggregatorPrincipal>;
  tenant: CredentialCheck<[tenantId: string | undefined, apiKey: string | undefined, ip: string], TenantPrincipal>;
  feed: CredentialCheck<[key: string], ProducerPrincipal>;
}

/** What a guard adds to an operation's OpenAPI description: its security scheme and the errors it throws. */
export interface GuardInfo {
  security: Array<Record<string, string[]>>;
  errors: readonly ErrorFactory[];
}

const GUARD_INFO = Symbol('guard');
export type Guard = ((request: FastifyRequest) => Promise<void>) & { [GUARD_INFO]: GuardInfo };

export function guardInfo(hook: unknown): GuardInfo | undefined {
  return typeof hook === 'function' ? (hook as Partial<Guard>)[GUARD_INFO] : undefined;
}

function guard(info: GuardInfo, check: (request: FastifyRequest) => Promise<void>): Guard {
  return Object.assign(check, { [GUARD_INFO]: info });
}

export interface AuthLimits {
  /** Failed credential checks allowed per client IP per minute before 429 (aggregator key, integration key, login). */
  failedAttemptsPerMinute: number;
  /** Requests per minute per aggregator, shared by all its keys (contract: 120). */
  aggregatorRequestsPerMinute: number;
}

export const DEFAULT_AUTH_LIMITS: AuthLimits = { failedAttemptsPerMinute: 30, aggregatorRequestsPerMinute: 120 };
const MINUTE_MS = 60_000;

type Limiter = ReturnType<TypedApp['createRateLimit']>;

/**
 * The refusals that are guesses at a credential, or a credential used from an address it is not allowed from, and so
 * spend the address budget; others are refunded.
 */
const GUESSES = new Set(['unauthorized', 'invalid_credentials', 'not_found', 'enrolment_invalid', 'ip_not_allowed']);

/** The guards of every surface; built once per app from the domains' credential checks. */
export class Auth {
  readonly #checks: Authenticators;
  readonly #limits: AuthLimits;
  readonly #failures: FailureBudget;
  readonly #perAggregator: Limiter;

  private constructor(checks: Authenticators, limits: AuthLimits, perAggregator: Limiter) {
    this.#checks = checks;
    this.#limits = limits;
    this.#failures = new FailureBudget(limits.failedAttemptsPerMinute, MINUTE_MS);
    this.#perAggregator = perAggregator;
  }

  static async create(app: TypedApp, checks: Authenticators, limits: AuthLimits = DEFAULT_AUTH_LIMITS): Promise<Auth> {
    await app.register(rateLimit, { global: false });
    const perAggregator = app.createRateLimit({
      max: limits.aggregatorRequestsPerMinute,
      timeWindow: MINUTE_MS,
      keyGenerator: (request) => request.aggregator?.aggregatorId ?? request.ip,
    });
    return new Auth(checks, limits, perAggregator);
  }

  /** Admin API: a live staff token as Bearer, holding the permission. */
  staff(permission: Permission): Guard {
    const errors = [
      platformErrors.unauthorized,
      ...this.#checks.staff.errors,
      ...(permission === 'self' ? [] : [platformErrors.forbidden]),
    ];
    return guard({ security: [{ staffToken: [] }], errors }, async (request) => {
      const token = credential(request, TOKEN_PREFIX.staff, 'A staff token is required (Authorization: Bearer).');
      const staff = await this.#checks.staff.check(token);
      if (!staff) throw invalidToken('staff');
      if (!allows(staff, permission)) {
        const requiredRoles = rolesFor(permission);
        throw platformErrors.forbidden({ requiredRoles }, `This needs the role ${requiredRoles.join(' or ')}.`);
      }
      request.staff = staff;
      request.staffToken = token;
    });
  }

  /** Player calls from the iframe: `Authorization: Bearer <session token>`; logout needs only a live session. */
  player(options: { forLogout?: boolean } = {}): Guard {
    const errors = [platformErrors.unauthorized, ...this.#checks.player.errors];
    return guard({ security: [{ sessionToken: [] }], errors }, async (request) => {
      const token = credential(
        request,
        TOKEN_PREFIX.session,
        'A player session token is required (Authorization: Bearer).',
      );
      request.session = await this.#checks.player.check(token, {
        forLogout: options.forLogout === true,
        background: request.headers[BACKGROUND_HEADER] === 'background',
      });
    });
  }

  /**
   * A call that anyone may make, with more for a player (the change stream): no Authorization, anonymous; with one,
   * the session must be live, checked as the app's own background call (never session activity).
   */
  playerIfAny(): Guard {
    const errors = [platformErrors.unauthorized, ...this.#checks.player.errors];
    return guard({ security: [{}, { sessionToken: [] }], errors }, async (request) => {
      if (request.headers.authorization === undefined) return;
      const token = credential(request, TOKEN_PREFIX.session, 'A player session token is required.');
      request.session = await this.#checks.player.check(token, { forLogout: false, background: true });
    });
  }

  /** The casino's server: X-Tenant-ID and X-API-Key (its integration key). */
  tenantKey(): Guard {
    const errors = [platformErrors.rate_limited, ...this.#checks.tenant.errors];
    return guard({ security: [{ integrationKey: [] }], errors }, async (request) => {
      request.tenant = await this.#countingFailures(request, () =>
        this.#checks.tenant.check(header(request, 'x-tenant-id'), header(request, 'x-api-key'), request.ip),
      );
    });
  }

  /** A feed producer's process: its feed key as Bearer. Failed attempts count against the caller's address. */
  feed(): Guard {
    const errors = [platformErrors.unauthorized, platformErrors.rate_limited, ...this.#checks.feed.errors];
    return guard({ security: [{ feedKey: [] }], errors }, async (request) => {
      const key = bearerToken(request.headers.authorization);
      request.producer = await this.#countingFailures(request, async () => {
        if (!key) throw platformErrors.unauthorized(undefined, 'A feed key is required (Authorization: Bearer).');
        return this.#checks.feed.check(key);
      });
    });
  }

  /**
   * The aggregator API: server to server only (no Origin, no X-Tenant-ID), a live aggregator key holding the
   * scope, within the aggregator's request budget. Failed attempts count against the caller's IP.
   */
  aggregator(scope: AggregatorScope): Guard {
    const errors = [
      platformErrors.origin_not_allowed,
      platformErrors.tenant_header_not_allowed,
      platformErrors.scope_missing,
      platformErrors.rate_limited,
      ...this.#checks.aggregator.errors,
    ];
    return guard({ security: [{ aggregatorKey: [] }], errors }, async (request) => {
      request.aggregator = await this.#countingFailures(request, () => this.#aggregatorKey(request, scope));
      const budget = await this.#perAggregator(request);
      if (!budget.isAllowed && budget.isExceeded) {
        const limit = this.#limits.aggregatorRequestsPerMinute;
        throw platformErrors.rate_limited(
          { limit, windowSeconds: 60, retryAfterSeconds: 60 },
          `At most ${limit} requests per minute per aggregator.`,
        );
      }
    });
  }

  async #aggregatorKey(request: FastifyRequest, scope: AggregatorScope): Promise<AggregatorPrincipal> {
    if (request.headers.origin !== undefined) throw platformErrors.origin_not_allowed();
    if (request.headers['x-tenant-id'] !== undefined) throw platformErrors.tenant_header_not_allowed();
    const key = bearerToken(request.headers.authorization);
    if (!key?.startsWith(TOKEN_PREFIX.aggregatorKey)) {
      throw platformErrors.unauthorized(
        { reason: 'missing_key' },
        'An aggregator API key is required (Authorization: Bearer).',
      );
    }
    const principal = await this.#checks.aggregator.check(key, request.ip);
    if (!principal.scopes.includes(scope)) {
      throw platformErrors.scope_missing({ requiredScope: scope }, `This API key lacks the scope ${scope}.`);
    }
    return principal;
  }

  /**
   * Runs a credential check under the address's budget of failed attempts: over budget, 429 before any look-up.
   * The attempt holds a place while it runs; it keeps it only if the credential was refused as a guess. Floods of
   * bad credentials from one address cost a map look-up, not a query or a password hash.
   */
  async #countingFailures<T>(request: FastifyRequest, check: () => Promise<T>): Promise<T> {
    const reservation = this.#failures.reserve(request.ip);
    if (!('refund' in reservation)) {
      throw platformErrors.rate_limited(
        { retryAfterSeconds: reservation.retryAfterSeconds },
        'Too many failed attempts from this address; wait before trying again.',
      );
    }
    try {
      const result = await check();
      reservation.refund();
      return result;
    } catch (error) {
      if (!GUESSES.has((error as Partial<AppError>).code ?? '')) reservation.refund();
      throw error;
    }
  }

  /** For routes that check credentials themselves (staff login): the same per-IP budget of failures. */
  limitFailures<T>(request: FastifyRequest, check: () => Promise<T>): Promise<T> {
    return this.#countingFailures(request, check);
  }
}

/** The bearer token of the request, if it has the kind's prefix; 401 saying whether it is missing or wrong. */
function credential(request: FastifyRequest, prefix: string, missing: string): string {
  if (request.headers.authorization === undefined) throw platformErrors.unauthorized(undefined, missing);
  const token = bearerToken(request.headers.authorization);
  if (!token?.startsWith(prefix)) throw invalidToken(prefix === TOKEN_PREFIX.staff ? 'staff' : 'session');
  return token;
}

function invalidToken(kind: 'staff' | 'session'): AppError {
  return platformErrors.unauthorized(undefined, `The ${kind} token is invalid, expired or logged out.`);
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}
