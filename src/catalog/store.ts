import { sql, type Insertable, type QueryCreator, type RawBuilder, type Updateable } from 'kysely';
import { FOLDING } from './search-text.ts';
import { runCompiled } from '../platform/db/compiled.ts';
import type { Queryable } from '../platform/db/database.ts';
import type { Database } from '../platform/db/schema.ts';
import type {
  EventStatus,
  EventsTable,
  MarketStatus,
  MarketsTable,
  SelectionResult,
  SelectionsTable,
} from './tables.ts';

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
      'events.period',
      'events.clock_seconds',
      'events.clock_running',
      'events.clock_direction',
      'events.clock_set_at',
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

/** A name folded for search (search-text.ts): accents dropped, so ILIKE then ignores case and accents alike. */
function folded(name: RawBuilder<string>) {
  return sql<string>`translate(${name}, ${FOLDING.accented}, ${FOLDING.plain})`;
}

/**
 * Upcoming and live events whose teams' names hold every pattern (search-text.ts), live ones first, then by start
 * time.
 */
export function searchEventHeaders(q: Queryable, patterns: string[], limit: number) {
  let query = eventHeaders(q).where('events.status', 'in', ['scheduled', 'live']);
  for (const pattern of patterns)
    query = query.where(sql<boolean>`${folded(sql`events.home || ' ' || events.away`)} ilike ${pattern}`);
  return query
    .orderBy(sql`case when events.status = 'live' then 0 else 1 end`)
    .orderBy('events.starts_at')
    .orderBy('events.id')
    .limit(limit)
    .execute();
}

/** Competitions with their sport's id and name: the start of the search and of the traders' list. */
function competitionsWithSport(q: Queryable) {
  return q
    .selectFrom('competitions')
    .innerJoin('sports', 'sports.id', 'competitions.sport_id')
    .select([
      'competitions.id',
      'competitions.name',
      'competitions.country',
      'sports.id as sport_id',
      'sports.name as sport_name',
    ]);
}

/** Competitions whose name and country hold every pattern, with their sport, by name. */
export function searchCompetitions(q: Queryable, patterns: string[], limit: number) {
  let query = competitionsWithSport(q);
  for (const pattern of patterns)
    query = query.where(
      sql<boolean>`${folded(sql`competitions.name || ' ' || competitions.country`)} ilike ${pattern}`,
    );
  return query.orderBy('competitions.name').orderBy('competitions.id').limit(limit).execute();
}

/** What the traders' event list is filtered by; `search` is a LIKE pattern, its wildcards escaped by the caller. */
export interface EventListFilter {
  statuses: EventStatus[] | undefined;
  sportId: string | undefined;
  competitionId: string | undefined;
  startsFrom: Date | undefined;
  startsTo: Date | undefined;
  search: string | undefined;
  descending: boolean;
  /** The (start, id) of the previous page's last row. */
  after: { at: Date; id: string } | undefined;
  limit: number;
}

/**
 * Events of any status for traders, by start time (then id) either way, one page and one more row to tell whether
 * another page exists. The search matches the event's name ("home vs away") or its competition's name, ignoring case.
 */
