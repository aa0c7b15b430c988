import { sql, type QueryCreator } from 'kysely';
import { runCompiled, type SlotOf } from '../../platform/db/compiled.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { Player } from '../tables.ts';

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

/** Used and expired launch records are kept one day for investigations, then deleted. */
export async function deleteOldLaunchTokens(q: Queryable, cutoff: Date): Promise<number> {
  // A token is always used before it expires, so expiry alone finds both kinds (and uses its index).
  const result = await q.deleteFrom('launch_tokens').where('expires_at', '<', cutoff).executeTakeFirst();
  return Number(result.numDeletedRows);
}
