import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { sha256Hex } from '../platform/crypto.ts';
import type { Db } from '../platform/db/database.ts';
import { platformErrors, type ErrorFactory } from '../platform/errors.ts';
import type { AggregatorPrincipal, AggregatorScope } from '../platform/http/principals.ts';
import { addressAllowed } from './allowed-ips.ts';
import { aggregatorErrors } from './errors.ts';
import type { AggregatorAuthorization } from './tables.ts';
import * as store from './store.ts';

/** A key's last use is written at most this often (at most one write a minute per key). */
const KEY_TOUCH_INTERVAL_MS = 60_000;

const unauthorizedKey = (reason: string, message: string) => platformErrors.unauthorized({ reason }, message);

/** What the aggregator key check can refuse with (details.reason), for the API documents. */
export const AGGREGATOR_KEY_ERRORS: readonly ErrorFactory[] = [
  platformErrors.unauthorized,
  aggregatorErrors.ip_not_allowed,
];

type AggregatorAuthenticationDeps = { db: Db; clock: Clock; audit: AuditLog };

/** The aggregator key check behind `auth.aggregator(scope)`, on every route of the aggregator API. */
export class AggregatorAuthentication {
  readonly #deps: AggregatorAuthenticationDeps;

  constructor(deps: AggregatorAuthenticationDeps) {
    this.#deps = deps;
  }

  /**
   * The key must be live, its aggregator's authorization enabled and unexpired, and the caller's address (`ip`, as
   * TRUST_PROXY determines it) within the authorization's allowedIps when it has any: otherwise 403 `ip_not_allowed`,
   * audited as denied.
   */
  async authenticate(key: string, ip: string): Promise<AggregatorPrincipal> {
    const row = await store.findKeyByHash(this.#deps.db, sha256Hex(key));
    if (!row) throw unauthorizedKey('invalid_key', 'The API key is not valid.');
    const now = this.#deps.clock.now();
    if (row.revoked_at) throw unauthorizedKey('key_revoked', 'The API key has been revoked.');
    if (row.expires_at <= now) throw unauthorizedKey('key_expired', 'The API key has expired.');
    const authorization = checkAuthorizationLive(await store.findAuthorization(this.#deps.db, row.aggregator_id), now);
    if (!addressAllowed(authorization.allowed_ips, ip)) {
      await this.#deps.audit.record(this.#deps.db, {
        actor: { type: 'aggregator', id: row.aggregator_id },
        action: 'aggregator.authenticate',
        target: { type: 'aggregator', id: row.aggregator_id },
        outcome: 'denied',
        ip,
        details: { reason: 'ip_not_allowed', keyId: row.id, version: authorization.version },
      });
      throw aggregatorErrors.ip_not_allowed(
        { ip },
        `Requests from ${ip} are not allowed by your aggregator authorization; ask the platform to add this ` +
          'address to its allowed source IPs, or call from an allowed address.',
      );
    }
    const notSince = new Date(now.getTime() - KEY_TOUCH_INTERVAL_MS);
    if (row.last_used_at === null || row.last_used_at <= notSince)
      await store.touchKey(this.#deps.db, row.id, now, notSince);
    return { aggregatorId: row.aggregator_id, keyId: row.id, scopes: row.scopes as AggregatorScope[] };
  }
}

/**
 * The authorization exists, is enabled and has not expired; otherwise the aggregator has no API access. Checked with
 * the key, and again by the use cases that read the authorization in their own transaction.
 */
export function checkAuthorizationLive(
  authorization: AggregatorAuthorization | undefined,
  now: Date,
): AggregatorAuthorization {
  if (!authorization) throw unauthorizedKey('authorization_missing', 'Your aggregator has no authorization yet.');
  if (!authorization.enabled)
    throw unauthorizedKey('authorization_disabled', 'Your aggregator authorization is disabled.');
  if (authorization.expires_at <= now)
    throw unauthorizedKey('authorization_expired', 'Your aggregator authorization has expired.');
  return authorization;
}
