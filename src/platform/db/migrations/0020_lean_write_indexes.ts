import { sql, type Kysely } from 'kysely';

/**
 * Indexes every placement paid for and no read used (docs/benchmarks.md, "PostgreSQL's share"):
 *
 * - `bets_status` indexed every bet twice (placed, then accepted) and again at each settlement, for the one read
 *   by state, the pending bets a restart or the recovery job looks for. It becomes an index of the pending bets
 *   only, in placement order, which stays as small as the bets in flight.
 * - `wallet_calls_tx`: no read looks wallet calls up by txId (a txId is looked up among the obligations, whose key
 *   it is, and their calls by obligation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index bets_status`.execute(db);
  await sql`create index bets_pending on bets (placed_at) where status = 'pending'`.execute(db);
  await sql`drop index wallet_calls_tx`.execute(db);
}
