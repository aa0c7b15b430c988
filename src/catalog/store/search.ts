import { sql, type RawBuilder } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { FOLDING } from '../search-text.ts';
import { competitionsWithSport } from './competitions.ts';
import { eventHeaders } from './events.ts';

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

/** Competitions whose name and country hold every pattern, with their sport, by name. */
export function searchCompetitions(q: Queryable, patterns: string[], limit: number) {
  let query = competitionsWithSport(q);
  for (const pattern of patterns)
    query = query.where(
      sql<boolean>`${folded(sql`competitions.name || ' ' || competitions.country`)} ilike ${pattern}`,
    );
  return query.orderBy('competitions.name').orderBy('competitions.id').limit(limit).execute();
}
