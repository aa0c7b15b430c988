/**
 * The values the aggregator domain's columns may hold, as data with no dependencies: the database CHECKs (spelled
 * out in the migrations) and the TypeScript types of the columns come from these lists.
 */

/** clients.status: created suspended, active once both wallets passed activation. */
export const CLIENT_STATUSES = ['suspended', 'active'] as const;
