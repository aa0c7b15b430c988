import { sql, type Kysely } from 'kysely';

/**
 * The in-play bet delay of each sport (docs/betting.md, "In-play bets wait"): a bet with a leg on a live event of
 * the sport is held this many seconds before it is accepted or refused, so a price the feed is about to move, or a
 * goal a courtside bettor saw first, does not get a stale price. 0: no delay.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table sports
      add column live_delay_seconds integer not null default 0
        constraint sports_live_delay_seconds_check check (live_delay_seconds between 0 and 30)`.execute(db);
}
