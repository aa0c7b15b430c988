import type { Queryable } from '../../platform/db/database.ts';
import type { SessionEndReason } from '../tables.ts';

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
      'players.stake_factor_bp as stakeFactorBp',
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
