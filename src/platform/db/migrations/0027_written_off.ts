import { sql, type Kysely } from 'kysely';

/**
 * A held debit resolved in part (docs/ledger.md, "Resolved in part"): the operator records what was collected
 * outside the service, and the rest is written off. `written_off` is that rest, in minor units; null for every other
 * obligation, a resolved one included when all of it was done.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table wallet_obligations
      add column written_off bigint,
      add constraint wallet_obligations_written_off_check
        check (written_off is null or (status = 'resolved' and endpoint = 'debit' and written_off between 1 and amount))`.execute(
    db,
  );
}
