import { sql, type Insertable } from 'kysely';
import { chunks } from '../../platform/db/chunks.ts';
import type { Queryable } from '../../platform/db/database.ts';
import type { WalletCallsTable, WalletObligation } from '../tables.ts';
import type { WalletAttempt } from './client.ts';
import { UNSETTLED_STATES } from '../states.ts';

/**
 * The delivery engine's side of the tables: its claims on owed obligations (a lease and a count, written before
 * anything is sent), the wallet call log, and the backlog it leaves.
 */

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

export function callRow({ attempt, ...call }: WalletCall): Insertable<WalletCallsTable> {
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
