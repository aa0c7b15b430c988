import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * A live event's period and clock, beside its score. The clock is stored as it was last set (its reading, whether
 * it runs, which way it counts, and when it was set), so it moves on by itself between updates and an update is
 * one write, not one per second. The four clock columns are set together or not at all.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const periods = [
    'first_half',
    'half_time',
    'second_half',
    'extra_time_first_half',
    'extra_time_half_time',
    'extra_time_second_half',
    'penalties',
    'quarter_1',
    'quarter_2',
    'quarter_3',
    'quarter_4',
    'overtime',
    'period_1',
    'period_2',
    'period_3',
    'set_1',
    'set_2',
    'set_3',
    'set_4',
    'set_5',
    'break',
  ];
  await sql`
    alter table events
      add column period text ${oneOf('period', periods)},
      add column clock_seconds integer check (clock_seconds between 0 and 86400),
      add column clock_running boolean,
      add column clock_direction text ${oneOf('clock_direction', ['up', 'down'])},
      add column clock_set_at timestamptz,
      add constraint events_clock_whole check (
        (clock_seconds is null) = (clock_running is null)
        and (clock_seconds is null) = (clock_direction is null)
        and (clock_seconds is null) = (clock_set_at is null))`.execute(db);
}
