import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';

export async function insertCompetition(
  q: Queryable,
  row: { id: string; sportId: string; name: string; country: string },
) {
  await q
    .insertInto('competitions')
    .values({ id: row.id, sport_id: row.sportId, name: row.name, country: row.country })
    .execute();
}

export function findCompetition(q: Queryable, id: string) {
  return q.selectFrom('competitions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Competitions with their sport's id and name: the start of the search and of the traders' list. */
export function competitionsWithSport(q: Queryable) {
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
