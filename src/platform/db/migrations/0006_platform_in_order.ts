import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Every status-like column has its allowed values in the database too. A migration is history, so it spells its
  // list out; test/platform/schema.test.ts keeps it equal to EXPOSURE_SCOPES.
  await sql`alter table bet_exposure add constraint bet_exposure_scope_check ${oneOf('scope', ['selection', 'event'])}`.execute(
    db,
  );
  // A refused bet stores why as a catalogued code and its details; the HTTP status and message come from the
  // catalogue when it is shown, never from the database. Players are never told transport reasons, so the details
  // of an unconfirmed stake (its reason) go too: the wallet call log keeps them.
  await sql`
    update bets set refusal = (
      case when refusal::jsonb ->> 'code' = 'wallet_unavailable'
        then jsonb_build_object('code', 'wallet_unavailable')
        else (refusal::jsonb - 'status') - 'message'
      end)::text
    where refusal is not null`.execute(db);
}
