import { sql, type QueryCreator } from 'kysely';
import { runCompiled, type SlotOf } from '../platform/db/compiled.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Database } from '../platform/db/schema.ts';
import type { Player, PlayerStatus, SessionEndReason } from './tables.ts';

export interface NewPlayer {
  id: string;
  tenantId: string;
  externalId: string;
  displayName: string | undefined;
  now: Date;
}

export interface NewSession {
  id: string;
  createdAt: Date;
  expiresAt: Date;
  tokenHash: string;
  launchTokenHash: string;
  launchExpiresAt: Date;
}

/**
 * Finds or creates the player and, if the player may play, opens the session with its server token and launch
 * token: one statement, so it is one round trip and all or nothing. The player's row stays locked by the upsert
 * until the statement ends, so a concurrent block waits and then ends the new session with the others. Returns the
 * player with the session opened; undefined when the player exists but may not play, and then nothing was written
 * (not even the display name).
 */
export async function openSession(q: Queryable, player: NewPlayer, session: NewSession): Promise<Player | undefined> {
  const nameGiven = player.displayName !== undefined;
  const values = {
    playerId: player.id,
    tenantId: player.tenantId,
    externalId: player.externalId,
    displayName: player.displayName ?? 'Player',
    now: player.now,
    ...session,
  };
  const { rows } = await runCompiled(
    q,
    nameGiven ? 'open a session, the display name given' : 'open a session, the display name kept',
    (db, slot) => openSessionQuery(db, slot, nameGiven),
    values,
  );
  return rows[0];
}

function openSessionQuery(db: QueryCreator<Database>, slot: SlotOf, nameGiven: boolean) {
  const text = (key: string) => sql<string>`${slot(key)}::text`;
  const time = (key: string) => sql<Date>`${slot(key)}::timestamptz`;
  return db
    .with('player', (db) => upsertPlayer(db, slot, nameGiven))
    .with('session', (db) =>
      db
        .insertInto('player_sessions')
        .columns(['id', 'tenant_id', 'player_id', 'created_at', 'expires_at', 'last_activity_at'])
        .expression((eb) =>
          eb
            .selectFrom('player')
            .select([
              text('id').as('id'),
              'player.tenant_id',
              'player.id',
              time('createdAt').as('created_at'),
              time('expiresAt').as('expires_at'),
              time('createdAt').as('last_activity_at'),
            ])
            .where('player.status', '=', 'active'),
        )
        .returning(['id', 'tenant_id']),
    )
    .with('server_token', (db) =>
      db
        .insertInto('session_tokens')
        .columns(['token_hash', 'session_id', 'issued_to', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('session')
            .select([
              text('tokenHash').as('token_hash'),
              'session.id',
              sql<'server'>`'server'`.as('issued_to'),
              time('createdAt').as('created_at'),
            ]),
        ),
    )
    .with('launch_token', (db) =>
      db
        .insertInto('launch_tokens')
        .columns(['token_hash', 'tenant_id', 'session_id', 'created_at', 'expires_at'])
        .expression((eb) =>
          eb
            .selectFrom('session')
            .select([
              text('launchTokenHash').as('token_hash'),
              'session.tenant_id',
              'session.id',
              time('createdAt').as('created_at'),
              time('launchExpiresAt').as('expires_at'),
            ]),
        ),
    )
    .selectFrom('player')
    .selectAll();
}

/**
 * Finds or creates the player in one statement, so concurrent first sessions of one id make one player. An
 * existing player is updated (and returned) only while active; a restricted one is locked all the same (PostgreSQL
 * locks the conflicting row whether or not the update's condition holds) but left as it was.
 */
function upsertPlayer(q: QueryCreator<Database>, slot: SlotOf, nameGiven: boolean) {
  return q
    .insertInto('players')
    .values({
      id: slot('playerId'),
      tenant_id: slot('tenantId'),
      external_id: slot('externalId'),
      display_name: slot('displayName'),
      kyc_status: 'verified',
      created_at: slot('now'),
      updated_at: slot('now'),
    })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'external_id'])
        .doUpdateSet((eb) =>
          nameGiven
            ? {
                display_name: eb.ref('excluded.display_name'),
                updated_at: sql<Date>`case when players.display_name = excluded.display_name then players.updated_at else excluded.updated_at end`,
              }
            : { updated_at: eb.ref('players.updated_at') },
        )
        .where('players.status', '=', 'active'),
    )
    .returningAll();
}

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

export function findPlayer(q: Queryable, id: string) {
  return q.selectFrom('players').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The launch exchange, in one statement: the token is checked (tenant, unused, unexpired, session alive) and marked
 * used, the iframe's session token is issued, and the session's activity recorded, so of any number of concurrent
 * exchanges exactly one gets the player back, and a token is never used without a session token to show for it.
 */
export async function exchangeLaunchToken(
  q: Queryable,
  exchange: { tokenHash: string; tenantId: string; now: Date; idleCutoff: Date; sessionTokenHash: string },
): Promise<Player | undefined> {
  const { rows } = await runCompiled(q, 'exchange a launch token', exchangeQuery, exchange);
  return rows[0];
}

function exchangeQuery(db: QueryCreator<Database>, slot: SlotOf) {
  const now = sql<Date>`${slot('now')}::timestamptz`;
  // The token is found by its unique key first, whatever the planner's statistics say: a plan kept for the prepared
  // statement must never start from the sessions (after a burst of new ones it once scanned them all every time).
  return db
    .with(
      (cte) => cte('token').materialized(),
      (db) =>
        db
          .selectFrom('launch_tokens')
          .select(['token_hash', 'session_id'])
          .where('token_hash', '=', slot<string>('tokenHash'))
          .where('tenant_id', '=', slot<string>('tenantId')),
    )
    .with('claimed', (db) =>
      db
        .updateTable('launch_tokens')
        .from(['token', 'player_sessions', 'players'])
        .set({ used_at: slot('now') })
        .whereRef('launch_tokens.token_hash', '=', 'token.token_hash')
        .whereRef('player_sessions.id', '=', 'token.session_id')
        .whereRef('players.id', '=', 'player_sessions.player_id')
        .where('players.status', '=', 'active')
        .where('launch_tokens.used_at', 'is', null)
        .where('launch_tokens.expires_at', '>=', slot<Date>('now'))
        .where('player_sessions.ended_at', 'is', null)
        .where('player_sessions.expires_at', '>', slot<Date>('now'))
        .where('player_sessions.last_activity_at', '>', slot<Date>('idleCutoff'))
        .returning(['launch_tokens.session_id', 'players.id as player_id']),
    )
    .with('issued', (db) =>
      db
        .insertInto('session_tokens')
        .columns(['token_hash', 'session_id', 'issued_to', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('claimed')
            .select([
              sql<string>`${slot('sessionTokenHash')}::text`.as('token_hash'),
              'claimed.session_id',
              sql<'iframe'>`'iframe'`.as('issued_to'),
              now.as('created_at'),
            ]),
        ),
    )
    .with('touched', (db) =>
      db
        .updateTable('player_sessions')
        .from('claimed')
        .set({ last_activity_at: slot('now') })
        .whereRef('player_sessions.id', '=', 'claimed.session_id')
        .where('player_sessions.ended_at', 'is', null),
    )
    .selectFrom('players')
    .innerJoin('claimed', 'claimed.player_id', 'players.id')
    .selectAll('players');
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
