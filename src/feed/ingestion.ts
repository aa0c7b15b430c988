import type { EventResults } from '../betting/event-results.ts';
import type { FedChange } from '../catalog/feed-control.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Acting } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { AppError } from '../platform/errors.ts';
import type { ProducerPrincipal } from '../platform/http/principals.ts';
import { feedErrors } from './errors.ts';
import type { Producers } from './producers.ts';
import type { FeedBatch, FeedMessage, FeedReceipt } from './schemas.ts';
import * as store from './store.ts';

type IngestionDeps = {
  db: Db;
  clock: Clock;
  catalog: CatalogService;
  eventResults: EventResults;
  producers: Producers;
};
type EventMessage = Exclude<FeedMessage, { type: 'alive' | 'snapshot_complete' }>;
type Outcome = FeedReceipt['results'][number];

/**
 * A producer's batch of messages, applied in order. A message about an event carries the producer's sequence for
 * it: one older than the event's last is stale and one equal a duplicate, both ignored (and counted); one that skips
 * ahead is applied and asks for a snapshot of the event. Each such message is one transaction with its sequence, so
 * a refused message changes nothing (not even the sequence, so the next one asks for a snapshot too). Prices go
 * through the catalog's feed control: never over a trader's.
 */
export class Ingestion {
  readonly #deps: IngestionDeps;

  constructor(deps: IngestionDeps) {
    this.#deps = deps;
  }

  async push(producer: ProducerPrincipal, batch: FeedBatch): Promise<FeedReceipt> {
    const index = batch.messages.findIndex((message) => message.producer !== producer.producerId);
    if (index >= 0) throw feedErrors.producer_mismatch({ field: `messages.${index}.producer` });
    const by: Acting = { actor: { type: 'system', id: `feed:${producer.producerId}` } };
    const counts = { stale: 0, gaps: 0 };
    const snapshotOf = new Set<string>();
    await this.#speaking(producer.producerId);
    const results: Outcome[] = [];
    for (const message of batch.messages) {
      const outcome = await this.#one(producer, by, message, counts, snapshotOf);
      results.push(outcome);
    }
    await store.recordMessages(this.#deps.db, producer.producerId, this.#deps.clock.now(), counts);
    const { state } = (await store.findProducer(this.#deps.db, producer.producerId))!;
    return { results, producer: { state }, snapshot: { all: state === 'recovering', eventIds: [...snapshotOf] } };
  }

  /** A producer that was down speaks again: it is recovering, and asked for everything it prices. */
  async #speaking(producerId: string): Promise<void> {
    await inTransaction(this.#deps.db, async (tx) => {
      const producer = await store.lockProducer(tx, producerId);
      if (producer?.state === 'down') await store.setState(tx, producerId, 'recovering');
    });
  }

  async #one(
    producer: ProducerPrincipal,
    by: Acting,
    message: FeedMessage,
    counts: { stale: number; gaps: number },
    snapshotOf: Set<string>,
  ): Promise<Outcome> {
    try {
      if (message.type === 'alive') {
        if (message.state === 'down') await this.#deps.producers.down(by, producer.producerId);
        return { outcome: 'applied' };
      }
      if (message.type === 'snapshot_complete') {
        await this.#recovered(by, producer.producerId);
        return { outcome: 'applied' };
      }
      return await this.#inSequence(producer, by, message, counts, snapshotOf);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if ('eventId' in message) snapshotOf.add(message.eventId);
      return { outcome: 'refused', error: { code: error.code, message: error.message } };
    }
  }

  /** The snapshot is complete: the producer is up, and the markets held for its silence reopen. */
  async #recovered(by: Acting, producerId: string): Promise<void> {
    await inTransaction(this.#deps.db, async (tx) => {
      const producer = await store.lockProducer(tx, producerId);
      if (producer?.state === 'up') return;
      await store.setState(tx, producerId, 'up');
      await this.#deps.catalog.feedControl.release(by, producerId, tx);
    });
  }

  async #inSequence(
    producer: ProducerPrincipal,
    by: Acting,
    message: EventMessage,
    counts: { stale: number; gaps: number },
    snapshotOf: Set<string>,
  ): Promise<Outcome> {
    const { producerId } = producer;
    const { eventId, sequence } = message;
    const applied = await inTransaction(this.#deps.db, async (tx) => {
      const last = await store.lockSequence(tx, producerId, eventId);
      if (last !== undefined && sequence < last) return 'stale' as const;
      if (last !== undefined && sequence === last) return 'duplicate' as const;
      const gap = last !== undefined && sequence > last + 1;
      const change = await this.#apply(tx, producerId, by, message);
      await store.setSequence(tx, producerId, eventId, sequence);
      return { change, gap };
    });
    if (applied === 'stale') counts.stale += 1;
    if (typeof applied === 'string') return { outcome: applied };
    if (applied.gap) {
      counts.gaps += 1;
      snapshotOf.add(eventId);
    }
    // Results and cancellations settle markets, each in a transaction of its own, once the event's end is committed.
    if (producer.trusted && message.type === 'result') await this.#deps.eventResults.apply(by, eventId, message.score);
    if (producer.trusted && message.type === 'cancel') await this.#deps.eventResults.voidUnsettled(by, eventId);
    return { outcome: applied.change };
  }

  /** One message's change, inside its transaction. */
  async #apply(tx: Tx, producerId: string, by: Acting, message: EventMessage): Promise<FedChange> {
    const { feedControl, trading } = this.#deps.catalog;
    const { eventId } = message;
    switch (message.type) {
      case 'fixture':
        return feedControl.fixture(tx, by, message);
      case 'market': {
        const { marketId, marketType, line, status, selections } = message;
        const market = {
          id: marketId,
          type: marketType,
          selections,
          ...(line ? { line } : {}),
          ...(status ? { status } : {}),
        };
        return feedControl.market(tx, by, producerId, eventId, market);
      }
      case 'odds':
        return feedControl.prices(tx, producerId, message.marketId, message.prices);
      case 'market_status':
        return feedControl.status(tx, producerId, message.marketId, message.status);
      case 'bet_stop':
        await feedControl.stopBets(tx, producerId, eventId);
        return 'applied';
      case 'event_state': {
        const { type: _type, producer: _producer, eventId: _event, sequence: _sequence, ...update } = message;
        await trading.updateEvent(by, eventId, update, tx);
        return 'applied';
      }
      case 'result':
        // the event ends with the score; its markets take no more bets; settling them is the trusted producer's
        // (after this commits) or a trader's, from the console's final score
        await trading.updateEvent(by, eventId, { status: 'finished', score: finalOf(message.score) }, tx);
        await feedControl.stopBets(tx, producerId, eventId);
        return 'applied';
      case 'cancel':
        await trading.updateEvent(by, eventId, { status: 'cancelled' }, tx);
        await feedControl.stopBets(tx, producerId, eventId);
        return 'applied';
    }
  }
}

const finalOf = ({ home, away }: { home: number; away: number }) => ({ home, away });
