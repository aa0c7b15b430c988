import { sql, type Insertable, type QueryCreator, type Updateable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import { columnsOf, slotsOf } from '../platform/db/compiled.ts';
import { after, insertPart, type StatementPart } from '../platform/db/one-statement.ts';
import { pageInTimeOrder, type TimePage } from '../platform/db/paging.ts';
import type { Database } from '../platform/db/schema.ts';
import type {
  Adjustment,
  AdjustmentsTable,
  ObligationHistoryEntry,
  ObligationStatus,
  WalletCallsTable,
  WalletObligation,
  WalletObligationHistoryTable,
  WalletObligationsTable,
} from './tables.ts';
import type { WalletAttempt } from './client.ts';
import { UNSETTLED_STATES, type HistoryActor } from './states.ts';

/** Bind-parameter budget per statement (PostgreSQL allows 65,535): big lists are sent in chunks. */
const CHUNK = 2_000;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}

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

/** Who may claim what now: free delivery slots of the tenants that have calls in flight (the others get `perWallet`). */
export interface ClaimSlots {
  now: Date;
  claimUntil: Date;
  perWallet: number;
  busy: Array<{ tenantId: string; free: number }>;
}

/**
 * Claims obligations due for delivery, fairly: each tenant (one wallet) gets at most its free slots, in due order.
 * A posting is due when it is owed (pending), its time has come, nobody's claim on it is alive, and no earlier
 * posting of its bet is unsettled (an unresolved predecessor blocks that bet only). A stake debit is never claimed:
 * the placement sends it once. Rows are locked FOR UPDATE SKIP LOCKED, and the claim is a lease (claimed_until):
 * a crashed claimant's claim simply expires.
 */
export async function claimDue(q: Queryable, slots: ClaimSlots): Promise<WalletObligation[]> {
  const busyTenants = slots.busy.map((entry) => entry.tenantId);
  const busyFree = slots.busy.map((entry) => entry.free);
  const { rows } = await sql<WalletObligation>`
    with recursive due_tenants as (
      (select tenant_id from wallet_obligations
        where status = 'pending' and kind <> 'bet' order by tenant_id limit 1)
      union all
      select (select o.tenant_id from wallet_obligations o
               where o.status = 'pending' and o.kind <> 'bet' and o.tenant_id > d.tenant_id
               order by o.tenant_id limit 1)
      from due_tenants d where d.tenant_id is not null
    ),
    candidates as (
      select c.id, c.tenant_id, c.next_attempt_at
      from due_tenants d
      cross join lateral (
        select o.id, o.tenant_id, o.next_attempt_at from wallet_obligations o
        where o.tenant_id = d.tenant_id and o.status = 'pending' and o.kind <> 'bet'
          and o.next_attempt_at <= ${slots.now}
          and (o.claimed_until is null or o.claimed_until <= ${slots.now})
          and not exists (
            select 1 from wallet_obligations earlier
            where earlier.bet_id = o.bet_id and earlier.sequence < o.sequence
              and earlier.status in (${sql.join(UNSETTLED_STATES)}))
        order by o.next_attempt_at, o.id
        limit ${slots.perWallet}
        for update skip locked
      ) c
      where d.tenant_id is not null
    ),
    free as (
      select * from unnest(${busyTenants}::text[], ${busyFree}::int[]) as f(tenant_id, slots)
    ),
    picked as (
      select ranked.id from (
        select id, tenant_id, row_number() over (partition by tenant_id order by next_attempt_at, id) as rank
        from candidates
      ) ranked
      left join free on free.tenant_id = ranked.tenant_id
      where ranked.rank <= coalesce(free.slots, ${slots.perWallet})
    )
    update wallet_obligations o set claimed_until = ${slots.claimUntil}, claims = o.claims + 1
    from picked where o.id = picked.id
    returning o.*`.execute(q);
  return rows;
}

/** After a restart (this process holds the instance lock): no claim of the previous process is still alive. */
export async function releaseClaims(q: Queryable): Promise<void> {
  await q
    .updateTable('wallet_obligations')
    .set({ claimed_until: null })
    .where('claimed_until', 'is not', null)
    .execute();
}

/**
 * A claim given back unsent (the engine stopped first): the obligation is due again at once, here or in the next
 * process, and its claims count as before, since nothing was sent (a claimed movement may have reached the wallet).
 * Only this claim is given back: one taken since (its lease expired) counts one more.
 */
