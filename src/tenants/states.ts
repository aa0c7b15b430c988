/**
 * The values the tenants domain's columns may hold, as data with no dependencies: the database CHECKs (spelled out
 * in the migrations) and the TypeScript types of the columns come from these lists.
 */

export const ENVIRONMENTS = ['production', 'sandbox'] as const;

/** tenants.status: a suspended tenant opens no sessions and takes no bets. */
export const TENANT_STATUSES = ['suspended', 'active'] as const;

/** tenants.wallet_mode: every tenant is a seamless-wallet tenant. */
export const WALLET_MODES = ['seamless'] as const;
