/**
 * The values the catalog domain's columns may hold, as data with no dependencies: the database CHECKs (spelled out
 * in the migrations) and the TypeScript types of the columns come from these lists.
 */

export const EVENT_STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;

/** markets.status; traders set the first three, settlement the last. */
export const MARKET_STATES = ['open', 'suspended', 'closed', 'settled'] as const;

export const MARKET_TYPES = [
  'match_result',
  'moneyline',
  'totals',
  'handicap',
  'both_teams_to_score',
  'correct_score',
] as const;

/**
 * What a selection's result can be. half_won and half_lost exist for quarter lines (2.25, -0.75): half the stake
 * is settled on each neighbouring line, so half wins (or loses) and half is refunded.
 */
export const SELECTION_RESULTS = ['won', 'lost', 'void', 'half_won', 'half_lost'] as const;
