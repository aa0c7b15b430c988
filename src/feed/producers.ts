import type { CatalogService } from '../catalog/service.ts';
import type { Acting, AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { newToken, sha256Hex, TOKEN_PREFIX } from '../platform/crypto.ts';
import { notFound, platformErrors } from '../platform/errors.ts';
import type { ProducerPrincipal } from '../platform/http/principals.ts';
import { feedErrors } from './errors.ts';
import type { PricedEvent, ProducerView, RegisterProducerBody } from './schemas.ts';
import * as store from './store.ts';

type ProducersDeps = { db: Db; clock: Clock; audit: AuditLog; catalog: CatalogService; silenceSeconds: number };

/** The silence rule's actor in the audit trail: the service, by rule. */
const SILENCE_RULE: Acting = { actor: { type: 'system', id: 'feed-silence' } };

/**
 * Feed producers: registered by a platform administrator (the key shown once, stored as a hash), told apart by
 * their key, and watched: one silent past FEED_SILENCE_SECONDS is down, and every open market it controls is
 * suspended by rule until it has spoken again and sent its snapshot (ingestion.ts).
 */
export class Producers {
  readonly #deps: ProducersDeps;

  constructor(deps: ProducersDeps) {
    this.#deps = deps;
  }

  async register(by: Acting, body: RegisterProducerBody): Promise<{ producer: ProducerView; key: string }> {
    const key = newToken('feedKey');
    const now = this.#deps.clock.now();
    await inTransaction(this.#deps.db, async (tx) => {
      const row = { id: body.id, name: body.name, key_hash: sha256Hex(key), trusted: body.trusted ?? false };
      if (!(await store.insertProducer(tx, { ...row, created_at: now, last_alive_at: now }))) {
        throw feedErrors.producer_exists();
      }
      await this.#deps.audit.record(tx, {
        actor: by.actor,
        action: 'feed.producer.register',
        target: { type: 'producer', id: body.id },
        outcome: 'success',
        ip: by.ip,
        details: { name: body.name, trusted: row.trusted },
      });
    });
    const producer = (await this.list()).find((one) => one.id === body.id)!;
    return { producer, key };
  }

  /** A new key for the producer (a lost one, or a demo's restart): the old key stops working at once. */
  async issueKey(by: Acting, producerId: string): Promise<{ producer: ProducerView; key: string }> {
    const key = newToken('feedKey');
    await inTransaction(this.#deps.db, async (tx) => {
      if (!(await store.replaceKey(tx, producerId, sha256Hex(key)))) throw notFound('Producer');
      await this.#deps.audit.record(tx, {
        actor: by.actor,
        action: 'feed.producer.key',
        target: { type: 'producer', id: producerId },
        outcome: 'success',
        ip: by.ip,
        details: {},
      });
    });
    const producer = (await this.list()).find((one) => one.id === producerId)!;
    return { producer, key };
  }

  /** What the service holds of the events the producer prices, each with the last sequence it applied of it. */
  async pricedEvents(producerId: string): Promise<{ producer: string; now: string; events: PricedEvent[] }> {
    const now = this.#deps.clock.now();
    const sequences = await store.allSequences(this.#deps.db, producerId);
    const events = await this.#deps.catalog.feedControl.pricedEvents(producerId, [...sequences.keys()]);
    return {
      producer: producerId,
      now: now.toISOString(),
      events: events.map((event) => ({ ...event, sequence: sequences.get(event.eventId)! })),
    };
  }

  async list(): Promise<ProducerView[]> {
    const [rows, counts] = await Promise.all([
      store.listProducers(this.#deps.db),
      this.#deps.catalog.feedControl.marketCounts(),
    ]);
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      trusted: row.trusted,
      state: row.state,
      lastMessageAt: row.last_message_at?.toISOString() ?? null,
      staleMessages: row.stale_messages,
      gaps: row.gaps,
      markets: counts.get(row.id) ?? { fed: 0, held: 0, takenOver: 0 },
      createdAt: row.created_at.toISOString(),
    }));
  }

  /** The producer behind a feed key; 401 for any other (never saying whether a producer exists). */
  async authenticate(key: string): Promise<ProducerPrincipal> {
    const row = key.startsWith(TOKEN_PREFIX.feedKey)
      ? await store.producerByKeyHash(this.#deps.db, sha256Hex(key))
      : undefined;
    if (!row) throw platformErrors.unauthorized(undefined, 'The feed key is invalid.');
    return { producerId: row.id, trusted: row.trusted };
  }

  /**
   * The silence rule, run on a timer: each producer up or recovering that has sent nothing for FEED_SILENCE_SECONDS
   * is down, and its open markets are suspended at once, audited as the rule's. Answers how many went down.
   */
  async downSilent(): Promise<number> {
    const since = new Date(this.#deps.clock.now().getTime() - this.#deps.silenceSeconds * 1000);
    const silent = await store.silentProducers(this.#deps.db, since);
    for (const { id } of silent) await this.down(SILENCE_RULE, id);
    return silent.length;
  }

  /** A producer down (silent, or it said so): its state, and its open markets held, in one transaction. */
  async down(by: Acting, producerId: string, within?: Tx): Promise<void> {
    const work = async (tx: Tx) => {
      const producer = await store.lockProducer(tx, producerId);
      if (!producer || producer.state === 'down') return;
      await store.setState(tx, producerId, 'down');
      await this.#deps.catalog.feedControl.hold(by, producerId, tx);
    };
    await (within ? work(within) : inTransaction(this.#deps.db, work));
  }
}
