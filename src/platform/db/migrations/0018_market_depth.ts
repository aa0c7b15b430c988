import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * The market types players expect beside the first six: double chance, draw no bet, the half-time result and the
 * first half's moneyline, tennis's set betting and first set winner (src/catalog/states.ts MARKET_TYPES).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const types = [
    'match_result',
    'moneyline',
    'totals',
    'handicap',
    'both_teams_to_score',
    'correct_score',
    'double_chance',
    'draw_no_bet',
    'half_time_result',
    'first_half_moneyline',
    'set_betting',
    'first_set_winner',
  ];
  await sql`alter table markets drop constraint markets_type_check`.execute(db);
  await sql`alter table markets add constraint markets_type_check ${oneOf('type', types)}`.execute(db);
}
