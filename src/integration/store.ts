import { sql } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { Player, PlayerSession, PlayerStatus, SessionEndReason } from '../platform/db/schema.ts';

/** Finds or creates the player in one statement, so concurrent first sessions of one id make one player. */
export function upsertPlayer(
  q: Queryable,
  row: { id: string; tenantId: string; externalId: string; displayName: string | undefined; now: Date },
): Promise<Player> {
  return q
    .insertInto('players')
    .values({
      id: row.id,
      tenant_id: row.tenantId,
      external_id: row.externalId,
      display_name: row.displayName ?? 'Player',
      kyc_status: 'verified',
      created_at: row.now,
      updated_at: row.now,
    })
    .onConflict((oc) =>
      oc.columns(['tenant_id', 'external_id']).doUpdateSet((eb) =>
        row.displayName === undefined
          ? { updated_at: eb.ref('players.updated_at') }
          : {
              display_name: eb.ref('excluded.display_name'),
              updated_at: sql<Date>`case when players.display_name = excluded.display_name then players.updated_at else excluded.updated_at end`,
            },
      ),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findPlayer(q: Queryable, id: string) {
  return q.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertSession(
  q: Queryable,
  session: Omit<PlayerSession, 'ended_at' | 'end_reason'>,
): Promise<void> {
  await q.insertInto('player_sessions').values(session).execute();
}

export async function insertSessionToken(
  q: Queryable,
  row: { tokenHash: string; sessionId: string; issuedTo: 'server' | 'iframe'; now: Date },
) {
  await q
    .insertInto('session_tokens')
    .values({ token_hash: row.tokenHash, session_id: row.sessionId, issued_to: row.issuedTo, created_at: row.now })
    .execute();
}

export async function insertLaunchToken(
  q: Queryable,
  row: { tokenHash: string; tenantId: string; sessionId: string; createdAt: Date; expiresAt: Date },
) {
  await q
    .insertInto('launch_tokens')
    .values({
      token_hash: row.tokenHash,
      tenant_id: row.tenantId,
      session_id: row.sessionId,
      created_at: row.createdAt,
      expires_at: row.expiresAt,
    })
    .execute();
}

/**
 * The launch exchange: the token is checked (tenant, unused, unexpired, session alive) and marked used by this
 * one statement, so of any number of concurrent exchanges exactly one gets a row back.
 */
export async function consumeLaunchToken(
  q: Queryable,
  check: { tokenHash: string; tenantId: string; now: Date; idleCutoff: Date },
): Promise<string | undefined> {
  const row = await q
    .updateTable('launch_tokens')
    .from(['player_sessions', 'players'])
    .set({ used_at: check.now })
    .whereRef('player_sessions.id', '=', 'launch_tokens.session_id')
    .whereRef('players.id', '=', 'player_sessions.player_id')
    .where('players.status', '=', 'active')
    .where('launch_tokens.token_hash', '=', check.tokenHash)
    .where('launch_tokens.tenant_id', '=', check.tenantId)
    .where('launch_tokens.used_at', 'is', null)
    .where('launch_tokens.expires_at', '>=', check.now)
    .where('player_sessions.ended_at', 'is', null)
    .where('player_sessions.expires_at', '>', check.now)
    .where('player_sessions.last_activity_at', '>', check.idleCutoff)
    .returning('launch_tokens.session_id')
    .executeTakeFirst();
  return row?.session_id;
}

export function findLaunchToken(q: Queryable, tokenHash: string) {
  return q.selectFrom('launch_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

export function findSessionByToken(q: Queryable, tokenHash: string) {
  return q
    .selectFrom('session_tokens')
    .innerJoin('player_sessions', 'player_sessions.id', 'session_tokens.session_id')
    .innerJoin('players', 'players.id', 'player_sessions.player_id')
    .select([
      'player_sessions.id as sessionId',
      'player_sessions.tenant_id as tenantId',
      'player_sessions.expires_at as expiresAt',
      'player_sessions.last_activity_at as lastActivityAt',
      'player_sessions.ended_at as endedAt',
      'players.id as playerId',
      'players.external_id as externalPlayerId',
      'players.status as playerStatus',
    ])
    .where('session_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export function findSession(q: Queryable, sessionId: string) {
  return q.selectFrom('player_sessions').selectAll().where('id', '=', sessionId).executeTakeFirst();
}

export async function touchSession(q: Queryable, sessionId: string, now: Date): Promise<void> {
  await q
    .updateTable('player_sessions')
    .set({ last_activity_at: now })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

export async function endSession(q: Queryable, sessionId: string, now: Date, reason: SessionEndReason): Promise<void> {
  await q
    .updateTable('player_sessions')
    .set({ ended_at: now, end_reason: reason })
    .where('id', '=', sessionId)
    .where('ended_at', 'is', null)
    .execute();
}

/** Used and expired launch records are kept one day for investigations, then deleted. */
export async function deleteOldLaunchTokens(q: Queryable, cutoff: Date): Promise<number> {
  // A token is always used before it expires, so expiry alone finds both kinds (and uses its index).
  const result = await q.deleteFrom('launch_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function setPlayerStatus(q: Queryable, playerId: string, status: PlayerStatus, now: Date): Promise<Player> {
  return q
    .updateTable('players')
    .set({ status, updated_at: now })
    .where('id', '=', playerId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Ends every open session of a player or of tenants: a restriction or suspension ends sessions, not pauses them. */
export async function endOpenSessions(
  q: Queryable,
  filter: { playerId: string } | { tenantIds: string[] },
  now: Date,
  reason: SessionEndReason,
): Promise<void> {
  if ('tenantIds' in filter && filter.tenantIds.length === 0) return;
  let query = q.updateTable('player_sessions').set({ ended_at: now, end_reason: reason }).where('ended_at', 'is', null);
  query =
    'playerId' in filter
      ? query.where('player_id', '=', filter.playerId)
      : query.where('tenant_id', 'in', filter.tenantIds);
  await query.execute();
}
