/**
 * The values the integration domain's columns may hold, as data with no dependencies: the database CHECKs (spelled
 * out in the migrations) and the TypeScript types of the columns come from these lists.
 */

/** players.status: only an active player opens sessions and plays. */
export const PLAYER_STATUSES = ['active', 'blocked', 'paused', 'closed'] as const;

/** player_sessions.end_reason: why a session ended. */
export const SESSION_END_REASONS = ['logout', 'idle', 'expired', 'restricted', 'suspended'] as const;

/** session_tokens.issued_to: the casino's server, or the iframe that exchanged a launch token. */
export const SESSION_TOKEN_HOLDERS = ['server', 'iframe'] as const;
