/**
 * The values the idempotency domain's columns may hold, as data with no dependencies: the database CHECKs (spelled
 * out in the migrations) and the TypeScript types of the columns come from these lists.
 */

/** idempotency_records.state: claimed by a request in progress, or completed with its stored response. */
export const IDEMPOTENCY_STATES = ['in_progress', 'completed'] as const;
