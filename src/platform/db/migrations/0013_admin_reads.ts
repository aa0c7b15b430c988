import { sql, type Kysely } from 'kysely';

/**
 * Indexes for the staff console's reads, none of them on a column the hot paths write more than once:
 *
 * - the traders' event list pages through events by start time (`events (starts_at, id)`, the keyset of its cursor);
 * - the dashboard reads the last 24 hours of the wallet call log (`wallet_calls (attempted_at)`: the log is appended
 *   in time order, so each insert lands at the right edge of the index);
 * - the workspace badges and the dashboard count held movements per tenant and hold reason: a partial index of the
 *   held rows only, which a placement or a delivered movement never enters.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_starts_at on events (starts_at, id)`.execute(db);
  await sql`create index wallet_calls_attempted_at on wallet_calls (attempted_at)`.execute(db);
  await sql`
    create index wallet_obligations_held on wallet_obligations (tenant_id, hold_reason)
    where status = 'held'`.execute(db);
}
