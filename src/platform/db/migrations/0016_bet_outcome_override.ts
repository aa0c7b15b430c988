import { sql, type Kysely } from 'kysely';

/**
 * A bet whose outcome is decided for it alone (the sandbox outcome controls, docs/sandbox-outcomes.md): from the
 * first such decision on, its legs' results are its own, and no settlement or resettlement of a shared market
 * touches it. Null: the markets' results decide the bet, as for every production bet.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bets add column outcome_override_at timestamptz`.execute(db);
}