export function listEventHeaders(q: Queryable, filter: EventListFilter) {
  let query = eventHeaders(q);
  if (filter.statuses) query = query.where('events.status', 'in', filter.statuses);
  if (filter.sportId) query = query.where('sports.id', '=', filter.sportId);
  if (filter.competitionId) query = query.where('competitions.id', '=', filter.competitionId);
  if (filter.startsFrom) query = query.where('events.starts_at', '>=', filter.startsFrom);
  if (filter.startsTo) query = query.where('events.starts_at', '<=', filter.startsTo);
  if (filter.search !== undefined) {
    const pattern = filter.search;
    query = query.where(
      sql<boolean>`((events.home || ' vs ' || events.away) ilike ${pattern} or competitions.name ilike ${pattern})`,
    );
  }
  const direction = filter.descending ? 'desc' : 'asc';
  if (filter.after) {
    const { at, id } = filter.after;
    query = filter.descending
      ? query.where(sql<boolean>`(events.starts_at, events.id) < (${at}, ${id})`)
      : query.where(sql<boolean>`(events.starts_at, events.id) > (${at}, ${id})`);
  }
  return query
    .orderBy('events.starts_at', direction)
    .orderBy('events.id', direction)
    .limit(filter.limit + 1)
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

/** Every sport in its sort order, with how many competitions it has. */
export async function sportsWithCompetitionCounts(q: Queryable) {
  const rows = await q
    .selectFrom('sports')
    .leftJoin('competitions', 'competitions.sport_id', 'sports.id')
    .select((eb) => [
      'sports.id',
      'sports.name',
      'sports.sort_order',
      eb.fn.count<string>('competitions.id').as('competition_count'),
    ])
    .groupBy(['sports.id', 'sports.name', 'sports.sort_order'])
    .orderBy('sports.sort_order')
    .orderBy('sports.id')
    .execute();
  return rows.map((row) => ({ ...row, competition_count: Number(row.competition_count) }));
}

/** How many events of each status each sport has. */
export async function eventCountsBySport(q: Queryable) {
  const rows = await q
    .selectFrom('events')
    .innerJoin('competitions', 'competitions.id', 'events.competition_id')
    .select((eb) => ['competitions.sport_id as key', 'events.status', eb.fn.countAll<string>().as('count')])
    .groupBy(['competitions.sport_id', 'events.status'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** How many events of each status each of these competitions has. */
export async function eventCountsByCompetition(q: Queryable, competitionIds: string[]) {
  if (competitionIds.length === 0) return [];
  const rows = await q
    .selectFrom('events')
    .select((eb) => ['competition_id as key', 'status', eb.fn.countAll<string>().as('count')])
    .where('competition_id', 'in', competitionIds)
    .groupBy(['competition_id', 'status'])
    .execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/** Competitions with their sport, by name (then id), one page and one more row; `search` as in listEventHeaders. */
export function listCompetitions(
  q: Queryable,
  filter: {
    sportId: string | undefined;
    search: string | undefined;
    after: { key: string; id: string } | undefined;
    limit: number;
  },
) {
  let query = competitionsWithSport(q);
  if (filter.sportId) query = query.where('competitions.sport_id', '=', filter.sportId);
  if (filter.search !== undefined) query = query.where('competitions.name', 'ilike', filter.search);
  if (filter.after) {
    const { key, id } = filter.after;
    query = query.where(sql<boolean>`(competitions.name, competitions.id) > (${key}, ${id})`);
  }
  return query
    .orderBy('competitions.name')
    .orderBy('competitions.id')
    .limit(filter.limit + 1)
    .execute();
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

/** Events a feed plays or prices: scheduled and live, with their sport. */
export function feedEvents(q: Queryable) {
  return q
    .selectFrom('events')
    .innerJoin('competitions', 'competitions.id', 'events.competition_id')
    .selectAll('events')
    .select('competitions.sport_id')
    .where('events.status', 'in', ['scheduled', 'live'])
    .orderBy('events.starts_at')
    .orderBy('events.id')
    .execute();
}

/** The open and suspended markets of the events scheduled or in play, in their order. */
function feedMarketsQuery(q: Queryable) {
  return q
    .selectFrom('markets')
    .innerJoin('events', 'events.id', 'markets.event_id')
    .where('events.status', 'in', ['scheduled', 'live'])
    .where('markets.status', 'in', ['open', 'suspended']);
}

export function feedMarkets(q: Queryable) {
  return feedMarketsQuery(q)
    .select([
      'markets.id',
      'markets.event_id',
      'markets.type',
      'markets.line_milli',
      'markets.status',
      'markets.updated_at',
    ])
    .orderBy('markets.sort_order')
    .orderBy('markets.id')
    .execute();
}

/** The selections of those markets, in their order. */
export function feedSelections(q: Queryable) {
  return feedMarketsQuery(q)
    .innerJoin('selections', 'selections.market_id', 'markets.id')
    .select(['selections.id', 'selections.market_id', 'selections.outcome', 'selections.odds_milli'])
    .orderBy('selections.sort_order')
    .orderBy('selections.id')
    .execute();
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
