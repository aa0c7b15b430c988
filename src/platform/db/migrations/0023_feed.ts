import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * The odds feed (src/feed/): producers that push messages with a key of their own, and the last sequence each has
 * given each event; markets a producer prices (`producer_id`), who controls each one's prices (`control`: the feed,
 * or a trader who took it over), markets suspended by the rule that a silent producer's markets close to bets
 * (`held_by_producer`), and the feed's latest price of a selection, kept while a trader controls its market.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table feed_producers (
      id text primary key,
      name text not null,
      key_hash text not null unique,
      trusted boolean not null default false,
      state text not null default 'up',
      last_message_at timestamptz,
      last_alive_at timestamptz,
      stale_messages bigint not null default 0,
      gaps bigint not null default 0,
      created_at timestamptz not null,
      constraint feed_producers_state_check ${oneOf('state', ['up', 'down', 'recovering'])}
    )`.execute(db);
  await sql`
    create table feed_event_sequences (
      producer_id text not null references feed_producers (id),
      event_id text not null,
      sequence bigint not null,
      primary key (producer_id, event_id)
    )`.execute(db);
  await sql`alter table markets add column producer_id text references feed_producers (id)`.execute(db);
  await sql`alter table markets add column control text not null default 'trader'`.execute(db);
  await sql`alter table markets add constraint markets_control_check ${oneOf('control', ['feed', 'trader'])}`.execute(
    db,
  );
  await sql`alter table markets add column held_by_producer boolean not null default false`.execute(db);
  await sql`create index markets_producer on markets (producer_id) where producer_id is not null`.execute(db);
  await sql`alter table selections add column fed_odds_milli integer`.execute(db);
}
