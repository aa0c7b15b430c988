import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { MarketStatus, MarketsTable, SelectionResult } from '../tables.ts';

export async function insertMarket(q: Queryable, row: Insertable<MarketsTable>) {
  await q.insertInto('markets').values(row).execute();
}

export function findMarket(q: Queryable, id: string) {
  return q.selectFrom('markets').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The market, locked until the settlement's transaction ends: one settlement of a market at a time. */
export function lockMarket(q: Queryable, id: string) {
  return q.selectFrom('markets').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export async function setMarketStatus(q: Queryable, id: string, status: MarketStatus, at: Date): Promise<void> {
  await q.updateTable('markets').set({ status, updated_at: at }).where('id', '=', id).execute();
}

export function marketsOf(q: Queryable, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('markets')
    .selectAll()
    .where('event_id', 'in', eventIds)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** How many markets each event has in each status. */
export async function marketCounts(q: Queryable, eventIds: string[]) {
  if (eventIds.length === 0) return [];
  const rows = await q
    .selectFrom('markets')
    .select((eb) => ['event_id', 'status', eb.fn.countAll<string>().as('count')])
    .where('event_id', 'in', eventIds)
    .groupBy(['event_id', 'status'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** A market's results: each selection's result, and the market settled with the settlement's version and time. */
export async function setResults(
  q: Queryable,
  marketId: string,
  results: Array<{ selectionId: string; result: SelectionResult }>,
  settlement: { version: number; at: Date },
): Promise<void> {
  for (const { selectionId, result } of results) {
    await q
      .updateTable('selections')
      .set({ result })
      .where('id', '=', selectionId)
      .where('market_id', '=', marketId)
      .execute();
  }
  await q
    .updateTable('markets')
    .set({
      status: 'settled',
      settlement_version: settlement.version,
      settled_at: settlement.at,
      updated_at: settlement.at,
    })
    .where('id', '=', marketId)
    .execute();
}
