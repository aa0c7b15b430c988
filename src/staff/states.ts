/**
 * The values the staff domain's columns may hold, as data with no dependencies: the database CHECKs (spelled out in
 * the migrations) and the TypeScript types of the columns come from these lists.
 */

/** staff_users.status: active accounts log in; disabled ones never again. */
export const STAFF_STATUSES = ['active', 'disabled'] as const;
