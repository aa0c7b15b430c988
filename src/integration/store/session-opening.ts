import { sql, type QueryCreator } from 'kysely';
import { runCompiled, type SlotOf } from '../../platform/db/compiled.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { Player } from '../tables.ts';

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
