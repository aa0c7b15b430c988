import type { Queryable } from '../../platform/db/database.ts';

export async function insertSport(q: Queryable, row: { id: string; name: string; sortOrder: number }) {
  await q.insertInto('sports').values({ id: row.id, name: row.name, sort_order: row.sortOrder }).execute();
}

export function findSport(q: Queryable, id: string) {
  return q.selectFrom('sports').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function anySport(q: Queryable): Promise<boolean> {
  return (await q.selectFrom('sports').select('id').limit(1).executeTakeFirst()) !== undefined;
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

/** Every sport in its sort order, with how many competitions it has. */
export async function sportsWithCompetitionCounts(q: Queryable) {
  const rows = await q
    .selectFrom('sports')
    .leftJoin('competitions', 'competitions.sport_id', 'sports.id')
    .select((eb) => [
      'sports.id',
      'sports.name',
      'sports.sort_order',
      'sports.live_delay_seconds',
      eb.fn.count<string>('competitions.id').as('competition_count'),
    ])
    .groupBy(['sports.id', 'sports.name', 'sports.sort_order', 'sports.live_delay_seconds'])
    .orderBy('sports.sort_order')
    .orderBy('sports.id')
    .execute();
  return rows.map((row) => ({ ...row, competition_count: Number(row.competition_count) }));
}

export async function setLiveDelay(q: Queryable, id: string, seconds: number): Promise<boolean> {
  const updated = await q.updateTable('sports').set({ live_delay_seconds: seconds }).where('id', '=', id).execute();
  return Number(updated[0]?.numUpdatedRows ?? 0) > 0;
}
