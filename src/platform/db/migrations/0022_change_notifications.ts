import { sql, type Kysely } from 'kysely';

/**
 * What players watch tells the stream it changed, whoever wrote it (this process, the CLI's live simulator, a feed
 * process): a trigger sends `pg_notify('bookmaker_changes', …)`, which PostgreSQL delivers at commit and drops on
 * rollback, and repeats of one payload in a transaction are sent once.
 *
 * - `event:<id>`: the event, one of its markets, or a selection's odds or result changed.
 * - `player:<id>`: one of the player's bets changed status or was cashed out in part.
 * - `balance:<playerId>:<minor units>`: the wallet confirmed a movement and said the balance after it.
 *
 * A lost notification loses nothing for good: the stream also reads what its subscribers watch again on a timer
 * (src/stream/, STREAM_SWEEP_SECONDS).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function notify_event_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('bookmaker_changes', 'event:' || new.id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger events_notify after insert or update on events
      for each row execute function notify_event_change()`.execute(db);

  await sql`
    create function notify_market_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('bookmaker_changes',
        'event:' || case when tg_op = 'DELETE' then old.event_id else new.event_id end);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger markets_notify after insert or update or delete on markets
      for each row execute function notify_market_change()`.execute(db);

  await sql`
    create function notify_selection_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('bookmaker_changes',
        'event:' || (select event_id from markets where id = new.market_id));
      return null;
    end $$`.execute(db);
  await sql`
    create trigger selections_notify after update on selections
      for each row when (old.odds_version is distinct from new.odds_version or old.result is distinct from new.result)
      execute function notify_selection_change()`.execute(db);

  await sql`
    create function notify_bet_change() returns trigger language plpgsql as $$
    begin
      perform pg_notify('bookmaker_changes', 'player:' || new.player_id);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger bets_notify after update on bets
      for each row when (old.status is distinct from new.status or old.cashed_out_stake <> new.cashed_out_stake)
      execute function notify_bet_change()`.execute(db);

  await sql`
    create function notify_balance() returns trigger language plpgsql as $$
    begin
      perform pg_notify('bookmaker_changes', 'balance:' || new.player_id || ':' || new.confirmed_balance);
      return null;
    end $$`.execute(db);
  await sql`
    create trigger obligations_notify_balance after update on wallet_obligations
      for each row when (new.confirmed_balance is not null
                         and old.confirmed_balance is distinct from new.confirmed_balance)
      execute function notify_balance()`.execute(db);
  await sql`
    create trigger obligations_notify_balance_inserted after insert on wallet_obligations
      for each row when (new.confirmed_balance is not null)
      execute function notify_balance()`.execute(db);
}
