import { sql, type Kysely } from 'kysely';

/**
 * A player's stake factor (docs/betting.md, "Stake factors"): the share of the tenant's maximum stake the player may
 * stake, in basis points (10,000 is 100 %, the default; 2,500 a quarter; up to 100,000, ten times, for a valued
 * player). Set by traders and operators, applied at placement.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table players
      add column stake_factor_bp integer not null default 10000
        constraint players_stake_factor_bp_check check (stake_factor_bp between 1 and 100000)`.execute(db);
}
