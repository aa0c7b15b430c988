import type { ColumnType } from 'kysely';
import type { OneOf } from '../platform/db/schema.ts';
import type { ODDS_CHANGE_ACCEPTANCE } from '../betting/states.ts';
import type { FAVOURITE_KINDS, ODDS_FORMATS } from './states.ts';

/**
 * The preferences domain's tables as Kysely sees them: a player's favourites and settings, each row the player's
 * (players are per tenant environment, so a sandbox player's are apart from production's). Each is added to the one
 * Database type (platform/db/schema.ts) here, so the platform never imports a domain; only this domain's store reads
 * and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    player_favourites: PlayerFavouritesTable;
    player_settings: PlayerSettingsTable;
  }
}

export type FavouriteKind = OneOf<typeof FAVOURITE_KINDS>;
export type OddsFormat = OneOf<typeof ODDS_FORMATS>;
export type OddsChangeAcceptance = OneOf<typeof ODDS_CHANGE_ACCEPTANCE>;

interface PlayerFavouritesTable {
  player_id: string;
  tenant_id: string;
  kind: FavouriteKind;
  /** The catalog's id of the event or competition. */
  target_id: string;
  created_at: Date;
}

interface PlayerSettingsTable {
  player_id: string;
  tenant_id: string;
  /** Null: not chosen; the app follows the locale's default (or the casino's mount option). */
  odds_format: OddsFormat | null;
  accept_odds_changes: OddsChangeAcceptance;
  /** A JSON array of 1 to 4 amounts in minor units; null: not chosen, the app's own buttons. */
  quick_stakes: ColumnType<number[] | null, string | null, string | null>;
  updated_at: Date;
}
