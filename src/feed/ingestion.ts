import type { FedChange, PriceBook } from '../catalog/price-book.ts';
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

type IngestionDeps = { db: Db; clock: Clock; catalog: CatalogService; producers: Producers };

/** What settles an event from a trusted producer's result or cancellation, or undoes that (betting's results). */
export interface EventSettler {
  result(by: Acting, eventId: string, score: Extract<FeedMessage, { type: 'result' }>['score']): Promise<unknown>;
  cancel(by: Acting, eventId: string): Promise<unknown>;
  rollbackResult(by: Acting, eventId: string): Promise<unknown>;
  rollbackCancel(by: Acting, eventId: string): Promise<unknown>;
}
type EventMessage = Exclude<FeedMessage, { type: 'alive' | 'snapshot_complete' }>;
type Outcome = FeedReceipt['results'][number];
/** What a batch gathers as its messages are applied. */
interface Batch {
  counts: { stale: number; gaps: number };
  /** events to send again whole: a gap in their sequence, or a refused message */
  snapshotOf: Set<string>;
  /** settlements of a trusted producer's results and cancellations, run once the batch is committed */
  afterCommit: Array<() => Promise<unknown>>;
  /** each event's last sequence: as stored, then as this batch applied its messages */
  sequences: Map<string, number>;
  /** the events this batch applied a message of, with their last sequence, written at its end */
  applied: Map<string, number>;
  /** the batch's odds messages, judged one by one and written together */
  prices: PriceBook;
}

/**
 * A producer's batch of messages, applied in order in one transaction (one commit for the batch: players see its
 * prices together, and a commit's flush is paid once, not per message). A message about an event carries the
 * producer's sequence for it: one older than the event's last is stale and one equal a duplicate, both ignored (and
 * counted); one that skips ahead is applied and asks for a snapshot of the event. Each message is applied with its
 * sequence behind a savepoint, so a refused one changes nothing (not even the sequence, so the next one asks for a
 * snapshot too). Prices go through the catalog's feed control: never over a trader's.
 */
export class Ingestion {
  readonly #deps: IngestionDeps;
  #settler: EventSettler | undefined;

  constructor(deps: IngestionDeps) {
    this.#deps = deps;
  }

  /**
   * Betting settles what a trusted producer's results and cancellations decide (set by app-services.ts; a command
   * run without the server, which seeds fixtures and prices only, has none: such a result would end the event only).
   */
  settleWith(settler: EventSettler): void {
    this.#settler = settler;
  }

  async push(producer: ProducerPrincipal, batch: FeedBatch): Promise<FeedReceipt> {
    const index = batch.messages.findIndex((message) => message.producer !== producer.producerId);
    if (index >= 0) throw feedErrors.producer_mismatch({ field: `messages.${index}.producer` });
    const { producerId } = producer;
    const by: Acting = { actor: { type: 'system', id: `feed:${producerId}` } };
    const counts = { stale: 0, gaps: 0 };
    const snapshotOf = new Set<string>();
    const afterCommit: Array<() => Promise<unknown>> = [];
    const { results, state } = await inTransaction(this.#deps.db, async (tx) => {
      // The producer's row, locked: one batch of a producer at a time, in the order they came.
      const current = await store.lockProducer(tx, producerId);
      // A producer that was down speaks again: it is recovering, and asked for everything it prices.
      if (current?.state === 'down') await store.setState(tx, producerId, 'recovering');
      const eventIds = [
        ...new Set(batch.messages.flatMap((message) => ('eventId' in message ? [message.eventId] : []))),
      ];
      const sequences = await store.sequencesOf(tx, producerId, eventIds);
      const prices = this.#deps.catalog.feedControl.priceBook(tx, producerId);
      await prices.prime(batch.messages.flatMap((message) => (message.type === 'odds' ? [message.marketId] : [])));
      const applied = new Map<string, number>();
      const results: Outcome[] = [];
      for (const message of batch.messages) {
        const context = { counts, snapshotOf, afterCommit, sequences, applied, prices };
        results.push(await this.#one(tx, producer, by, message, context));
      }
      await prices.flush();
      await store.setSequences(tx, producerId, applied);
      await store.recordMessages(tx, producerId, this.#deps.clock.now(), counts);
      return { results, state: (await store.findProducer(tx, producerId))!.state };
    });
    // Results and cancellations settle markets, each in a transaction of its own, once the event's end is committed.
    for (const settle of afterCommit) await settle();
    return { results, producer: { state }, snapshot: { all: state === 'recovering', eventIds: [...snapshotOf] } };
  }

  /**
   * One message, in the batch's transaction behind a savepoint: a message refused is undone alone (nothing of it
   * stays, not even its sequence), and the rest of the batch goes on. An odds message, the bulk of a feed, needs
   * none: it is judged against the batch's price book and written with the others at its next flush, before any
   * other kind of message (which reads and changes markets itself) and at the batch's end.
   */
  async #one(tx: Tx, producer: ProducerPrincipal, by: Acting, message: FeedMessage, batch: Batch): Promise<Outcome> {
    const guarded = message.type !== 'odds';
    if (guarded) await batch.prices.flush();
    if (guarded) await store.messageSavepoint.begin(tx);
    try {
      const outcome = await this.#message(tx, producer, by, message, batch);
      if (guarded) await store.messageSavepoint.keep(tx);
      return outcome;
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (guarded) await store.messageSavepoint.undo(tx);
      if ('eventId' in message) batch.snapshotOf.add(message.eventId);
      return { outcome: 'refused', error: { code: error.code, message: error.message } };
    }
  }

