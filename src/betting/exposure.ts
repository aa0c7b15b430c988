import type { Tx } from '../platform/db/database.ts';
import type { Bet, Tenant } from '../platform/db/schema.ts';
import { bettingErrors } from './errors.ts';
import * as store from './store.ts';

/**
 * Liability (potential payout minus stake) is reserved on every selection and event of the bet, in the transaction
 * that records it, and given back exactly once when the stake is refused or rolled back.
 */
export async function reserveExposure(
  tx: Tx,
  tenant: Tenant,
  betId: string,
  liability: number,
  legs: Array<{ id: string; event_id: string }>,
): Promise<void> {
  // Always the same order, so two bets on the same rows never lock them in opposite orders.
  const reservations = [
    ...legs.map((leg) => ({ scope: 'selection' as const, refId: leg.id, limit: tenant.max_selection_liability })),
    ...legs.map((leg) => ({ scope: 'event' as const, refId: leg.event_id, limit: tenant.max_event_liability })),
  ].sort((a, b) => (a.scope + a.refId < b.scope + b.refId ? -1 : 1));
  for (const reservation of reservations) {
    const reserved = await store.reserveExposure(tx, { tenantId: tenant.id, ...reservation, amount: liability });
    if (!reserved) throw bettingErrors.exposure_limit({ scope: reservation.scope, id: reservation.refId });
  }
  await store.recordBetExposure(
    tx,
    reservations.map((reservation) => ({
      betId,
      scope: reservation.scope,
      refId: reservation.refId,
      amount: liability,
    })),
  );
}

/** Given back when the stake is refused or rolled back, when the bet is settled, or when it is fully cashed out. */
export function releaseExposure(tx: Tx, bets: Array<Pick<Bet, 'id' | 'tenant_id'>>, now: Date): Promise<void> {
  return store.releaseBetExposure(tx, bets, now);
}
