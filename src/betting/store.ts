import type { Insertable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { Bet, BetLegsTable, BetsTable } from '../platform/db/schema.ts';

/** Selections with their market and event, locked so odds and status cannot change under a placement. */
export function selectionsForBet(q: Queryable, selectionIds: string[]) {
  return q
    .selectFrom('selections')
    .innerJoin('markets', 'markets.id', 'selections.market_id')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .select([
      'selections.id',
      'selections.odds_milli',
      'selections.odds_version',
      'markets.id as market_id',
      'markets.status as market_status',
      'events.id as event_id',
      'events.status as event_status',
      'events.starts_at',
    ])
    .where('selections.id', 'in', selectionIds)
    .forUpdate('selections')
    .execute();
}

export function findBetByRequest(q: Queryable, playerId: string, requestId: string): Promise<Bet | undefined> {
  return q.selectFrom('bets').selectAll().where('player_id', '=', playerId).where('request_id', '=', requestId).executeTakeFirst();
}

export function findBet(q: Queryable, id: string): Promise<Bet | undefined> {
  return q.selectFrom('bets').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts the pending bet unless this player already used the request id; returns whether it was inserted. */
export async function insertBet(q: Queryable, bet: Insertable<BetsTable>): Promise<boolean> {
  const row = await q.insertInto('bets').values(bet).onConflict((oc) => oc.columns(['player_id', 'request_id']).doNothing()).returning('id').executeTakeFirst();
  return row !== undefined;
}

export async function insertLegs(q: Queryable, legs: Insertable<BetLegsTable>[]): Promise<void> {
  await q.insertInto('bet_legs').values(legs).execute();
}

export async function decideBet(q: Queryable, id: string, decision: { status: 'accepted' | 'refused'; refusal: string | null; at: Date }): Promise<void> {
  await q.updateTable('bets').set({ status: decision.status, refusal: decision.refusal, decided_at: decision.at }).where('id', '=', id).where('status', '=', 'pending').execute();
}

export function pendingBets(q: Queryable) {
  return q.selectFrom('bets').selectAll().where('status', '=', 'pending').execute();
}

/**
 * Reserves liability against a limit in one statement: the row only grows while it stays within the limit, so
 * concurrent placements can never push it past.
 */
export async function reserveExposure(
  q: Queryable,
  reservation: { tenantId: string; scope: 'selection' | 'event'; refId: string; amount: number; limit: number },
): Promise<boolean> {
  await q
    .insertInto('exposure')
    .values({ tenant_id: reservation.tenantId, scope: reservation.scope, ref_id: reservation.refId, reserved: 0 })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await q
    .updateTable('exposure')
    .set((eb) => ({ reserved: eb('reserved', '+', reservation.amount) }))
    .where('tenant_id', '=', reservation.tenantId)
    .where('scope', '=', reservation.scope)
    .where('ref_id', '=', reservation.refId)
    .where((eb) => eb(eb('reserved', '+', reservation.amount), '<=', reservation.limit))
    .returning('reserved')
    .executeTakeFirst();
  return row !== undefined;
}

export async function recordBetExposure(q: Queryable, rows: Array<{ betId: string; scope: 'selection' | 'event'; refId: string; amount: number }>) {
  await q
    .insertInto('bet_exposure')
    .values(rows.map((row) => ({ bet_id: row.betId, scope: row.scope, ref_id: row.refId, amount: row.amount })))
    .execute();
}

/** Gives back exactly what the bet reserved, once. */
export async function releaseBetExposure(q: Queryable, bet: { id: string; tenant_id: string }, now: Date): Promise<void> {
  const reserved = await q
    .updateTable('bet_exposure')
    .set({ released_at: now })
    .where('bet_id', '=', bet.id)
    .where('released_at', 'is', null)
    .returning(['scope', 'ref_id', 'amount'])
    .execute();
  for (const row of reserved) {
    await q
      .updateTable('exposure')
      .set((eb) => ({ reserved: eb('reserved', '-', row.amount) }))
      .where('tenant_id', '=', bet.tenant_id)
      .where('scope', '=', row.scope as 'selection' | 'event')
      .where('ref_id', '=', row.ref_id)
      .execute();
  }
}

export function betsOfPlayer(q: Queryable, playerId: string, page: { statuses: Array<Bet['status']>; before?: { placedAt: Date; id: string }; limit: number }) {
  let query = q.selectFrom('bets').selectAll().where('player_id', '=', playerId).where('status', 'in', page.statuses);
  if (page.before) {
    const { placedAt, id } = page.before;
    query = query.where((eb) => eb.or([eb('placed_at', '<', placedAt), eb.and([eb('placed_at', '=', placedAt), eb('id', '<', id)])]));
  }
  return query.orderBy('placed_at', 'desc').orderBy('id', 'desc').limit(page.limit + 1).execute();
}

export function legsWithNames(q: Queryable, betIds: string[]) {
  if (betIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('bet_legs')
    .innerJoin('selections', 'selections.id', 'bet_legs.selection_id')
    .innerJoin('markets', 'markets.id', 'bet_legs.market_id')
    .innerJoin('events', 'events.id', 'bet_legs.event_id')
    .select([
      'bet_legs.bet_id',
      'bet_legs.position',
      'bet_legs.selection_id',
      'bet_legs.odds_milli',
      'selections.name as selection_name',
      'markets.id as market_id',
      'markets.name as market_name',
      'events.id as event_id',
      'events.home',
      'events.away',
      'events.starts_at',
    ])
    .where('bet_legs.bet_id', 'in', betIds)
    .orderBy('bet_legs.bet_id')
    .orderBy('bet_legs.position')
    .execute();
}
