import type { Insertable, Updateable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { EventsTable, MarketStatus, MarketsTable, SelectionResult, SelectionsTable } from './tables.ts';

function eventHeaders(q: Queryable) {
  return q
    .selectFrom('events')
    .innerJoin('competitions', 'competitions.id', 'events.competition_id')
    .innerJoin('sports', 'sports.id', 'competitions.sport_id')
    .select([
      'events.id',
      'events.home',
      'events.away',
      'events.starts_at',
      'events.status',
      'events.score_home',
      'events.score_away',
      'competitions.id as competition_id',
      'competitions.name as competition_name',
      'competitions.country',
      'sports.id as sport_id',
      'sports.name as sport_name',
    ]);
}
export type EventHeaderRow = Awaited<ReturnType<ReturnType<typeof eventHeaders>['execute']>>[number];

export function eventHeader(q: Queryable, eventId: string) {
  return eventHeaders(q).where('events.id', '=', eventId).executeTakeFirst();
}

/** Events in play, by start time; optionally of one sport. */
export function liveEventHeaders(q: Queryable, sportId?: string) {
  let query = eventHeaders(q).where('events.status', '=', 'live');
  if (sportId) query = query.where('sports.id', '=', sportId);
  return query.orderBy('events.starts_at').orderBy('events.id').execute();
}

/** Events not yet over (scheduled or live), by start time, of one sport or one competition. */
export function upcomingEventHeaders(q: Queryable, of: { sportId: string } | { competitionId: string }) {
  const query = eventHeaders(q).where('events.status', 'in', ['scheduled', 'live']);
  const filtered =
    'sportId' in of ? query.where('sports.id', '=', of.sportId) : query.where('competitions.id', '=', of.competitionId);
  return filtered.orderBy('events.starts_at').orderBy('events.id').execute();
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

export function sportsWithCounts(q: Queryable) {
  return q
    .selectFrom('sports')
    .leftJoin('competitions', 'competitions.sport_id', 'sports.id')
    .leftJoin('events', (join) =>
      join.onRef('events.competition_id', '=', 'competitions.id').on('events.status', 'in', ['scheduled', 'live']),
    )
    .select((eb) => [
      'sports.id',
      'sports.name',
      eb.fn.count<number>('events.id').as('event_count'),
      eb.fn.count<number>('events.id').filterWhere('events.status', '=', 'live').as('live_count'),
    ])
    .groupBy(['sports.id', 'sports.name', 'sports.sort_order'])
    .orderBy('sports.sort_order')
    .orderBy('sports.id')
    .$narrowType<{ event_count: number; live_count: number }>()
    .execute()
    .then((rows) =>
      rows.map((row) => ({ ...row, event_count: Number(row.event_count), live_count: Number(row.live_count) })),
    );
}

export async function insertSport(q: Queryable, row: { id: string; name: string; sortOrder: number }) {
  await q.insertInto('sports').values({ id: row.id, name: row.name, sort_order: row.sortOrder }).execute();
}

export async function insertCompetition(
  q: Queryable,
  row: { id: string; sportId: string; name: string; country: string },
) {
  await q
    .insertInto('competitions')
    .values({ id: row.id, sport_id: row.sportId, name: row.name, country: row.country })
    .execute();
}

export async function insertEvent(q: Queryable, row: Insertable<EventsTable>) {
  await q.insertInto('events').values(row).execute();
}

export async function insertMarket(q: Queryable, row: Insertable<MarketsTable>) {
  await q.insertInto('markets').values(row).execute();
}

export async function insertSelections(q: Queryable, rows: Insertable<SelectionsTable>[]) {
  await q.insertInto('selections').values(rows).execute();
}

export function findSport(q: Queryable, id: string) {
  return q.selectFrom('sports').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findCompetition(q: Queryable, id: string) {
  return q.selectFrom('competitions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findEvent(q: Queryable, id: string) {
  return q.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findMarket(q: Queryable, id: string) {
  return q.selectFrom('markets').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The market, locked until the settlement's transaction ends: one settlement of a market at a time. */
export function lockMarket(q: Queryable, id: string) {
  return q.selectFrom('markets').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

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

export async function updateEvent(q: Queryable, id: string, changes: Updateable<EventsTable>): Promise<void> {
  await q.updateTable('events').set(changes).where('id', '=', id).execute();
}

export async function setMarketStatus(q: Queryable, id: string, status: MarketStatus, at: Date): Promise<void> {
  await q.updateTable('markets').set({ status, updated_at: at }).where('id', '=', id).execute();
}

/** New odds bump the odds version, so a bet priced on the old odds is judged by the acceptance policy. */
export function setOdds(q: Queryable, selectionId: string, oddsMilli: number) {
  return q
    .updateTable('selections')
    .set((eb) => ({ odds_milli: oddsMilli, odds_version: eb('odds_version', '+', 1) }))
    .where('id', '=', selectionId)
    .returningAll()
    .executeTakeFirst();
}

export async function anySport(q: Queryable): Promise<boolean> {
  return (await q.selectFrom('sports').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export function scheduledEventsStartedBy(q: Queryable, now: Date) {
  return q.selectFrom('events').select('id').where('status', '=', 'scheduled').where('starts_at', '<=', now).execute();
}

export function liveEvents(q: Queryable) {
  return q.selectFrom('events').selectAll().where('status', '=', 'live').execute();
}

export function tradableMarkets(q: Queryable) {
  return q.selectFrom('markets').select(['id', 'status']).where('status', 'in', ['open', 'suspended']).execute();
}

export function allSelectionOdds(q: Queryable) {
  return q.selectFrom('selections').select(['id', 'odds_milli']).execute();
}

function selectionsWithMarketAndEvent(q: Queryable, selectionIds: string[]) {
  return q
    .selectFrom('selections')
    .innerJoin('markets', 'markets.id', 'selections.market_id')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .where('selections.id', 'in', selectionIds);
}

/** Selections with their market and event, locked so odds and status cannot change under a placement. */
export function selectionsForBet(q: Queryable, selectionIds: string[]) {
  return (
    selectionsWithMarketAndEvent(q, selectionIds)
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
      .forNoKeyUpdate('selections')
      .execute()
  );
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
