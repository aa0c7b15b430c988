import type { Insertable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
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
 * The event's last sequence from this producer, locked for the message's transaction (a row made for a first
 * message), or undefined for a first message.
 */
export async function lockSequence(q: Queryable, producerId: string, eventId: string): Promise<number | undefined> {
  const row = await q
    .selectFrom('feed_event_sequences')
    .select('sequence')
    .where('producer_id', '=', producerId)
    .where('event_id', '=', eventId)
    .forUpdate()
    .executeTakeFirst();
  return row?.sequence;
}

export async function setSequence(q: Queryable, producerId: string, eventId: string, sequence: number): Promise<void> {
  await q
    .insertInto('feed_event_sequences')
    .values({ producer_id: producerId, event_id: eventId, sequence })
    .onConflict((c) => c.columns(['producer_id', 'event_id']).doUpdateSet({ sequence }))
    .execute();
}
