import { sql, type Kysely } from 'kysely';

/**
 * The delivery engine's claim reads, per tenant, the owed postings in due order and stops at its batch size. A
 * partial index in exactly that order lets it stop early instead of sorting every owed posting of the tenant.
 * The old (status, next_attempt_at) index goes: after a bulk settlement, with statistics not yet refreshed, the
 * planner combined it with the (bet_id, sequence) key for the "no unsettled predecessor" test and read every
 * pending row once per candidate (3.7 s per claim at 10,000 owed credits, 0.5 ms without it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index wallet_obligations_due`.execute(db);
  await sql`
    create index wallet_obligations_deliverable on wallet_obligations (tenant_id, next_attempt_at, id)
    where status = 'pending' and kind <> 'bet'`.execute(db);
}
