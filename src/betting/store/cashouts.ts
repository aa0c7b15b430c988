import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import type { Cashout, CashoutsTable } from '../tables.ts';

export async function insertCashout(q: Queryable, row: Insertable<CashoutsTable>): Promise<void> {
  await q.insertInto('cashouts').values(row).execute();
}

export function cashoutsOfBets(q: Queryable, betIds: string[]): Promise<Cashout[]> {
  if (betIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('cashouts')
    .selectAll()
    .where('bet_id', 'in', betIds)
    .orderBy('bet_id')
    .orderBy('number')
    .execute();
}
