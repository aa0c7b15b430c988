import type { Insertable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { EventsTable, MarketsTable, SelectionsTable } from '../platform/db/schema.ts';

export function eventHeaders(q: Queryable) {
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

export function marketsOf(q: Queryable, eventIds: string[]) {
  if (eventIds.length === 0) return Promise.resolve([]);
  return q.selectFrom('markets').selectAll().where('event_id', 'in', eventIds).orderBy('sort_order').orderBy('id').execute();
}

export function selectionsOf(q: Queryable, marketIds: string[]) {
  if (marketIds.length === 0) return Promise.resolve([]);
  return q.selectFrom('selections').selectAll().where('market_id', 'in', marketIds).orderBy('sort_order').orderBy('id').execute();
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
    .then((rows) => rows.map((row) => ({ ...row, event_count: Number(row.event_count), live_count: Number(row.live_count) })));
}

export async function insertSport(q: Queryable, row: { id: string; name: string; sortOrder: number }) {
  await q.insertInto('sports').values({ id: row.id, name: row.name, sort_order: row.sortOrder }).execute();
}

export async function insertCompetition(q: Queryable, row: { id: string; sportId: string; name: string; country: string }) {
  await q.insertInto('competitions').values({ id: row.id, sport_id: row.sportId, name: row.name, country: row.country }).execute();
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

export function findSelection(q: Queryable, id: string) {
  return q.selectFrom('selections').selectAll().where('id', '=', id).executeTakeFirst();
}
