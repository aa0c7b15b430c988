// What the aggregator API's use cases check of a client and of the authorization before they change anything.
import type { Db, Tx } from '../platform/db/database.ts';
import { notFound } from '../platform/errors.ts';
import type { AggregatorPrincipal } from '../platform/http/principals.ts';
import { aggregatorErrors } from './errors.ts';
import type { AggregatorAuthorization, Client } from './tables.ts';
import * as store from './store.ts';

/** Another aggregator's client is answered exactly like one that does not exist. */
export async function ownedClient(
  q: Db | Tx,
  principal: AggregatorPrincipal,
  clientId: string,
  lock = false,
): Promise<Client> {
  const client = await store.findClient(q, clientId, { lock });
  if (!client || client.aggregator_id !== principal.aggregatorId) throw notFound('Client');
  return client;
}

/** What the platform holds (a suspension, revoked credentials) only the platform lifts. */
export function checkNoPlatformHold(client: Client): void {
  if (client.platform_suspended_at) {
    throw aggregatorErrors.suspended_by_platform();
  }
  if (client.credentials_revoked_at) {
    throw aggregatorErrors.credentials_revoked_by_platform();
  }
}

export function checkWithinAuthorization(
  authorization: AggregatorAuthorization,
  wanted: { currency: string; jurisdiction: string; territories: string[]; walletOrigins: string[] },
): void {
  const refuse = (field: string, value: string) =>
    aggregatorErrors.not_authorized({ field, value }, `Your authorization does not cover ${field} ${value}.`);
  if (!authorization.currencies.includes(wanted.currency)) throw refuse('currency', wanted.currency);
  if (!authorization.jurisdictions.includes(wanted.jurisdiction)) throw refuse('jurisdiction', wanted.jurisdiction);
  const territory = wanted.territories.find((candidate) => !authorization.territories.includes(candidate));
  if (territory) throw refuse('territories', territory);
  const origin = wanted.walletOrigins.find((candidate) => !authorization.wallet_origins.includes(candidate));
  if (origin) throw refuse('walletOrigin', origin);
}
