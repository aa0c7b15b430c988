import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { after, jsonRows, type StatementPart } from '../../platform/db/one-statement.ts';

/**
 * Reserves liability against a limit in one statement: the row only grows while it stays within the limit, so
 * concurrent placements can never push it past.
 */
export interface Reservation {
  scope: 'selection' | 'event';
  refId: string;
}

/**
 * Adds the bet's liability to each row's reserved total and records what the bet reserved, as two parts of the
 * placement's statement, only if the part `gate` wrote the bet; `reservedIn` reads the reservations made from what
 * the statement answered. A row whose total would pass its limit is left as it was and not
 * recorded: the caller refuses the bet (rolling back the others) unless every reservation was made. A new row
 * starts at the liability, so the caller checks the liability alone against the limits first.
 */
export function reserveExposureParts(
  name: string,
  bet: { id: string; tenantId: string; liability: number },
  limits: Record<Reservation['scope'], number>,
  reservations: Reservation[],
  gate: string,
): { parts: StatementPart[]; reservedIn(written: Record<string, unknown[]>): Reservation[] } {
  const rows = reservations.map((reservation) => ({
    tenant_id: bet.tenantId,
    scope: reservation.scope,
    ref_id: reservation.refId,
    reserved: bet.liability,
  }));
  const reserve: StatementPart = {
    name,
    shape: `exposure reserved within its limits, after ${gate}`,
    build: (db, slot) =>
      db
        .insertInto('exposure')
        .columns(['tenant_id', 'scope', 'ref_id', 'reserved'])
        .expression((eb) =>
          eb
            .selectFrom(jsonRows('exposure', slot('rows')))
            .select(['r.tenant_id', 'r.scope', 'r.ref_id', 'r.reserved'])
            .where(after(gate)),
        )
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'scope', 'ref_id'])
            .doUpdateSet({ reserved: sql`exposure.reserved + excluded.reserved` })
            .where(
              sql<boolean>`exposure.reserved + excluded.reserved <= case exposure.scope
                when 'selection' then ${slot('selectionLimit')}::bigint else ${slot('eventLimit')}::bigint end`,
            ),
        )
        .returning(['scope', 'ref_id']),
    // In the order given: the rows are locked in that order.
    values: { rows: JSON.stringify(rows), selectionLimit: limits.selection, eventLimit: limits.event },
  };
  const recorded = `${name}_recorded`;
  const record: StatementPart = {
    name: recorded,
    shape: `bet_exposure of what ${name} reserved`,
    build: (_db, slot) => sql`insert into bet_exposure (bet_id, scope, ref_id, amount)
      select ${slot('betId')}::text, reserved.scope, reserved.ref_id, ${slot('liability')}::bigint
      from ${sql.id(name)} as reserved
      returning scope, ref_id`,
    values: { betId: bet.id, liability: bet.liability },
  };
  return {
    parts: [reserve, record],
    reservedIn: (written) =>
      (written[recorded] as Array<{ scope: Reservation['scope']; ref_id: string }>).map((row) => ({
        scope: row.scope,
        refId: row.ref_id,
      })),
  };
}

/**
 * Gives back exactly what the `released` bets reserved, once, and reserves again exactly what the `reopened` bets
 * reserved when they were placed (a bet the book already took: past any limit). Per selection and event, one update
 * with the net change, in the order reservations take, so this never deadlocks with a placement.
 */
export async function shiftBetExposure(
  q: Queryable,
  change: { released: Array<{ id: string; tenant_id: string }>; reopened: Array<{ id: string; tenant_id: string }> },
  now: Date,
): Promise<void> {
  const totals = new Map<string, { tenantId: string; scope: 'selection' | 'event'; refId: string; amount: number }>();
  const add = (tenantId: string, row: { scope: 'selection' | 'event'; ref_id: string }, amount: number) => {
    const key = `${tenantId}|${row.scope}|${row.ref_id}`;
    const total = totals.get(key) ?? { tenantId, scope: row.scope, refId: row.ref_id, amount: 0 };
    total.amount += amount;
    totals.set(key, total);
  };
  const tenantOf = new Map([...change.released, ...change.reopened].map((bet) => [bet.id, bet.tenant_id]));
  for (const [bets, releasedAt, sign] of [
    [change.released, now, -1],
    [change.reopened, null, 1],
  ] as const) {
    for (let start = 0; start < bets.length; start += 2_000) {
      const rows = await q
        .updateTable('bet_exposure')
        .set({ released_at: releasedAt })
        .where(
          'bet_id',
          'in',
          bets.slice(start, start + 2_000).map((bet) => bet.id),
        )
        .where('released_at', releasedAt === null ? 'is not' : 'is', null)
        .returning(['bet_id', 'scope', 'ref_id', 'amount'])
        .execute();
      for (const row of rows) add(tenantOf.get(row.bet_id)!, row, sign * row.amount);
    }
  }
  for (const total of [...totals.values()].sort((a, b) => (a.scope + a.refId < b.scope + b.refId ? -1 : 1))) {
    if (total.amount === 0) continue;
    await q
      .updateTable('exposure')
      .set((eb) => ({ reserved: eb('reserved', '+', total.amount) }))
      .where('tenant_id', '=', total.tenantId)
      .where('scope', '=', total.scope)
      .where('ref_id', '=', total.refId)
      .execute();
  }
}
