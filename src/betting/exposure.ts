import type { Tx } from '../platform/db/database.ts';
import type { StatementPart } from '../platform/db/one-statement.ts';
import type { Tenant } from '../tenants/tables.ts';
import type { Bet } from './tables.ts';
import { bettingErrors } from './errors.ts';
import * as exposureStore from './store/exposure.ts';

/**
 * Liability (potential payout minus stake) is reserved on every selection and event of the bet, in the statement
 * that records it (as its last parts, only if the part `gate` wrote the bet), and given back exactly once when the
 * stake is refused or rolled back. `check` refuses the bet unless every reservation was made; the caller's
 * transaction then undoes the others.
 */
export function reserveExposure(
  tenant: Tenant,
  bet: { id: string; liability: number },
  legs: Array<{ id: string; event_id: string }>,
  gate: string,
): { parts: StatementPart[]; check(written: Record<string, unknown[]>): void } {
  const limits = { selection: tenant.max_selection_liability, event: tenant.max_event_liability };
  // Always the same order, so two bets on the same rows never lock them in opposite orders.
  const reservations = [
    ...legs.map((leg) => ({ scope: 'selection' as const, refId: leg.id })),
    ...legs.map((leg) => ({ scope: 'event' as const, refId: leg.event_id })),
  ].sort((a, b) => (a.scope + a.refId < b.scope + b.refId ? -1 : 1));
  const tooLarge = reservations.find((reservation) => bet.liability > limits[reservation.scope]);
  if (tooLarge) throw bettingErrors.exposure_limit({ scope: tooLarge.scope, id: tooLarge.refId });
  const reserving = { id: bet.id, tenantId: tenant.id, liability: bet.liability };
  const statement = exposureStore.reserveExposureParts('reserved', reserving, limits, reservations, gate);
  return {
    parts: statement.parts,
    check(written) {
      const reserved = statement.reservedIn(written);
      const full = reservations.find(
        (reservation) => !reserved.some((row) => row.scope === reservation.scope && row.refId === reservation.refId),
      );
      if (full) throw bettingErrors.exposure_limit({ scope: full.scope, id: full.refId });
    },
  };
}

/** Given back when the stake is refused or rolled back, when the bet is settled, or when it is fully cashed out. */
export function releaseExposure(tx: Tx, bets: Array<Pick<Bet, 'id' | 'tenant_id'>>, now: Date): Promise<void> {
  return exposureStore.shiftBetExposure(tx, { released: bets, reopened: [] }, now);
}

/**
 * A settlement's change to exposure: bets that settle give back what they reserved; bets that a resettlement opens
 * again hold again exactly what an open bet with the same legs holds (what they reserved when placed), whatever the
 * limits say now, since the book already took them. A later bet then finds the limits as full as they are.
 */
export function settleExposure(
  tx: Tx,
  change: { settled: Array<Pick<Bet, 'id' | 'tenant_id'>>; reopened: Array<Pick<Bet, 'id' | 'tenant_id'>> },
  now: Date,
): Promise<void> {
  return exposureStore.shiftBetExposure(tx, { released: change.settled, reopened: change.reopened }, now);
}
