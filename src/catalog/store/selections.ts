import { sql, type Insertable, type QueryCreator } from 'kysely';
import { runCompiled } from '../../platform/db/compiled.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { SelectionsTable } from '../tables.ts';

export async function insertSelections(q: Queryable, rows: Insertable<SelectionsTable>[]) {
  await q.insertInto('selections').values(rows).execute();
}

export function selectionsOf(q: Queryable, marketIds: string[]) {
  if (marketIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('selections')
    .selectAll()
    .where('market_id', 'in', marketIds)
    .orderBy('sort_order')
    .orderBy('id')
    .execute();
}

/** New odds bump the odds version, so a bet priced on the old odds is judged by the acceptance policy. */
export function setOdds(q: Queryable, selectionId: string, oddsMilli: number) {
  return q
    .updateTable('selections')
    .set((eb) => ({ odds_milli: oddsMilli, odds_version: eb('odds_version', '+', 1) }))
    .where('id', '=', selectionId)
    .returningAll()
    .returning((eb) =>
      eb
        .selectFrom('markets')
        .select('markets.event_id')
        .whereRef('markets.id', '=', 'selections.market_id')
        .as('event_id'),
    )
    .executeTakeFirst();
}

/** Current prices and market states of selections, read for a cash-out (locked FOR SHARE when asked to). */
export function pricesOf(q: Queryable, selectionIds: string[], lock: boolean) {
  if (selectionIds.length === 0) return Promise.resolve([]);
  const query = q
    .selectFrom('selections')
    .innerJoin('markets', 'markets.id', 'selections.market_id')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .select([
      'selections.id',
      'selections.odds_milli',
      'selections.result',
      'markets.id as market_id',
      'markets.status as market_status',
      'events.id as event_id',
      'events.status as event_status',
    ])
    .where('selections.id', 'in', selectionIds)
    .orderBy('selections.id');
  // Locked: a selection's price, its market's status and its event's status cannot change until the caller commits.
  return (lock ? query.forShare(['selections', 'markets', 'events']) : query).execute();
}

/** Selections by id (`= any` of one array parameter: one statement text however many there are). */
function selectionsWithMarketAndEvent(q: QueryCreator<Database>, selectionIds: string[]) {
  return q
    .selectFrom('selections')
    .innerJoin('markets', 'markets.id', 'selections.market_id')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .where(sql<boolean>`selections.id = any(${selectionIds}::text[])`);
}

/**
 * Selections with their market and event, locked so odds and status cannot change under a placement. Compiled
 * once: it is every placement's first statement.
 */
export async function selectionsForBet(q: Queryable, selectionIds: string[]) {
  const { rows } = await runCompiled(
    q,
    'selections of a bet, locked',
    (db, slot) =>
      selectionsWithMarketAndEvent(db, slot('ids'))
        .select([
          'selections.id',
          'selections.odds_milli',
          'selections.odds_version',
          'markets.id as market_id',
          'markets.status as market_status',
          'events.id as event_id',
          'events.status as event_status',
          'events.starts_at',
          // Names too: the placement answers with them, without reading them again.
          'selections.name as selection_name',
          'markets.name as market_name',
          'events.home',
          'events.away',
        ])
        // Exclusive, so an odds change queues behind the bets in flight and is never starved by a stream of them
        // (share locks can overtake a waiting writer); NO KEY, so the legs' foreign-key checks do not wait on it.
        .forNoKeyUpdate('selections'),
    { ids: selectionIds },
  );
  return rows;
}

/** A selection's names (with its market's and event's), as bet views show them. */
export type SelectionName = Awaited<ReturnType<typeof selectionNames>>[number];

/** Names of selections with their market and event, for bet slips and My Bets. */
export function selectionNames(q: Queryable, selectionIds: string[]) {
  if (selectionIds.length === 0) return Promise.resolve([]);
  return selectionsWithMarketAndEvent(q, selectionIds)
    .select([
      'selections.id as selection_id',
      'selections.name as selection_name',
      'markets.id as market_id',
      'markets.name as market_name',
      'events.id as event_id',
      'events.home',
      'events.away',
      'events.starts_at',
    ])
    .execute();
}

/** Markets' selections with their prices, beside each market's event, producer, control and status: one read. */
export function marketsSelections(q: Queryable, marketIds: string[]) {
  if (marketIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('selections')
    .innerJoin('markets', 'markets.id', 'selections.market_id')
    .select([
      'selections.id',
      'selections.market_id',
      'selections.outcome',
      'selections.odds_milli',
      'markets.event_id',
      'markets.producer_id',
      'markets.control',
      'markets.status',
    ])
    .where('selections.market_id', 'in', marketIds)
    .execute();
}

/** Selections' new prices, each a new odds version, in one statement. */
export async function setManyOdds(q: Queryable, prices: Map<string, number>): Promise<void> {
  if (prices.size === 0) return;
  const values = sql.join([...prices].map(([id, milli]) => sql`(${id}, ${milli}::integer)`));
  await sql`
    update selections set odds_milli = v.milli, odds_version = selections.odds_version + 1
      from (values ${values}) as v (id, milli)
      where selections.id = v.id`.execute(q);
}

/** The feed's prices kept beside a trader's (FeedControl.priceBook), in one statement. */
export async function keepManyFedOdds(q: Queryable, prices: Map<string, number>): Promise<void> {
  if (prices.size === 0) return;
  const values = sql.join([...prices].map(([id, milli]) => sql`(${id}, ${milli}::integer)`));
  await sql`
    update selections set fed_odds_milli = v.milli from (values ${values}) as v (id, milli)
      where selections.id = v.id`.execute(q);
}

/** A market given back to the feed: the feed's kept prices become its prices (a new odds version where they differ). */
export async function applyKeptOdds(q: Queryable, marketId: string): Promise<void> {
  await q
    .updateTable('selections')
    .set((eb) => ({
      odds_milli: eb.ref('fed_odds_milli').$castTo<number>(),
      odds_version: eb('odds_version', '+', 1),
      fed_odds_milli: null,
    }))
    .where('market_id', '=', marketId)
    .where('fed_odds_milli', 'is not', null)
    .whereRef('fed_odds_milli', '<>', 'odds_milli')
    .execute();
  await q.updateTable('selections').set({ fed_odds_milli: null }).where('market_id', '=', marketId).execute();
}

/** The feed's prices kept for selections of these markets (those a trader controls), by selection id. */
export async function keptFedOdds(q: Queryable, marketIds: string[]): Promise<Map<string, number>> {
  if (marketIds.length === 0) return new Map();
  const rows = await q
    .selectFrom('selections')
    .select(['id', 'fed_odds_milli'])
    .where('market_id', 'in', marketIds)
    .where('fed_odds_milli', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.id, row.fed_odds_milli!]));
}

/** The longest in-play delay among the sports of these selections' live events, in seconds (0 when none is live). */
export async function liveDelayOf(q: Queryable, selectionIds: string[]): Promise<number> {
  if (selectionIds.length === 0) return 0;
  const row = await q
    .selectFrom('selections')
    .innerJoin('markets', 'markets.id', 'selections.market_id')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .innerJoin('competitions', 'competitions.id', 'events.competition_id')
    .innerJoin('sports', 'sports.id', 'competitions.sport_id')
    .select((eb) => eb.fn.max('sports.live_delay_seconds').as('delay'))
    .where('selections.id', 'in', selectionIds)
    .where('events.status', '=', 'live')
    .executeTakeFirst();
  return row?.delay ?? 0;
}
