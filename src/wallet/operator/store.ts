import { sql, type Insertable, type Updateable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { pageInTimeOrder, type TimePage } from '../../platform/db/paging.ts';
import type {
  Adjustment,
  AdjustmentsTable,
  ObligationHistoryEntry,
  ObligationStatus,
  WalletObligation,
} from '../tables.ts';

/**
 * What staff read and decide: the workspace's lists and counts, every movement's history, the figures of the reports
 * and the dashboard, and the adjustments with their four eyes.
 */

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
 * Money the wallet confirmed (or an operator declared done), per UTC day of confirmation, kind and direction,
 * for one tenant: `amount` what moved (a debit resolved in part counts for what was collected), `written_off` the
 * rest of such debits. `to` is exclusive.
 */
export async function confirmedTotals(q: Queryable, tenantId: string, from: Date, to: Date) {
  const { rows } = await sql<ConfirmedRow>`
    select to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, endpoint,
      count(*)::int as movements, ${CONFIRMED_SUMS}
    from wallet_obligations
    where tenant_id = ${tenantId} and status in ('applied', 'resolved')
      and resolved_at >= ${from} and resolved_at < ${to}
    group by 1, 2, 3`.execute(q);
  return rows.map(confirmedFigures);
}

/** What moved and what was written off: a debit resolved in part moved only what was collected. */
const CONFIRMED_SUMS = sql`sum(amount - coalesce(written_off, 0)) as amount, sum(coalesce(written_off, 0)) as written_off`;

interface ConfirmedRow {
  day: string;
  kind: string;
  endpoint: string;
  movements: number;
  amount: string;
  written_off: string;
}

function confirmedFigures<T extends ConfirmedRow>(row: T) {
  return { ...row, amount: Number(row.amount), written_off: Number(row.written_off) };
}

/**
 * confirmedTotals for every tenant that has obligations, with the tenant: the tenants are found one by one along the
 * (tenant_id, …) indexes (a loose index scan), and each is read through its (tenant_id, resolved_at) index.
 */
export async function confirmedTotalsOfTenants(q: Queryable, from: Date, to: Date) {
  const { rows } = await sql<ConfirmedRow & { tenant_id: string }>`
    with recursive ledger_tenants as (
      (select tenant_id from wallet_obligations order by tenant_id limit 1)
      union all
      select (select o.tenant_id from wallet_obligations o where o.tenant_id > t.tenant_id order by o.tenant_id limit 1)
      from ledger_tenants t where t.tenant_id is not null
    )
    select t.tenant_id, c.day, c.kind, c.endpoint, c.movements, c.amount, c.written_off
    from ledger_tenants t
    cross join lateral (
      select to_char(resolved_at at time zone 'UTC', 'YYYY-MM-DD') as day, kind, endpoint,
        count(*)::int as movements, ${CONFIRMED_SUMS}
      from wallet_obligations
      where tenant_id = t.tenant_id and status in ('applied', 'resolved')
        and resolved_at >= ${from} and resolved_at < ${to}
      group by 1, 2, 3
    ) c
    where t.tenant_id is not null
    order by t.tenant_id, c.day`.execute(q);
  return rows.map(confirmedFigures);
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
