import { sql, type Insertable, type QueryCreator, type Updateable } from 'kysely';
import { chunks } from '../../platform/db/chunks.ts';
import type { Queryable } from '../../platform/db/database.ts';
import { columnsOf, slotsOf } from '../../platform/db/compiled.ts';
import { after, insertPart, type StatementPart } from '../../platform/db/one-statement.ts';
import type { Database } from '../../platform/db/schema.ts';
import type {
  ObligationStatus,
  WalletObligation,
  WalletObligationHistoryTable,
  WalletObligationsTable,
} from '../tables.ts';
import type { HistoryActor } from '../states.ts';
import { callRow, type WalletCall } from '../delivery/store.ts';

/**
 * The ledger's rows: obligations written, moved (each guarded, with its line of history in the same statement) and
 * locked in the lock order, and the delivery engine's answers recorded. Only the ledger's files call what writes here
 * (test/architecture.test.ts).
 */

export async function insertObligations(q: Queryable, rows: Insertable<WalletObligationsTable>[]): Promise<void> {
  for (const part of chunks(rows, 1_000)) await q.insertInto('wallet_obligations').values(part).execute();
}

export function findObligation(q: Queryable, id: string): Promise<WalletObligation | undefined> {
  return q.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findObligations(q: Queryable, ids: string[]): Promise<WalletObligation[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return q.selectFrom('wallet_obligations').selectAll().where('id', 'in', ids).execute();
}

export function obligationsOfBets(q: Queryable, betIds: string[]): Promise<WalletObligation[]> {
  if (betIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('wallet_obligations')
    .selectAll()
    .where('bet_id', 'in', betIds)
    .orderBy('bet_id')
    .orderBy('sequence')
    .execute();
}

/**
 * Every obligation of the bets, locked until the caller's transaction ends, in (bet, sequence) order: the second
 * step of the lock order, after the bets' own rows (docs/ledger.md). What the caller decides from these rows no other
 * writer can change before it commits: the delivery engine's records wait, its claims skip them.
 */
export async function lockObligationsOfBets(q: Queryable, betIds: string[]): Promise<WalletObligation[]> {
  const rows: WalletObligation[] = [];
  for (const part of chunks([...betIds].sort())) {
    rows.push(
      ...(await q
        .selectFrom('wallet_obligations')
        .selectAll()
        .where('bet_id', 'in', part)
        .orderBy('bet_id')
        .orderBy('sequence')
        .forUpdate()
        .execute()),
    );
  }
  return rows;
}

/** One obligation, locked until the caller's transaction ends (one of no bet: an adjustment). */
export function lockObligation(q: Queryable, id: string): Promise<WalletObligation | undefined> {
  return q.selectFrom('wallet_obligations').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

/** Why an obligation changed, for its history: who or what changed it, what decided it, and in words. */
export interface Change {
  at: Date;
  actor: HistoryActor;
  cause: string;
  note: string | null;
}

/**
 * What a writer read of an obligation and decided on: a guarded move changes the row only if these are still so. The
 * attempt count is a fencing token (an attempt recorded by anyone else in between makes the move lose); the hold
 * reason and the claim count, when given, catch a supersession or a claim made since.
 */
export interface Seen {
  status: ObligationStatus;
  attempts: number;
  holdReason?: WalletObligation['hold_reason'];
  claims?: number;
}

/**
 * Changes an obligation only if it is still what the caller read (Seen), and writes the change into its history in
 * the same statement. Returns whether it changed. Only the ledger calls it.
 */
export async function moveObligation(
  q: Queryable,
  id: string,
  seen: Seen,
  changes: Updateable<WalletObligationsTable>,
  change: Change,
): Promise<boolean> {
  const result = await q
    .with('moved', (db) => guardedMove(db, id, seen, changes).returning(['id', 'status', 'hold_reason']))
    .insertInto('wallet_obligation_history')
    .columns([
      'obligation_id',
      'at',
      'from_status',
      'to_status',
      'hold_reason',
      'actor_type',
      'actor_id',
      'cause',
      'note',
    ])
    .expression((eb) =>
      eb
        .selectFrom('moved')
        .select([
          'moved.id',
          sql<Date>`${change.at}::timestamptz`.as('at'),
          sql<string>`${seen.status}::text`.as('from_status'),
          'moved.status',
          'moved.hold_reason',
          sql<string>`${change.actor.type}::text`.as('actor_type'),
          sql<string>`${change.actor.id}::text`.as('actor_id'),
          sql<string>`${change.cause}::text`.as('cause'),
          sql<string | null>`${change.note}::text`.as('note'),
        ]),
    )
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows) === 1;
}

/**
 * moveObligation as parts of a statement (`name`, exactly one row or the statement writes nothing), with the call
 * that moved it logged and the change written into its history by the same statement; made only after the part
 * `gate` wrote a row, when there is one. Guarded by state and attempt count: it moves a stake debit, which is never
 * held or claimed.
 */
export function moveObligationParts(
  name: string,
  move: {
    id: string;
    seen: { status: ObligationStatus; attempts: number };
    changes: Updateable<WalletObligationsTable> & { status: ObligationStatus };
  },
  call: WalletCall,
  change: Change,
  gate?: string,
): StatementPart[] {
  const history = historyRow(move.id, move.seen.status, move.changes.status, move.changes.hold_reason ?? null, change);
  const columns = columnsOf(move.changes);
  const values: Record<string, unknown> = { id: move.id, status: move.seen.status, attempts: move.seen.attempts };
  for (const column of columns) values[`set.${column}`] = move.changes[column as keyof typeof move.changes];
  const moved: StatementPart = {
    name,
    rows: 1,
    shape: `update wallet_obligations set ${columns.join(', ')} if still as seen${gate ? `, after ${gate}` : ''}`,
    build: (db, slot) => {
      const query = guardedMove(
        db,
        slot('id'),
        { status: slot('status'), attempts: slot('attempts') },
        slotsOf(columns, slot, (column) => `set.${column}`),
      );
      return (gate ? query.where(after(gate)) : query).returning('id');
    },
    values,
  };
  return [
    moved,
    insertPart(`${name}_logged`, 'wallet_calls', [callRow(call)], { gate: name, returning: 'id' }),
    insertPart(`${name}_history`, 'wallet_obligation_history', [history], { gate: name, returning: 'obligation_id' }),
  ];
}

/** Obligations as a part of a statement (`name`): written only if the part `gate` wrote a row. */
export function insertObligationsPart(name: string, rows: WalletObligation[], gate: string): StatementPart {
  return insertPart(name, 'wallet_obligations', rows, { gate, returning: 'id' });
}

/** The row still as the writer read it: state and attempt count, and hold reason and claim count when given. */
function guardedMove(q: QueryCreator<Database>, id: string, seen: Seen, changes: Updateable<WalletObligationsTable>) {
  let query = q
    .updateTable('wallet_obligations')
    .set(changes)
    .where('id', '=', id)
    .where('status', '=', seen.status)
    .where('attempts', '=', seen.attempts);
  if (seen.holdReason !== undefined) query = query.where('hold_reason', 'is not distinct from', seen.holdReason);
  if (seen.claims !== undefined) query = query.where('claims', '=', seen.claims);
  return query;
}

function historyRow(
  obligationId: string,
  from: ObligationStatus | null,
  to: ObligationStatus,
  holdReason: WalletObligation['hold_reason'],
  change: Change,
): Insertable<WalletObligationHistoryTable> {
  return {
    obligation_id: obligationId,
    at: change.at,
    from_status: from,
    to_status: to,
    hold_reason: holdReason,
    actor_type: change.actor.type,
    actor_id: change.actor.id,
    cause: change.cause,
    note: change.note,
  };
}

/**
 * The outcome of one delivery attempt, as a guarded change of the obligation the engine claimed (pending), or of
 * the same obligation superseded while the attempt was in flight (held).
 */
export interface DeliveryChange {
  id: string;
  seenStatus: ObligationStatus;
  seenAttempts: number;
  status: ObligationStatus;
  holdReason: string | null;
  lastOutcome: string;
  operatorCode: string | null;
  nextAttemptAt: Date;
  resolvedAt: Date | null;
  /** What the wallet answered when it confirmed the movement. */
  confirmedTxId: string | null;
  confirmedBalance: number | null;
  /** For the history, when the state changes. */
  note: string | null;
}

/**
 * Records many delivery attempts in one statement, each guarded like moveObligation (still in the state the engine
 * saw, same attempt count) and releasing the claim; a change of state is written into the history by the same
 * statement. Returns the ids that changed; the others lost a race.
 */
export async function recordDeliveries(q: Queryable, changes: DeliveryChange[], at: Date): Promise<Set<string>> {
  const moved = new Set<string>();
  for (const part of chunks(changes, 500)) {
    const values = part.map(
      (change) =>
        sql`(${change.id}, ${change.seenStatus}::text, ${change.seenAttempts}::int, ${change.status}::text,
             ${change.holdReason}::text, ${change.lastOutcome}::text, ${change.operatorCode}::text,
             ${change.nextAttemptAt}::timestamptz, ${change.resolvedAt}::timestamptz, ${change.confirmedTxId}::text,
             ${change.confirmedBalance}::bigint, ${change.note}::text)`,
    );
    const { rows } = await sql<{ id: string }>`
      with moved as (
        update wallet_obligations o set
          status = v.status, hold_reason = v.hold_reason, attempts = o.attempts + 1, last_outcome = v.last_outcome,
          operator_code = v.operator_code, next_attempt_at = v.next_attempt_at, resolved_at = v.resolved_at,
          confirmed_tx_id = v.confirmed_tx_id, confirmed_balance = v.confirmed_balance, claimed_until = null
        from (values ${sql.join(values)})
          as v(id, seen_status, seen_attempts, status, hold_reason, last_outcome, operator_code, next_attempt_at,
               resolved_at, confirmed_tx_id, confirmed_balance, note)
        where o.id = v.id and o.status = v.seen_status and o.attempts = v.seen_attempts
        returning o.id, v.seen_status, o.status, o.hold_reason, o.last_outcome, v.note
      ), history as (
        insert into wallet_obligation_history
          (obligation_id, at, from_status, to_status, hold_reason, actor_type, actor_id, cause, note)
        select id, ${at}::timestamptz, seen_status, status, hold_reason, 'system', 'delivery', last_outcome, note
        from moved where status <> seen_status
      )
      select id from moved`.execute(q);
    for (const row of rows) moved.add(row.id);
  }
  return moved;
}
