/**
 * The values the preferences domain's columns may hold, as data with no dependencies: the CHECKs of migration
 * 0019 spell out the same lists, and the column types come from these.
 */

/** What a player can mark as a favourite: an event, or a competition (all its events). */
export const FAVOURITE_KINDS = ['event', 'competition'] as const;

/** How the app shows odds; the player's choice wins over the locale's default and the casino's mount option. */
export const ODDS_FORMATS = ['decimal', 'fractional', 'american'] as const;
