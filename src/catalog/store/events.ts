import { sql, type Insertable, type Updateable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { EventStatus, EventsTable } from '../tables.ts';

export async function insertEvent(q: Queryable, row: Insertable<EventsTable>) {
  await q.insertInto('events').values(row).execute();
}

export function findEvent(q: Queryable, id: string) {
  return q.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function updateEvent(q: Queryable, id: string, changes: Updateable<EventsTable>): Promise<void> {
  await q.updateTable('events').set(changes).where('id', '=', id).execute();
}

/** Events with their competition and sport, as every list of events shows them. */
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
      'sports.live_delay_seconds',
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
