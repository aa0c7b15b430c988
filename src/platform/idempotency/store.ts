import type { Insertable } from 'kysely';
import type { Queryable } from '../db/database.ts';
import type { IdempotencyRecord, IdempotencyRecordsTable } from '../db/schema.ts';

type Key = { scope: string; key: string };

/** Claims the key if nobody has; returns whether this call claimed it. */
export async function insertClaim(q: Queryable, row: Insertable<IdempotencyRecordsTable>): Promise<boolean> {
  const inserted = await q
    .insertInto('idempotency_records')
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returning('idempotency_key')
    .executeTakeFirst();
  return inserted !== undefined;
}

export function lockRecord(q: Queryable, { scope, key }: Key): Promise<IdempotencyRecord> {
  return q
    .selectFrom('idempotency_records')
    .selectAll()
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** A claim abandoned by a crashed request is taken over: its clock starts again. */
export async function renewClaim(q: Queryable, { scope, key }: Key, now: Date): Promise<void> {
  await q
    .updateTable('idempotency_records')
    .set({ created_at: now })
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .execute();
}

export async function completeRecord(
  q: Queryable,
  { scope, key }: Key,
  response: { status: number; bodyEnc: string },
): Promise<void> {
  await q
    .updateTable('idempotency_records')
    .set({ state: 'completed', response_status: response.status, response_body_enc: response.bodyEnc })
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .execute();
}

/** Deletes a claim whose operation committed nothing. */
export async function deleteClaim(q: Queryable, { scope, key }: Key): Promise<void> {
  await q
    .deleteFrom('idempotency_records')
    .where('scope', '=', scope)
    .where('idempotency_key', '=', key)
    .where('state', '=', 'in_progress')
    .execute();
}

export async function eraseResponsesExpiredBy(q: Queryable, now: Date): Promise<number> {
  const result = await q
    .updateTable('idempotency_records')
    .set({ response_body_enc: null })
    .where('expires_at', '<=', now)
    .where('response_body_enc', 'is not', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
