import { sql, type Insertable, type QueryCreator, type Updateable } from 'kysely';
import { columnsOf, slotsOf } from '../platform/db/compiled.ts';
import type { Queryable } from '../platform/db/database.ts';
import { after, insertPart, jsonRows, type StatementPart } from '../platform/db/one-statement.ts';
import type { Database } from '../platform/db/schema.ts';
import type { SelectionResult } from '../catalog/tables.ts';
import type { Bet, BetLegsTable, BetStatus, BetsTable, Cashout, CashoutsTable } from './tables.ts';
import { pageInTimeOrder, type TimePage } from '../platform/db/paging.ts';

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

/** The bet's legs as a part (`name`): written only if the part `gate` wrote the bet. */
export function insertLegsPart(name: string, legs: Array<Insertable<BetLegsTable>>, gate: string): StatementPart {
  return insertPart(name, 'bet_legs', legs, { gate, returning: 'bet_id' });
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

/** Whether a bet on the market is still waiting for its stake's outcome (it would escape the settlement). */
export async function hasPendingBetOnMarket(q: Queryable, marketId: string): Promise<boolean> {
  const row = await q
    .selectFrom('bets')
    .innerJoin('bet_legs', 'bet_legs.bet_id', 'bets.id')
    .select('bets.id')
    .where('bet_legs.market_id', '=', marketId)
    .where('bets.status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The bets with a leg on the market in the given states, locked, in id order (so two settlements never deadlock).
 * A bet whose outcome is its own (outcome_override_at) is never one of them: the market's results do not decide it.
 */
export function lockBetsOnMarket(q: Queryable, marketId: string, states: readonly BetStatus[]): Promise<Bet[]> {
  return q
    .selectFrom('bets')
    .selectAll()
    .where('status', 'in', states)
    .where('outcome_override_at', 'is', null)
    .where('id', 'in', (eb) => eb.selectFrom('bet_legs').select('bet_id').where('market_id', '=', marketId))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Copies a market's results onto the legs of every bet on it, but those of bets whose outcome is their own. */
export async function setLegResults(
  q: Queryable,
  marketId: string,
  results: Map<string, SelectionResult>,
): Promise<void> {
  for (const [selectionId, result] of results) {
    await q
      .updateTable('bet_legs')
      .set({ result })
      .where('market_id', '=', marketId)
      .where('selection_id', '=', selectionId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('bets')
              .select('bets.id')
              .whereRef('bets.id', '=', 'bet_legs.bet_id')
              .where('bets.outcome_override_at', 'is not', null),
          ),
        ),
      )
      .execute();
  }
}

/**
 * A bet's own leg results (by position), and its outcome marked as its own from `at` (the first time only): from
 * now on no market's results reach it (lockBetsOnMarket, setLegResults).
 */
export async function setOwnLegResults(
  q: Queryable,
  betId: string,
  results: Array<{ position: number; result: SelectionResult | null }>,
  at: Date,
): Promise<void> {
  for (const { position, result } of results) {
    await q
      .updateTable('bet_legs')
      .set({ result })
      .where('bet_id', '=', betId)
      .where('position', '=', position)
      .execute();
  }
  await q
    .updateTable('bets')
    .set((eb) => ({ outcome_override_at: eb.fn.coalesce('outcome_override_at', eb.val(at)) }))
    .where('id', '=', betId)
    .execute();
}

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

/** Bets still pending, placed before `before` (all of them without it). */
export function pendingBets(q: Queryable, before?: Date) {
  let query = q.selectFrom('bets').selectAll().where('status', '=', 'pending');
  if (before) query = query.where('placed_at', '<', before);
  return query.execute();
}

/**
 * Reserves liability against a limit in one statement: the row only grows while it stays within the limit, so
 * concurrent placements can never push it past.
 */
export interface Reservation {
  scope: 'selection' | 'event';
  refId: string;
}

/**
 * Adds the bet's liability to each row's reserved total and records what the bet reserved, as two parts of the
 * placement's statement, only if the part `gate` wrote the bet; `reservedIn` reads the reservations made from what
 * the statement answered. A row whose total would pass its limit is left as it was and not
 * recorded: the caller refuses the bet (rolling back the others) unless every reservation was made. A new row
 * starts at the liability, so the caller checks the liability alone against the limits first.
 */
export function reserveExposureParts(
  name: string,
  bet: { id: string; tenantId: string; liability: number },
  limits: Record<Reservation['scope'], number>,
  reservations: Reservation[],
  gate: string,
): { parts: StatementPart[]; reservedIn(written: Record<string, unknown[]>): Reservation[] } {
  const rows = reservations.map((reservation) => ({
    tenant_id: bet.tenantId,
    scope: reservation.scope,
    ref_id: reservation.refId,
    reserved: bet.liability,
  }));
  const reserve: StatementPart = {
    name,
    shape: `exposure reserved within its limits, after ${gate}`,
    build: (db, slot) =>
      db
        .insertInto('exposure')
        .columns(['tenant_id', 'scope', 'ref_id', 'reserved'])
        .expression((eb) =>
          eb
            .selectFrom(jsonRows('exposure', slot('rows')))
            .select(['r.tenant_id', 'r.scope', 'r.ref_id', 'r.reserved'])
            .where(after(gate)),
        )
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'scope', 'ref_id'])
            .doUpdateSet({ reserved: sql`exposure.reserved + excluded.reserved` })
            .where(
              sql<boolean>`exposure.reserved + excluded.reserved <= case exposure.scope
                when 'selection' then ${slot('selectionLimit')}::bigint else ${slot('eventLimit')}::bigint end`,
            ),
        )
        .returning(['scope', 'ref_id']),
    // In the order given: the rows are locked in that order.
    values: { rows: JSON.stringify(rows), selectionLimit: limits.selection, eventLimit: limits.event },
  };
  const recorded = `${name}_recorded`;
  const record: StatementPart = {
    name: recorded,
    shape: `bet_exposure of what ${name} reserved`,
    build: (_db, slot) => sql`insert into bet_exposure (bet_id, scope, ref_id, amount)
      select ${slot('betId')}::text, reserved.scope, reserved.ref_id, ${slot('liability')}::bigint
      from ${sql.id(name)} as reserved
      returning scope, ref_id`,
    values: { betId: bet.id, liability: bet.liability },
  };
  return {
    parts: [reserve, record],
    reservedIn: (written) =>
      (written[recorded] as Array<{ scope: Reservation['scope']; ref_id: string }>).map((row) => ({
        scope: row.scope,
        refId: row.ref_id,
      })),
  };
}

