import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Set when the platform revokes a client's integration keys: the aggregator cannot rotate new ones until the
  // platform lifts its holds (resume).
  await sql`alter table clients add column credentials_revoked_at timestamptz`.execute(db);
}
