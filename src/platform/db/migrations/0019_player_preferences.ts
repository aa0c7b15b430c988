import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * What a player keeps on the server so that it follows them across devices and launches: favourite events and
 * competitions, and settings (odds format, which odds changes a slip accepts, quick stake amounts). Rows belong to
 * the player row, which is per tenant environment; they are kept as long as the player is. The catalog never deletes
 * events or competitions, so a favourite's target has no foreign key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table player_favourites (
      player_id text not null references players(id),
      tenant_id text not null references tenants(id),
      kind text not null ${oneOf('kind', ['event', 'competition'])},
      target_id text not null,
      created_at timestamptz not null,
      primary key (player_id, kind, target_id)
    )`.execute(db);

  // No row: every setting at its default. A null odds format or quick stakes: the app's own default.
  await sql`
    create table player_settings (
      player_id text primary key references players(id),
      tenant_id text not null references tenants(id),
      odds_format text ${oneOf('odds_format', ['decimal', 'fractional', 'american'])},
      accept_odds_changes text not null ${oneOf('accept_odds_changes', ['none', 'higher', 'any'])},
      quick_stakes jsonb check (quick_stakes is null or jsonb_typeof(quick_stakes) = 'array'),
      updated_at timestamptz not null
    )`.execute(db);
}