/**
 * Gives back exactly what the `released` bets reserved, once, and reserves again exactly what the `reopened` bets
 * reserved when they were placed (a bet the book already took: past any limit). Per selection and event, one update
 * with the net change, in the order reservations take, so this never deadlocks with a placement.
 */
export async function shiftBetExposure(
  q: Queryable,
  change: { released: Array<{ id: string; tenant_id: string }>; reopened: Array<{ id: string; tenant_id: string }> },
  now: Date,
): Promise<void> {
  const totals = new Map<string, { tenantId: string; scope: 'selection' | 'event'; refId: string; amount: number }>();
  const add = (tenantId: string, row: { scope: 'selection' | 'event'; ref_id: string }, amount: number) => {
    const key = `${tenantId}|${row.scope}|${row.ref_id}`;
    const total = totals.get(key) ?? { tenantId, scope: row.scope, refId: row.ref_id, amount: 0 };
    total.amount += amount;
    totals.set(key, total);
  };
  const tenantOf = new Map([...change.released, ...change.reopened].map((bet) => [bet.id, bet.tenant_id]));
  for (const [bets, releasedAt, sign] of [
    [change.released, now, -1],
    [change.reopened, null, 1],
  ] as const) {
    for (let start = 0; start < bets.length; start += 2_000) {
      const rows = await q
        .updateTable('bet_exposure')
        .set({ released_at: releasedAt })
        .where(
          'bet_id',
          'in',
          bets.slice(start, start + 2_000).map((bet) => bet.id),
        )
        .where('released_at', releasedAt === null ? 'is not' : 'is', null)
        .returning(['bet_id', 'scope', 'ref_id', 'amount'])
        .execute();
      for (const row of rows) add(tenantOf.get(row.bet_id)!, row, sign * row.amount);
    }
  }
  for (const total of [...totals.values()].sort((a, b) => (a.scope + a.refId < b.scope + b.refId ? -1 : 1))) {
    if (total.amount === 0) continue;
    await q
      .updateTable('exposure')
      .set((eb) => ({ reserved: eb('reserved', '+', total.amount) }))
      .where('tenant_id', '=', total.tenantId)
      .where('scope', '=', total.scope)
      .where('ref_id', '=', total.refId)
      .execute();
  }
}

export function betsOfPlayer(q: Queryable, playerId: string, page: TimePage & { statuses: Array<Bet['status']> }) {
  const query = q.selectFrom('bets').selectAll().where('player_id', '=', playerId).where('status', 'in', page.statuses);
  return pageInTimeOrder(query, 'placed_at', page).execute();
}

export function legsOfBets(q: Queryable, betIds: string[]) {
  if (betIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('bet_legs')
    .selectAll()
    .where('bet_id', 'in', betIds)
    .orderBy('bet_id')
    .orderBy('position')
    .execute();
}
