import type { Clock } from '../platform/clock.ts';
import { sha256Hex } from '../platform/crypto.ts';
import type { Db } from '../platform/db/database.ts';
import { platformErrors, type ErrorFactory } from '../platform/errors.ts';
import type { AggregatorPrincipal, AggregatorScope } from '../platform/http/principals.ts';
import type { AggregatorAuthorization } from './tables.ts';
import * as store from './store.ts';

/** A key's last use is written at most this often (at most one write a minute per key). */
const KEY_TOUCH_INTERVAL_MS = 60_000;

const unauthorizedKey = (reason: string, message: string) => platformErrors.unauthorized({ reason }, message);

/** What the aggregator key check can refuse with (details.reason), for the API documents. */
export const AGGREGATOR_KEY_ERRORS: readonly ErrorFactory[] = [platformErrors.unauthorized];

/** The aggregator key check behind `auth.aggregator(scope)`, on every route of the aggregator API. */
export class AggregatorAuthentication {
  readonly #db: Db;
  readonly #clock: Clock;

  constructor(deps: { db: Db; clock: Clock }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
  }

  /** The key must be live and its aggregator's authorization enabled and unexpired. */
  async authenticate(key: string): Promise<AggregatorPrincipal> {
    const row = await store.findKeyByHash(this.#db, sha256Hex(key));
    if (!row) throw unauthorizedKey('invalid_key', 'The API key is not valid.');
    const now = this.#clock.now();
    if (row.revoked_at) throw unauthorizedKey('key_revoked', 'The API key has been revoked.');
    if (row.expires_at <= now) throw unauthorizedKey('key_expired', 'The API key has expired.');
    checkAuthorizationLive(await store.findAuthorization(this.#db, row.aggregator_id), now);
    const notSince = new Date(now.getTime() - KEY_TOUCH_INTERVAL_MS);
    if (row.last_used_at === null || row.last_used_at <= notSince)
      await store.touchKey(this.#db, row.id, now, notSince);
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
