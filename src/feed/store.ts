import { sql, type Insertable } from 'kysely';
import type { Queryable, Tx } from '../platform/db/database.ts';
import type { FeedProducersTable, ProducerState } from './tables.ts';

export async function insertProducer(q: Queryable, row: Insertable<FeedProducersTable>): Promise<boolean> {
  const inserted = await q
    .insertInto('feed_producers')
    .values(row)
    .onConflict((c) => c.doNothing())
    .execute();
  return Number(inserted[0]?.numInsertedOrUpdatedRows ?? 0) > 0;
}

export function producerByKeyHash(q: Queryable, keyHash: string) {
  return q.selectFrom('feed_producers').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export function findProducer(q: Queryable, id: string) {
  return q.selectFrom('feed_producers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The producer, locked until the batch's transaction ends: its state changes one batch at a time. */
export function lockProducer(q: Queryable, id: string) {
  return q.selectFrom('feed_producers').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}

export function listProducers(q: Queryable) {
  return q.selectFrom('feed_producers').selectAll().orderBy('id').execute();
}

export async function recordMessages(
  q: Queryable,
  id: string,
  at: Date,
  counts: { stale: number; gaps: number },
): Promise<void> {
  await q
    .updateTable('feed_producers')
    .set((eb) => ({
      last_message_at: at,
      last_alive_at: at,
      stale_messages: eb('stale_messages', '+', counts.stale),
      gaps: eb('gaps', '+', counts.gaps),
    }))
    .where('id', '=', id)
    .execute();
}

export async function setState(q: Queryable, id: string, state: ProducerState): Promise<void> {
  await q.updateTable('feed_producers').set({ state }).where('id', '=', id).execute();
}

/** Producers up or recovering whose last sign of life is older than `silentSince`. */
export function silentProducers(q: Queryable, silentSince: Date) {
  return q
    .selectFrom('feed_producers')
    .select(['id'])
    .where('state', '!=', 'down')
    .where((eb) => eb.or([eb('last_alive_at', '<', silentSince), eb('last_alive_at', 'is', null)]))
    .where('created_at', '<', silentSince)
    .execute();
}

/**
 * The last sequence this producer gave each of these events (an event it never spoke of is absent). Read without a
 * lock: the producer's row, locked for the batch, keeps its batches one at a time.
 */
export async function sequencesOf(q: Queryable, producerId: string, eventIds: string[]): Promise<Map<string, number>> {
  if (eventIds.length === 0) return new Map();
  const rows = await q
    .selectFrom('feed_event_sequences')
    .select(['event_id', 'sequence'])
    .where('producer_id', '=', producerId)
    .where('event_id', 'in', eventIds)
    .execute();
  return new Map(rows.map((row) => [row.event_id, row.sequence]));
}

/** Every event this producer spoke of, with its last sequence. */
export async function allSequences(q: Queryable, producerId: string): Promise<Map<string, number>> {
  const rows = await q
    .selectFrom('feed_event_sequences')
    .select(['event_id', 'sequence'])
    .where('producer_id', '=', producerId)
    .execute();
  return new Map(rows.map((row) => [row.event_id, row.sequence]));
}

/** A new key's hash in place of the old one: false when there is no such producer. */
export async function replaceKey(q: Queryable, id: string, keyHash: string): Promise<boolean> {
  const updated = await q
    .updateTable('feed_producers')
    .set({ key_hash: keyHash })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(updated.numUpdatedRows) > 0;
}

/** The batch's last sequence of each event it applied a message of, in one statement. */
export async function setSequences(q: Queryable, producerId: string, sequences: Map<string, number>): Promise<void> {
  if (sequences.size === 0) return;
  await q
    .insertInto('feed_event_sequences')
    .values([...sequences].map(([eventId, sequence]) => ({ producer_id: producerId, event_id: eventId, sequence })))
    .onConflict((c) =>
      c.columns(['producer_id', 'event_id']).doUpdateSet((eb) => ({ sequence: eb.ref('excluded.sequence') })),
    )
    .execute();
}

/** A message applied alone inside its batch's transaction: begun, kept, or undone (ingestion.ts). */
export const messageSavepoint = {
  begin: (tx: Tx) => sql`savepoint feed_message`.execute(tx),
  keep: (tx: Tx) => sql`release savepoint feed_message`.execute(tx),
  undo: (tx: Tx) => sql`rollback to savepoint feed_message`.execute(tx),
};
