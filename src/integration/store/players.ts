import type { Queryable } from '../../platform/db/database.ts';
import type { Player, PlayerStatus } from '../tables.ts';

export function findPlayerByExternalId(q: Queryable, tenantId: string, externalId: string) {
  return q
    .selectFrom('players')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('external_id', '=', externalId)
    .executeTakeFirstOrThrow();
}

/** The player the casino knows by `externalId` in the tenant, if any. */
export function findPlayerOfTenant(q: Queryable, tenantId: string, externalId: string) {
  return q
    .selectFrom('players')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

/** The casino's own ids of these players, by our ids. */
export async function externalIdsOf(q: Queryable, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await q.selectFrom('players').select(['id', 'external_id']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, row.external_id]));
}

export function findPlayer(q: Queryable, id: string) {
  return q.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
}

export function setPlayerStatus(q: Queryable, playerId: string, status: PlayerStatus, now: Date): Promise<Player> {
  return q
    .updateTable('players')
    .set({ status, updated_at: now })
    .where('id', '=', playerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function setStakeFactor(q: Queryable, playerId: string, factorBp: number, now: Date): Promise<void> {
  await q
    .updateTable('players')
    .set({ stake_factor_bp: factorBp, updated_at: now })
    .where('id', '=', playerId)
    .execute();
}