  async #message(tx: Tx, producer: ProducerPrincipal, by: Acting, message: FeedMessage, batch: Batch) {
    const { producerId } = producer;
    if (message.type === 'alive') {
      if (message.state === 'down') await this.#deps.producers.down(by, producerId, tx);
      return { outcome: 'applied' as const };
    }
    if (message.type === 'snapshot_complete') {
      // the producer is up, and the markets held for its silence reopen
      await store.setState(tx, producerId, 'up');
      await this.#deps.catalog.feedControl.release(by, producerId, tx);
      return { outcome: 'applied' as const };
    }
    const { eventId, sequence } = message;
    const last = batch.sequences.get(eventId);
    if (last !== undefined && sequence < last) {
      batch.counts.stale += 1;
      return { outcome: 'stale' as const };
    }
    if (last !== undefined && sequence === last) return { outcome: 'duplicate' as const };
    if (last !== undefined && sequence > last + 1) {
      batch.counts.gaps += 1;
      batch.snapshotOf.add(eventId);
    }
    const change =
      message.type === 'odds'
        ? await batch.prices.price(message.marketId, message.prices)
        : await this.#apply(tx, producer, by, message);
    // kept in memory until the batch's end: a message refused later does not undo this one's sequence
    batch.sequences.set(eventId, sequence);
    batch.applied.set(eventId, sequence);
    const settler = producer.trusted ? this.#settler : undefined;
    if (settler && message.type === 'result') batch.afterCommit.push(() => settler.result(by, eventId, message.score));
    if (settler && message.type === 'cancel') batch.afterCommit.push(() => settler.cancel(by, eventId));
    if (settler && message.type === 'result_rollback' && change === 'applied') {
      batch.afterCommit.push(() => settler.rollbackResult(by, eventId));
    }
    if (settler && message.type === 'cancel_rollback' && change === 'applied') {
      batch.afterCommit.push(() => settler.rollbackCancel(by, eventId));
    }
    return { outcome: change };
  }

  /** One message's change other than prices (those are the price book's), inside the batch's transaction. */
  async #apply(
    tx: Tx,
    producer: ProducerPrincipal,
    by: Acting,
    message: Exclude<EventMessage, { type: 'odds' }>,
  ): Promise<FedChange> {
    const { producerId } = producer;
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
      case 'result_rollback':
        // only a trusted producer's result settled anything; another's was confirmed by a trader, who corrects it
        return producer.trusted ? 'applied' : 'ignored';
      case 'cancel_rollback':
        return this.#uncancel(tx, by, eventId);
    }
  }

  /** A cancelled event to be played after all: scheduled again, or live where its start has passed. */
  async #uncancel(tx: Tx, by: Acting, eventId: string): Promise<FedChange> {
    const { trading } = this.#deps.catalog;
    const event = await trading.eventStatus(tx, eventId);
    if (event?.status !== 'cancelled') return 'ignored';
    const status = event.startsAt > this.#deps.clock.now() ? 'scheduled' : 'live';
    await trading.updateEvent(by, eventId, { status }, tx);
    return 'applied';
  }
}

const finalOf = ({ home, away }: { home: number; away: number }) => ({ home, away });
