import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * The ledger's and the bets' states as state machines (src/wallet/states.ts, src/betting/states.ts). Lists
 * are written out: a migration is history; test/platform/schema.test.ts keeps them equal to the constants.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const obligationStates = ['sending', 'pending', 'applied', 'refused', 'unknown', 'held', 'resolved', 'cancelled'];
  const holdReasons = [
    'refused',
    'refused_address',
    'destination_changed',
    'obsolete_credit_requires_review',
    'correction_insufficient_funds',
  ];
  await sql`alter table wallet_obligations add column hold_reason text`.execute(db);
  await sql`alter table wallet_obligations drop constraint wallet_obligations_status_check`.execute(db);
  // "failed" meant two things; it becomes "held", and why is said once, in hold_reason.
  await sql`
    update wallet_obligations set status = 'held',
      hold_reason = case when last_outcome in ('destination_changed', 'refused_address') then last_outcome
                         else 'refused' end
    where status = 'failed'`.execute(db);
  await sql`alter table wallet_obligations add constraint wallet_obligations_status_check ${oneOf('status', obligationStates)}`.execute(
    db,
  );
  await sql`alter table wallet_obligations add constraint wallet_obligations_hold_reason_check ${oneOf('hold_reason', holdReasons)}`.execute(
    db,
  );
  await sql`
    alter table wallet_obligations add constraint wallet_obligations_held_has_reason
    check (status <> 'held' or hold_reason is not null)`.execute(db);

  const betStates = ['pending', 'accepted', 'refused', 'partially_cashed_out', 'won', 'lost', 'void', 'cashed_out'];
  await sql`alter table bets drop constraint bets_status_check`.execute(db);
  await sql`alter table bets add constraint bets_status_check ${oneOf('status', betStates)}`.execute(db);
}
