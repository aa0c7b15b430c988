import { sql, type Insertable, type QueryCreator, type Updateable } from 'kysely';
import { columnsOf, slotsOf } from '../../platform/db/compiled.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { after, type StatementPart } from '../../platform/db/one-statement.ts';
import { pageInTimeOrder, type TimePage } from '../../platform/db/paging.ts';
import type { Database } from '../../platform/db/schema.ts';
import type { Bet, BetStatus, BetsTable } from '../tables.ts';

export function findBetByRequest(q: Queryable, playerId: string, requestId: string): Promise<Bet | undefined> {
  return q
    .selectFrom('bets')
    .selectAll()
    .where('player_id', '=', playerId)
    .where('request_id', '=', requestId)
    .executeTakeFirst();
}

export function findBet(q: Queryable, id: string): Promise<Bet | undefined> {
  return q.selectFrom('bets').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The pending bet as a part of the placement's statement (`name`): no row when the player already has a bet with
 * this request id (a repeat, or a concurrent twin that committed first).
 */
export function insertBetPart(name: string, bet: Insertable<BetsTable>): StatementPart {
  const columns = columnsOf(bet);
  return {
    name,
    shape: `insert into bets (${columns.join(', ')}), a repeated request id writing nothing`,
    build: (db, slot) =>
      db
        .insertInto('bets')
        .values(slotsOf(columns, slot) as Insertable<BetsTable>)
        .onConflict((oc) => oc.columns(['player_id', 'request_id']).doNothing())
        .returning('id'),
    values: bet,
  };
}

/** Moves a bet only if it is still in the state the caller saw; returns whether it moved. */
export async function moveBet(
  q: Queryable,
  id: string,
  from: BetStatus,
  changes: Updateable<BetsTable>,
): Promise<boolean> {
  const result = await guardedMove(q, id, from, changes).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** moveBet as a part of a statement (`name`): exactly one row, and only if the part `gate` (if any) wrote a row. */
export function moveBetPart(
  name: string,
  move: { id: string; from: BetStatus; changes: Updateable<BetsTable> },
  gate?: string,
): StatementPart {
  const columns = columnsOf(move.changes);
  const values: Record<string, unknown> = { id: move.id, from: move.from };
  for (const column of columns) values[`set.${column}`] = move.changes[column as keyof typeof move.changes];
  return {
    name,
    rows: 1,
    shape: `update bets set ${columns.join(', ')} if still in its state${gate ? `, after ${gate}` : ''}`,
    build: (db, slot) => {
      const moved = guardedMove(
        db,
        slot('id'),
        slot('from'),
        slotsOf(columns, slot, (column) => `set.${column}`),
      );
      return (gate ? moved.where(after(gate)) : moved).returning('id');
    },
    values,
  };
}

function guardedMove(q: QueryCreator<Database>, id: string, from: BetStatus, changes: Updateable<BetsTable>) {
  return q.updateTable('bets').set(changes).where('id', '=', id).where('status', '=', from);
}

/** Bets locked until the caller's transaction ends, in id order (so two writers never deadlock on them). */
export async function lockBets(q: Queryable, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await q.selectFrom('bets').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
}

/** What a settlement changes for one bet. */
export interface BetMove {
  id: string;
  from: BetStatus;
  to: BetStatus;
  settledVersion: number;
  settledReturn: number | null;
  settledAt: Date | null;
}

/**
 * Moves many bets in one statement, each only if still in the state the caller saw; returns the ids that moved.
 * (A settlement moves thousands of bets.)
 */
export async function moveBets(q: Queryable, moves: BetMove[]): Promise<Set<string>> {
  const moved = new Set<string>();
  for (let start = 0; start < moves.length; start += 1_000) {
    const values = moves.slice(start, start + 1_000).map(
      (move) =>
        sql`(${move.id}, ${move.from}, ${move.to}, ${move.settledVersion}::int, ${move.settledReturn}::bigint,
               ${move.settledAt}::timestamptz)`,
    );
    const { rows } = await sql<{ id: string }>`
      update bets b set status = v.to_status, settled_version = v.settled_version,
        settled_return = v.settled_return, settled_at = v.settled_at
      from (values ${sql.join(values)}) as v(id, from_status, to_status, settled_version, settled_return, settled_at)
      where b.id = v.id and b.status = v.from_status
      returning b.id`.execute(q);
    for (const row of rows) moved.add(row.id);
  }
  return moved;
}

/** Bets still pending, placed before `before` (all of them without it). */
export function pendingBets(q: Queryable, before?: Date) {
  let query = q.selectFrom('bets').selectAll().where('status', '=', 'pending');
  if (before) query = query.where('placed_at', '<', before);
  return query.execute();
}

export function betsOfPlayer(q: Queryable, playerId: string, page: TimePage & { statuses: Array<Bet['status']> }) {
  const query = q.selectFrom('bets').selectAll().where('player_id', '=', playerId).where('status', 'in', page.statuses);
  return pageInTimeOrder(query, 'placed_at', page).execute();
}
