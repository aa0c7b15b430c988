/**
 * The values the catalog domain's columns may hold, as data with no dependencies: the database CHECKs (spelled out
 * in the migrations) and the TypeScript types of the columns come from these lists.
 */

export const EVENT_STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;

/**
 * events.period: where a live event stands, one vocabulary for every sport (halves, quarters, sets, periods, and the
 * breaks between them), so the apps can name it in each language. Traders and the feed set it; it is not checked
 * against the sport, whose names are the trader's own.
 */
export const LIVE_PERIODS = [
  'first_half',
  'half_time',
  'second_half',
  'extra_time_first_half',
  'extra_time_half_time',
  'extra_time_second_half',
  'penalties',
  'quarter_1',
  'quarter_2',
  'quarter_3',
  'quarter_4',
  'overtime',
  'period_1',
  'period_2',
  'period_3',
  'set_1',
  'set_2',
  'set_3',
  'set_4',
  'set_5',
  'break',
] as const;

/** events.clock_direction: a football clock counts the minutes played up; a basketball clock counts the quarter down. */
export const CLOCK_DIRECTIONS = ['up', 'down'] as const;

/**
 * markets.control: who sets a market's prices and status. A market a producer created is the feed's until a trader
 * changes it (or takes it over); a trader's market, or one taken over, is the trader's until given back.
 */
export const MARKET_CONTROLS = ['feed', 'trader'] as const;

/** markets.status; traders set the first three, settlement the last. */
export const MARKET_STATES = ['open', 'suspended', 'closed', 'settled'] as const;

/** markets.type: what a market is about; its name, line and outcomes follow from it (catalog/market-rules.ts). */
export const MARKET_TYPES = [
  'match_result',
  'moneyline',
  'totals',
  'handicap',
  'both_teams_to_score',
  'correct_score',
  'double_chance',
  'draw_no_bet',
  'half_time_result',
  'first_half_moneyline',
  'set_betting',
  'first_set_winner',
] as const;

/**
 * What a selection's result can be. half_won and half_lost exist for quarter lines (2.25, -0.75): half the stake
 * is settled on each neighbouring line, so half wins (or loses) and half is refunded.
 */
export const SELECTION_RESULTS = ['won', 'lost', 'void', 'half_won', 'half_lost'] as const;
