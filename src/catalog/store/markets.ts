import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { MarketControl, MarketStatus, MarketsTable, SelectionResult } from '../tables.ts';

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

/**
 * A settled market's results withdrawn (a producer rolled its result back): every selection without a result, and
 * the market suspended, waiting for the next result, under a new settlement version.
 */
export async function withdrawResults(q: Queryable, marketId: string, settlement: { version: number; at: Date }) {
  await q.updateTable('selections').set({ result: null }).where('market_id', '=', marketId).execute();
  await q
    .updateTable('markets')
    .set({ status: 'suspended', settlement_version: settlement.version, settled_at: null, updated_at: settlement.at })
    .where('id', '=', marketId)
    .execute();
}

export async function setControl(q: Queryable, id: string, control: MarketControl): Promise<void> {
  await q.updateTable('markets').set({ control }).where('id', '=', id).execute();
}

/** A trader's change to a fed market: the trader's from now on (nothing when it is the trader's already). */
export async function takeOver(q: Queryable, id: string): Promise<void> {
  await q
    .updateTable('markets')
    .set({ control: 'trader' })
    .where('id', '=', id)
    .where('control', '=', 'feed')
    .execute();
}

/** A silent producer's open markets that it controls, suspended by rule and marked so: each one's event. */
export async function holdProducerMarkets(q: Queryable, producerId: string, at: Date): Promise<string[]> {
  const held = await q
    .updateTable('markets')
    .set({ status: 'suspended', held_by_producer: true, updated_at: at })
    .where('producer_id', '=', producerId)
    .where('control', '=', 'feed')
    .where('status', '=', 'open')
    .returning('event_id')
    .execute();
  return held.map((market) => market.event_id);
}

/** The markets held for a producer and still suspended, open again (its recovery is complete): each one's event. */
export async function releaseProducerMarkets(q: Queryable, producerId: string, at: Date): Promise<string[]> {
  const released = await q
    .updateTable('markets')
    .set({ status: 'open', held_by_producer: false, updated_at: at })
    .where('producer_id', '=', producerId)
    .where('held_by_producer', '=', true)
    .where('status', '=', 'suspended')
    .returning('event_id')
    .execute();
  return released.map((market) => market.event_id);
}

/** A market's status as the feed sets it: a hold by rule ends with it. */
export async function setFedStatus(q: Queryable, id: string, status: MarketStatus, at: Date): Promise<void> {
  await q
    .updateTable('markets')
    .set({ status, held_by_producer: false, updated_at: at })
    .where('id', '=', id)
    .execute();
}

/** Markets of an event a producer controls and that take bets now (its bet stop suspends them). */
export function openFedMarkets(q: Queryable, producerId: string, eventId: string) {
  return q
    .selectFrom('markets')
    .select(['id'])
    .where('event_id', '=', eventId)
    .where('producer_id', '=', producerId)
    .where('control', '=', 'feed')
    .where('status', '=', 'open')
    .execute();
}

/** Per producer: the markets it controls and takes bets on or holds, those held by rule, those a trader took over. */
export function marketCountsByProducer(q: Queryable) {
  return q
    .selectFrom('markets')
    .select((eb) => [
      'producer_id',
      eb.fn
        .countAll<number>()
        .filterWhere((f) => f.and([f('control', '=', 'feed'), f('status', 'in', ['open', 'suspended'])]))
        .as('fed'),
      eb.fn.countAll<number>().filterWhere('held_by_producer', '=', true).as('held'),
      eb.fn
        .countAll<number>()
        .filterWhere((f) => f.and([f('control', '=', 'trader'), f('status', 'not in', ['closed', 'settled'])]))
        .as('taken_over'),
    ])
    .where('producer_id', 'is not', null)
    .groupBy('producer_id')
    .execute();
}

/** Those of these markets whose status changed after `since` (a bet stop and a reopening included). */
export async function changedSince(q: Queryable, ids: string[], since: Date): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await q
    .selectFrom('markets')
    .select('id')
    .where('id', 'in', ids)
    .where('updated_at', '>', since)
    .execute();
  return rows.map((row) => row.id);
}
