import { sql } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { FavouriteKind, OddsChangeAcceptance, OddsFormat } from './tables.ts';

/** Whose preferences: the player, within the tenant environment of their session. */
export interface Owner {
  tenantId: string;
  playerId: string;
}

/** The player's favourites, newest first. */
export function favouritesOf(q: Queryable, owner: Owner) {
  return q
    .selectFrom('player_favourites')
    .select(['kind', 'target_id', 'created_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('player_id', '=', owner.playerId)
    .orderBy('created_at', 'desc')
    .orderBy('kind')
    .orderBy('target_id')
    .execute();
}

/**
 * Serialises the additions of one player's favourites until the caller's transaction ends, so that two made at once
 * both count each other against the limit, and the second of two adding the same one finds the first's row.
 */
export async function lockFavouritesOf(q: Queryable, owner: Owner): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`favourites:${owner.playerId}`}, 0))`.execute(q);
}

export function findFavourite(q: Queryable, owner: Owner, kind: FavouriteKind, targetId: string) {
  return q
    .selectFrom('player_favourites')
    .select(['kind', 'target_id', 'created_at'])
    .where('tenant_id', '=', owner.tenantId)
    .where('player_id', '=', owner.playerId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirst();
}

export async function countFavourites(q: Queryable, owner: Owner): Promise<number> {
  const row = await q
    .selectFrom('player_favourites')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', owner.tenantId)
    .where('player_id', '=', owner.playerId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertFavourite(
  q: Queryable,
  owner: Owner,
  favourite: { kind: FavouriteKind; targetId: string; at: Date },
): Promise<void> {
  await q
    .insertInto('player_favourites')
    .values({
      player_id: owner.playerId,
      tenant_id: owner.tenantId,
      kind: favourite.kind,
      target_id: favourite.targetId,
      created_at: favourite.at,
    })
    .execute();
}

export async function deleteFavourite(q: Queryable, owner: Owner, kind: FavouriteKind, targetId: string) {
  await q
    .deleteFrom('player_favourites')
    .where('tenant_id', '=', owner.tenantId)
    .where('player_id', '=', owner.playerId)
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .execute();
}

/** A player's settings as the store reads and writes them. */
export interface Settings {
  odds_format: OddsFormat | null;
  accept_odds_changes: OddsChangeAcceptance;
  quick_stakes: number[] | null;
}

export function settingsOf(q: Queryable, owner: Owner): Promise<Settings | undefined> {
  return q
    .selectFrom('player_settings')
    .select(['odds_format', 'accept_odds_changes', 'quick_stakes'])
    .where('tenant_id', '=', owner.tenantId)
    .where('player_id', '=', owner.playerId)
    .executeTakeFirst();
}

/**
 * Writes the settings `change` names, and only those, in one statement: the first change makes the player's row,
 * from `defaults` for the others. Two devices changing different settings at once both keep their change.
 */
export function saveSettings(
  q: Queryable,
  owner: Owner,
  change: Partial<Settings>,
  defaults: Settings,
  at: Date,
): Promise<Settings> {
  return q
    .insertInto('player_settings')
    .values({ player_id: owner.playerId, tenant_id: owner.tenantId, ...columns({ ...defaults, ...change }, at) })
    .onConflict((oc) => oc.column('player_id').doUpdateSet(columns(change, at)))
    .returning(['odds_format', 'accept_odds_changes', 'quick_stakes'])
    .executeTakeFirstOrThrow();
}

/** Settings as columns: quick stakes as JSON text, with the time of the change. */
function columns<T extends Partial<Settings>>(settings: T, at: Date) {
  const { quick_stakes: stakes, ...others } = settings;
  const quickStakes = stakes === undefined ? {} : { quick_stakes: stakes && JSON.stringify(stakes) };
  return { ...others, ...quickStakes, updated_at: at };
}
