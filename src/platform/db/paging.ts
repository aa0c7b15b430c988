import { sql, type SelectQueryBuilder } from 'kysely';

/** The two orders of a list in time: newest first (the default of every list) or oldest first. */
export const LIST_ORDERS = ['newest', 'oldest'] as const;
export type ListOrder = (typeof LIST_ORDERS)[number];

export interface TimePage {
  /** The (time, id) of the previous page's last row, from its cursor. */
  after?: { at: Date; id: string | number } | undefined;
  order?: ListOrder | undefined;
  limit: number;
}

/**
 * One page of a list in time order by (`column`, id), after the cursor's row, and one more row to tell whether
 * another page exists. The id breaks ties between rows of the same instant, so no row is skipped or repeated.
 */
export function pageInTimeOrder<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  column: string,
  page: TimePage,
): SelectQueryBuilder<DB, TB, O> {
  const newest = (page.order ?? 'newest') === 'newest';
  const time = sql.ref(column);
  const after = page.after;
  const paged = after
    ? query.where(
        newest
          ? sql<boolean>`(${time}, id) < (${after.at}, ${after.id})`
          : sql<boolean>`(${time}, id) > (${after.at}, ${after.id})`,
      )
    : query;
  const direction = newest ? 'desc' : 'asc';
  return paged
    .orderBy(time, direction)
    .orderBy(sql`id`, direction)
    .limit(page.limit + 1);
}
