import { sql, type Kysely } from 'kysely';

/**
 * The source addresses an aggregator may call the aggregator API from: a JSON array of normalised IPv4 or IPv6
 * addresses and CIDR ranges, like the other lists of the authorization. Empty means any address, which is what every
 * authorization allowed before this migration, so existing rows keep working unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table aggregator_authorizations add column allowed_ips jsonb not null default '[]'`.execute(db);
}