export async function giveBackClaim(q: Queryable, obligation: WalletObligation): Promise<void> {
  await q
    .updateTable('wallet_obligations')
    .set({ claimed_until: null, claims: obligation.claims - 1 })
    .where('id', '=', obligation.id)
    .where('claims', '=', obligation.claims)
    .execute();
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

/** When the obligation was last made due again on request: an operator's retry or a casino's redelivery. */
export async function lastSentAgainAt(q: Queryable, obligationId: string): Promise<Date | undefined> {
  const row = await q
    .selectFrom('wallet_obligation_history')
    .select((eb) => eb.fn.max('at').as('at'))
    .where('obligation_id', '=', obligationId)
    .where('cause', 'in', ['retry', 'redelivery'])
    .executeTakeFirst();
  return row?.at ?? undefined;
}

/** The history of obligations, oldest change first. */
export function historyOf(q: Queryable, obligationIds: string[]): Promise<ObligationHistoryEntry[]> {
  if (obligationIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('wallet_obligation_history')
    .selectAll()
    .where('obligation_id', 'in', obligationIds)
    .orderBy('obligation_id')
    .orderBy('id')
    .execute();
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

/** One attempt for the wallet call log. */
export interface WalletCall {
  tenantId: string;
  obligationId: string | null;
  txId: string;
  endpoint: string;
  kind: string;
  at: Date;
  attempt: WalletAttempt;
}

/** The log line of one attempt to deliver an obligation. */
export function callOfObligation(obligation: WalletObligation, attempt: WalletAttempt, at: Date): WalletCall {
  return {
    tenantId: obligation.tenant_id,
    obligationId: obligation.id,
    txId: obligation.tx_id,
    endpoint: obligation.endpoint,
    kind: obligation.kind,
    at,
    attempt,
  };
}

/** The wallet call log: one row per attempt, whatever its outcome. */
export async function logWalletCalls(q: Queryable, calls: WalletCall[]): Promise<void> {
  for (const part of chunks(calls, 1_000)) {
    await q.insertInto('wallet_calls').values(part.map(callRow)).execute();
  }
}

function callRow({ attempt, ...call }: WalletCall): Insertable<WalletCallsTable> {
  return {
    tenant_id: call.tenantId,
    obligation_id: call.obligationId,
    tx_id: call.txId,
    endpoint: call.endpoint,
    kind: call.kind,
    http_status: attempt.status,
    outcome: attempt.outcome,
    reason: attempt.outcome === 'unknown' || attempt.outcome === 'not_sent' ? attempt.reason : null,
    operator_code: attempt.outcome === 'refused' ? attempt.code : null,
    duration_ms: attempt.durationMs,
    attempted_at: call.at,
  };
}

/**
 * Of these obligations, those with an attempt in the wallet call log that was not a refusal: applied, or of unknown
 * outcome (not_sent: nothing left the service).
 */
export async function withAnswersOtherThanRefusal(q: Queryable, obligationIds: string[]): Promise<Set<string>> {
  const rows = await q
    .selectFrom('wallet_calls')
    .select('obligation_id')
    .distinct()
    .where('obligation_id', 'in', obligationIds)
    .where('outcome', 'in', ['applied', 'unknown'])
    .execute();
  return new Set(rows.map((row) => row.obligation_id!));
}

/** Calls of obligations, newest first, at most `perObligation` each. */
export async function callsOf(q: Queryable, obligationIds: string[], perObligation: number) {
  if (obligationIds.length === 0) return [];
  const { rows } = await sql<{
    obligation_id: string;
    attempted_at: Date;
    http_status: number | null;
    outcome: string;
    reason: string | null;
    operator_code: string | null;
    duration_ms: number;
  }>`
    select obligation_id, attempted_at, http_status, outcome, reason, operator_code, duration_ms from (
      select c.*, row_number() over (partition by obligation_id order by attempted_at desc, id desc) as rank
      from wallet_calls c where obligation_id in (${sql.join(obligationIds)})
    ) ranked where rank <= ${perObligation}
    order by obligation_id, attempted_at desc`.execute(q);
  return rows;
}

export interface ObligationFilter extends TimePage {
  tenantId: string | null;
  status?: ObligationStatus | undefined;
  playerId?: string | undefined;
  betId?: string | undefined;
}

/** The operator workspace's list: one page by time owed (and one more row to tell whether another page exists). */
export function listObligations(q: Queryable, filter: ObligationFilter): Promise<WalletObligation[]> {
  let query = q.selectFrom('wallet_obligations').selectAll();
  if (filter.tenantId !== null) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.playerId) query = query.where('player_id', '=', filter.playerId);
  if (filter.betId) query = query.where('bet_id', '=', filter.betId);
  return pageInTimeOrder(query, 'created_at', filter).execute();
}

/**
 * Money the wallet confirmed (or an operator declared done), per UTC day of confirmation, kind and direction,
 * for one tenant. `to` is exclusive.
 */
export async function confirmedTotals(q: Queryable, tenantId: string, from: Date, to: Date) {
  const { rows } = await sql<{ day: string; kind: string; endpoint: string; movements: number; amount: string }>`
    select to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, endpoint,
      count(*)::int as movements, sum(amount) as amount
    from wallet_obligations
    where tenant_id = ${tenantId} and status in ('applied', 'resolved')
      and resolved_at >= ${from} and resolved_at < ${to}
    group by 1, 2, 3`.execute(q);
  return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

/**
 * confirmedTotals for every tenant that has obligations, with the tenant: the tenants are found one by one along the
 * (tenant_id, …) indexes (a loose index scan), and each is read through its (tenant_id, resolved_at) index.
 */
export async function confirmedTotalsOfTenants(q: Queryable, from: Date, to: Date) {
  const { rows } = await sql<{
    tenant_id: string;
    day: string;
    kind: string;
    endpoint: string;
    movements: number;
    amount: string;
  }>`
    with recursive ledger_tenants as (
      (select tenant_id from wallet_obligations order by tenant_id limit 1)
      union all
      select (select o.tenant_id from wallet_obligations o where o.tenant_id > t.tenant_id order by o.tenant_id limit 1)
      from ledger_tenants t where t.tenant_id is not null
    )
    select t.tenant_id, c.day, c.kind, c.endpoint, c.movements, c.amount
    from ledger_tenants t
    cross join lateral (
      select to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, endpoint,
        count(*)::int as movements, sum(amount) as amount
      from wallet_obligations
      where tenant_id = t.tenant_id and status in ('applied', 'resolved')
        and resolved_at >= ${from} and resolved_at < ${to}
      group by 1, 2, 3
    ) c
    where t.tenant_id is not null
    order by t.tenant_id, c.day`.execute(q);
  return rows.map((row) => ({ ...row, amount: Number(row.amount) }));
}

/** How many obligations are in each state, and held ones for each reason: of one tenant, or of all (null). */
export async function countObligations(q: Queryable, tenantId: string | null) {
  let query = q
    .selectFrom('wallet_obligations')
    .select((eb) => ['status', 'hold_reason', eb.fn.countAll<string>().as('count')])
    .groupBy(['status', 'hold_reason']);
  if (tenantId !== null) query = query.where('tenant_id', '=', tenantId);
  const rows = await query.execute();
  return rows.map((row) => ({ ...row, count: Number(row.count) }));
}

/**
 * Per tenant, the movements owed and waiting for delivery: how many, and the creation time of the oldest (gauges of
 * the metrics). Read from the delivery engine's partial index, so the cost is the backlog's, not the ledger's.
 */
export async function owedPerTenant(q: Queryable) {
  const rows = await q
    .selectFrom('wallet_obligations')
    .select((eb) => ['tenant_id', eb.fn.countAll<string>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .where('kind', '<>', 'bet')
    .groupBy('tenant_id')
    .execute();
  return rows.map((row) => ({ tenant_id: row.tenant_id, count: Number(row.count), oldest: row.oldest }));
}

/** Movements held for review, per tenant: how many, and the creation time of the oldest. */
export async function heldPerTenant(q: Queryable) {
  const rows = await q
    .selectFrom('wallet_obligations')
    .select((eb) => ['tenant_id', eb.fn.countAll<string>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'held')
    .groupBy('tenant_id')
    .orderBy('tenant_id')
    .execute();
  return rows.map((row) => ({ tenant_id: row.tenant_id, count: Number(row.count), oldest: row.oldest }));
}

/** Movements owed and waiting for delivery (stake debits are never owed this way): how many, since when. */
export async function deliveryBacklog(q: Queryable): Promise<{ count: number; oldest: Date | null }> {
  const row = await q
    .selectFrom('wallet_obligations')
    .select((eb) => [eb.fn.countAll<string>().as('count'), eb.fn.min('created_at').as('oldest')])
    .where('status', '=', 'pending')
    .where('kind', '<>', 'bet')
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: row.oldest };
}

/**
 * The wallet call log of (since, until], per tenant: calls, calls that failed (outcome unknown: no answer, a 5xx,
 * an unreadable one; or not sent: the transport refused the address), calls the wallet refused, and the 50th and
 * 99th percentiles of their durations (continuous, interpolated; milliseconds).
 */
export async function callFigures(q: Queryable, since: Date, until: Date) {
  const { rows } = await sql<{
    tenant_id: string;
    calls: number;
    failed: number;
    refused: number;
    p50: string | number;
    p99: string | number;
  }>`
    select tenant_id, count(*)::int as calls,
      count(*) filter (where outcome in ('unknown', 'not_sent'))::int as failed,
      count(*) filter (where outcome = 'refused')::int as refused,
      percentile_cont(0.5) within group (order by duration_ms) as p50,
      percentile_cont(0.99) within group (order by duration_ms) as p99
    from wallet_calls
    where attempted_at > ${since} and attempted_at <= ${until}
    group by tenant_id
    order by tenant_id`.execute(q);
  return rows.map((row) => ({ ...row, p50: Number(row.p50), p99: Number(row.p99) }));
}

/**
 * Inserts the adjustment unless its staff member used its Idempotency-Key in the tenant already; returns whether it
 * did.
 */
export async function insertAdjustment(q: Queryable, row: Insertable<AdjustmentsTable>): Promise<boolean> {
  const inserted = await q
    .insertInto('adjustments')
    .values(row)
    .onConflict((oc) => oc.columns(['tenant_id', 'staff_id', 'idempotency_key']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The adjustment a staff member made in the tenant with this Idempotency-Key. */
export function findAdjustmentByKey(
  q: Queryable,
  by: { tenantId: string; staffId: string; key: string },
): Promise<Adjustment | undefined> {
  return q
    .selectFrom('adjustments')
    .selectAll()
    .where('tenant_id', '=', by.tenantId)
    .where('staff_id', '=', by.staffId)
    .where('idempotency_key', '=', by.key)
    .executeTakeFirst();
}

export function findAdjustment(q: Queryable, id: string, lock = false): Promise<Adjustment | undefined> {
  const query = q.selectFrom('adjustments').selectAll().where('id', '=', id);
  return (lock ? query.forUpdate() : query).executeTakeFirst();
}

/**
 * A proposed adjustment approved (with its obligation) or rejected by a second staff member, only if it is still
 * proposed; returns whether it changed.
 */
export async function decideAdjustment(
  q: Queryable,
  id: string,
  decision: Pick<
    Updateable<AdjustmentsTable>,
    'status' | 'decided_by' | 'decided_at' | 'decision_reason' | 'obligation_id'
  >,
): Promise<boolean> {
  const result = await q
    .updateTable('adjustments')
    .set(decision)
    .where('id', '=', id)
    .where('status', '=', 'proposed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export interface AdjustmentFilter extends TimePage {
  tenantId: string | null;
  status?: Adjustment['status'] | undefined;
  playerId?: string | undefined;
}

/** One page by time proposed, and one more row (to tell whether another page exists). */
export function listAdjustments(q: Queryable, filter: AdjustmentFilter): Promise<Adjustment[]> {
  let query = q.selectFrom('adjustments').selectAll();
  if (filter.tenantId !== null) query = query.where('tenant_id', '=', filter.tenantId);
  if (filter.status) query = query.where('status', '=', filter.status);
  if (filter.playerId) query = query.where('player_id', '=', filter.playerId);
  return pageInTimeOrder(query, 'created_at', filter).execute();
}

/**
 * Serialises the adjustments of a tenant until the caller's transaction ends, so that two made at once both see
 * each other in the rolling totals of autoApprovedSince.
 */
export async function lockAdjustmentsOf(q: Queryable, tenantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`adjustments:${tenantId}`}, 0))`.execute(q);
}

/**
 * What one staff member approved alone (within the threshold, no second approver) since `since`, in the tenant,
 * and what was approved alone for the player by anyone: minor units, credits and debits alike.
 */
export async function autoApprovedSince(
  q: Queryable,
  by: { tenantId: string; staffId: string; playerId: string; since: Date },
): Promise<{ byStaff: number; forPlayer: number }> {
  const { rows } = await sql<{ by_staff: string; for_player: string }>`
    select coalesce(sum(amount) filter (where staff_id = ${by.staffId}), 0) as by_staff,
      coalesce(sum(amount) filter (where player_id = ${by.playerId}), 0) as for_player
    from adjustments
    where tenant_id = ${by.tenantId} and status = 'approved' and decided_by is null and created_at > ${by.since}`.execute(
    q,
  );
  return { byStaff: Number(rows[0]!.by_staff), forPlayer: Number(rows[0]!.for_player) };
}

// ---- the casino's view (integration API): its own tenant only ----

/** One page of a tenant's obligations for the casino by time owed (and one more row to tell whether more exist). */
export interface PartnerObligationFilter extends TimePage {
  tenantId: string;
  /** The ledger states wanted; with `held` among them, the hold reasons below narrow the held rows. */
  statuses?: readonly ObligationStatus[] | undefined;
  heldFor?: { in: readonly string[] } | { notIn: readonly string[] } | undefined;
  playerId?: string | undefined;
  betId?: string | undefined;
  /** Owed at or after `createdFrom`, before `createdTo`. */
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
}

export function partnerObligations(q: Queryable, filter: PartnerObligationFilter): Promise<WalletObligation[]> {
  let query = q.selectFrom('wallet_obligations').selectAll().where('tenant_id', '=', filter.tenantId);
  if (filter.statuses) query = query.where('status', 'in', filter.statuses);
  const heldFor = filter.heldFor;
  if (heldFor) {
    query = query.where((eb) =>
      eb.or([
        eb('status', '<>', 'held'),
        'in' in heldFor
          ? eb('hold_reason', 'in', heldFor.in as WalletObligation['hold_reason'][])
          : eb('hold_reason', 'not in', heldFor.notIn as WalletObligation['hold_reason'][]),
      ]),
    );
  }
  if (filter.playerId) query = query.where('player_id', '=', filter.playerId);
  if (filter.betId) query = query.where('bet_id', '=', filter.betId);
  if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo) query = query.where('created_at', '<', filter.createdTo);
  return pageInTimeOrder(query, 'created_at', filter).execute();
}

/** The obligation of a txId (txIds are unique across tenants: the caller checks the tenant). */
export function obligationOfTxId(q: Queryable, txId: string): Promise<WalletObligation | undefined> {
  return q.selectFrom('wallet_obligations').selectAll().where('tx_id', '=', txId).executeTakeFirst();
}

/**
 * For owed postings of bets: the txId of the earliest earlier posting of the same bet that is not settled (the
 * delivery engine sends none of a bet's postings before its predecessors are settled).
 */
export async function waitingFor(q: Queryable, obligationIds: string[]): Promise<Map<string, string>> {
  if (obligationIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; blocker: string }>`
    select o.id, b.tx_id as blocker
    from wallet_obligations o
    cross join lateral (
      select e.tx_id from wallet_obligations e
      where e.bet_id = o.bet_id and e.sequence < o.sequence and e.status in (${sql.join(UNSETTLED_STATES)})
      order by e.sequence limit 1
    ) b
    where o.id in (${sql.join(obligationIds)}) and o.status = 'pending' and o.bet_id is not null`.execute(q);
  return new Map(rows.map((row) => [row.id, row.blocker]));
}

/**
 * What counts as applied in [from, to) for one tenant, by the time it counted (the wallet confirmed it, or an
 * operator resolved it): the reconciliation statement's movements, in time order then txId.
 */
export function appliedBetween(q: Queryable, tenantId: string, from: Date, to: Date) {
  return q
    .selectFrom('wallet_obligations')
    .select(['tx_id', 'bet_id', 'kind', 'endpoint', 'amount', 'body', 'status', 'resolved_at'])
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', ['applied', 'resolved'])
    .where('resolved_at', '>=', from)
    .where('resolved_at', '<', to)
    .orderBy('resolved_at')
    .orderBy('tx_id')
    .execute();
}
