import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Db } from '../../platform/db/database.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Delivery } from '../ledger/attempts.ts';
import type { ObligationState } from '../states.ts';
import * as store from './store.ts';

/** Results recorded per statement at most; the rest wait for the next write. */
export const RECORD_BATCH = 200;

type AttemptRecorderDeps = { db: Db; clock: Clock; ledger: Ledger; log: FastifyBaseLogger };

/**
 * The delivery engine's answers, written together: each attempt's obligation and its wallet call log line in one
 * transaction per batch, so a thousand answers cost a few statements, not a thousand.
 */
export class AttemptRecorder {
  readonly #deps: AttemptRecorderDeps;
  /** Told the time (clock milliseconds) each attempt recorded as still owed is due again. */
  readonly #dueAgain: (at: number) => void;
  #unrecorded: Array<{ delivery: Delivery; done: () => void }> = [];
  #recording = false;

  constructor(deps: AttemptRecorderDeps, dueAgain: (at: number) => void) {
    this.#deps = deps;
    this.#dueAgain = dueAgain;
  }

  /** Answers waiting to be written. */
  get waiting(): number {
    return this.#unrecorded.length;
  }

  /** Records an attempt with the others waiting; resolves once it is written (or could not be). */
  record(delivery: Delivery): Promise<void> {
    return new Promise<void>((done) => {
      this.#unrecorded.push({ delivery, done });
      if (!this.#recording) {
        this.#recording = true;
        void this.#record();
      }
    });
  }

  /**
   * Writes waiting attempts, a batch per transaction (the obligation's new state and its wallet call log line
   * together), until none wait. If the write fails, those obligations keep their claim until it expires and are
   * sent again with the same txId: the wallet answers a repeat with its stored outcome.
   */
  async #record(): Promise<void> {
    // Let the attempts finishing in this turn of the event loop join the batch.
    await new Promise((resolve) => setImmediate(resolve));
    while (this.#unrecorded.length > 0) {
      const batch = this.#unrecorded.splice(0, RECORD_BATCH);
      const at = this.#deps.clock.now();
      try {
        const recorded = await inTransaction(this.#deps.db, async (tx) => {
          await store.logWalletCalls(
            tx,
            batch.map(({ delivery }) => store.callOfObligation(delivery.obligation, delivery.attempt, at)),
          );
          return this.#deps.ledger.attempts.recordDeliveries(
            tx,
            batch.map((entry) => entry.delivery),
          );
        });
        const states = recorded.states;
        if (recorded.lost.length > 0) {
          for (const [id, state] of await this.#recordSuperseded(recorded.lost)) states.set(id, state);
        }
        for (const { delivery } of batch) {
          if (states.get(delivery.obligation.id) !== 'pending') continue;
          const due = delivery.nextAttemptAt.getTime();
          this.#dueAgain(due);
        }
        const lost = batch.filter(({ delivery }) => !states.has(delivery.obligation.id));
        if (lost.length > 0) {
          this.#deps.log.warn(
            { txIds: lost.map(({ delivery }) => delivery.obligation.tx_id) },
            'attempts not recorded: another writer changed these obligations first',
          );
        }
      } catch (err) {
        this.#deps.log.error({ err, count: batch.length }, 'wallet attempts not recorded; they will be sent again');
      }
      for (const entry of batch) entry.done();
    }
    this.#recording = false;
  }

  /**
   * Answers to obligations that changed while their attempts were in flight (a resettlement superseded them), in a
   * transaction of their own after the batch, so that their bets are locked before their obligations, as a
   * settlement locks them. If this fails, the answers stay in the call log and the obligations held for review.
   */
  async #recordSuperseded(lost: Delivery[]): Promise<Map<string, ObligationState>> {
    try {
      return await inTransaction(this.#deps.db, (tx) => this.#deps.ledger.attempts.recordSuperseded(tx, lost));
    } catch (err) {
      this.#deps.log.error(
        { err, txIds: lost.map(({ obligation }) => obligation.tx_id) },
        'answers to superseded movements not recorded; they stay held for review with their calls logged',
      );
      return new Map();
    }
  }
}
