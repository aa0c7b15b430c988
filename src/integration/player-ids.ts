import type { Queryable } from '../platform/db/database.ts';
import * as playerStore from './store/players.ts';

/**
 * Our id of a casino's player, from the casino's own id (externalPlayerId, unique within a tenant): for reads of
 * other domains that the casino filters by its own id (the money owed of one player). Undefined when the tenant has
 * no such player.
 */
export async function playerIdOf(q: Queryable, tenantId: string, externalId: string): Promise<string | undefined> {
  return (await playerStore.findPlayerOfTenant(q, tenantId, externalId))?.id;
}
