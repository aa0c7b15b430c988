import type { Insertable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { ObligationStatus, WalletObligation, WalletObligationsTable } from '../platform/db/schema.ts';
import type { WalletAttempt } from './client.ts';

export async function insertObligation(q: Queryable, row: Insertable<WalletObligationsTable>): Promise<void> {
  await q.insertInto('wallet_obligations').values(row).execute();
}

export function findObligation(q: Queryable, id: string): Promise<WalletObligation | undefined> {
  return q.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirst();
}

export function obligationsOfBet(q: Queryable, betId: string): Promise<WalletObligation[]> {
  return q.selectFrom('wallet_obligations').selectAll().where('bet_id', '=', betId).orderBy('sequence').execute();
}

export function obligationsOfBets(q: Queryable, betIds: string[]): Promise<WalletObligation[]> {
  if (betIds.length === 0) return Promise.resolve([]);
  return q.selectFrom('wallet_obligations').selectAll().where('bet_id', 'in', betIds).orderBy('bet_id').orderBy('sequence').execute();
}

export async function nextSequence(q: Queryable, betId: string): Promise<number> {
  const row = await q
    .selectFrom('wallet_obligations')
    .select((eb) => eb.fn.max<number | null>('sequence').as('last'))
    .where('bet_id', '=', betId)
    .executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** Earlier postings in these states hold back the later ones of the same bet. */
const UNRESOLVED: ObligationStatus[] = ['sending', 'pending', 'failed'];

/**
 * Pending obligations whose time has come and whose bet has no earlier posting still unresolved: an unresolved
 * predecessor blocks that bet only. A stake debit is never among them: it is sent once, by the placement itself.
 */
export function dueObligations(q: Queryable, now: Date, limit: number): Promise<WalletObligation[]> {
  return q
    .selectFrom('wallet_obligations as o')
    .selectAll('o')
    .where('o.status', '=', 'pending')
    .where('o.kind', '!=', 'bet')
    .where('o.next_attempt_at', '<=', now)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('wallet_obligations as earlier')
            .select('earlier.id')
            .whereRef('earlier.bet_id', '=', 'o.bet_id')
            .whereRef('earlier.sequence', '<', 'o.sequence')
            .where('earlier.status', 'in', UNRESOLVED),
        ),
      ),
    )
    .orderBy('o.created_at')
    .orderBy('o.id')
    .limit(limit)
    .execute();
}

export async function hasUnresolvedPredecessor(q: Queryable, obligation: WalletObligation): Promise<boolean> {
  if (!obligation.bet_id) return false;
  const row = await q
    .selectFrom('wallet_obligations')
    .select('id')
    .where('bet_id', '=', obligation.bet_id)
    .where('sequence', '<', obligation.sequence)
    .where('status', 'in', UNRESOLVED)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records an attempt's result, only if the obligation is still in the state the caller saw: two writers can never
 * overwrite each other's outcome. Returns whether it was recorded.
 */
export async function recordAttempt(
  q: Queryable,
  id: string,
  from: ObligationStatus,
  change: { status: ObligationStatus; lastOutcome: string; operatorCode?: string | null; nextAttemptAt?: Date; resolvedAt?: Date | null },
): Promise<boolean> {
  const result = await q
    .updateTable('wallet_obligations')
    .set((eb) => ({
      status: change.status,
      attempts: eb('attempts', '+', 1),
      last_outcome: change.lastOutcome,
      operator_code: change.operatorCode ?? null,
      ...(change.nextAttemptAt ? { next_attempt_at: change.nextAttemptAt } : {}),
      ...(change.resolvedAt !== undefined ? { resolved_at: change.resolvedAt } : {}),
    }))
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The wallet call log: one row per attempt, whatever its outcome. */
export async function logWalletCall(
  q: Queryable,
  call: { tenantId: string; obligationId: string | null; txId: string; endpoint: string; kind: string; at: Date },
  attempt: WalletAttempt,
): Promise<void> {
  await q
    .insertInto('wallet_calls')
    .values({
      tenant_id: call.tenantId,
      obligation_id: call.obligationId,
      tx_id: call.txId,
      endpoint: call.endpoint,
      kind: call.kind,
      http_status: attempt.status,
      outcome: attempt.outcome,
      reason: attempt.outcome === 'unknown' ? attempt.reason : null,
      operator_code: attempt.outcome === 'refused' ? attempt.code : null,
      duration_ms: attempt.durationMs,
      attempted_at: call.at,
    })
    .execute();
}

/** Stops automatic delivery without an attempt: the obligation waits for an operator. */
export async function holdForReview(q: Queryable, id: string, reason: string): Promise<void> {
  await q.updateTable('wallet_obligations').set({ status: 'failed', last_outcome: reason }).where('id', '=', id).where('status', '=', 'pending').execute();
}
