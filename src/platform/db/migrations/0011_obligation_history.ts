import { sql, type Kysely } from 'kysely';
import { oneOf } from './checks.ts';

/**
 * What every delivery proved and every change an obligation went through, kept for good:
 * - `claims`: how often the delivery engine claimed it for an attempt. 0 (with no attempt) proves that no request
 *   for it ever left the service; a superseded credit that was never sent is told apart from one whose fate is
 *   unknown.
 * - `confirmed_tx_id`, `confirmed_balance`: what the wallet answered when it confirmed the movement.
 * - `superseded_by`: the settlement that superseded it (`result:<marketId>:<version>`).
 * - `wallet_obligation_history`: one row per change of state or hold reason, with who or what made it and why.
 *   Existing obligations get one row for the state they are in, from what the row still says; what superseded
 *   them before is not known (`superseded_by` stays null).
 */
const STATES = ['sending', 'pending', 'applied', 'refused', 'unknown', 'held', 'resolved', 'cancelled'];
const HOLD_REASONS = [
  'refused',
  'refused_address',
  'destination_changed',
  'obsolete_credit_requires_review',
  'obsolete_debit_requires_review',
  'correction_insufficient_funds',
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table wallet_obligations
      add column claims integer not null default 0,
      add column confirmed_tx_id text,
      add column confirmed_balance bigint,
      add column superseded_by text`.execute(db);
  // Before this migration nothing counted claims, and an answer that lost its race to a resettlement was logged but
  // not counted as an attempt: whatever shows a request may have left counts as one claim at least (its attempts,
  // its logged calls, a live claim), and so does every obligation superseded before (the evidence was cleared).
  await sql`
    update wallet_obligations o set claims = greatest(
      o.attempts,
      (select count(*)::int from wallet_calls c where c.obligation_id = o.id),
      case when o.claimed_until is not null
        or (o.hold_reason in ('obsolete_credit_requires_review', 'obsolete_debit_requires_review')) then 1 else 0 end)
    where o.kind <> 'bet'`.execute(db);
  await sql`
    create table wallet_obligation_history (
      id bigint generated always as identity primary key,
      obligation_id text not null references wallet_obligations(id),
      at timestamptz not null,
      from_status text ${oneOf('from_status', STATES)},
      to_status text not null ${oneOf('to_status', STATES)},
      hold_reason text ${oneOf('hold_reason', HOLD_REASONS)},
      actor_type text not null ${oneOf('actor_type', ['system', 'staff'])},
      actor_id text not null,
      cause text not null,
      note text
    )`.execute(db);
  await sql`create index wallet_obligation_history_of on wallet_obligation_history (obligation_id, id)`.execute(db);
  await sql`
    insert into wallet_obligation_history (obligation_id, at, from_status, to_status, hold_reason, actor_type,
      actor_id, cause, note)
    select id, coalesce(resolved_at, created_at), null, status, hold_reason,
      case when reviewed_by is null then 'system' else 'staff' end, coalesce(reviewed_by, 'migration'),
      coalesce(last_outcome, 'recorded'), 'the state it was in when history began (migration 0011)'
    from wallet_obligations`.execute(db);
}
