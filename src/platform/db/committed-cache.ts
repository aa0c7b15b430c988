import { LRUCache } from 'lru-cache';
import { onTransactionEnd, type Queryable } from './database.ts';

/**
 * Rows as last committed, kept in the process for the paths every request takes (tenants, live sessions). The
 * domain that owns the rows calls changed(q) with every write to them: everything kept is dropped at once and again
 * when the write's transaction ends, when others can first see it, and a read that began before a change never
 * fills the cache. Entries expire after ttlMs, which bounds only what a change made by hand in the database leaves
 * unseen; the least recently used go first beyond `max`.
 */
export class CommittedCache<V extends object> {
  readonly #entries: LRUCache<string, V>;
  /** Bumped by every change: a read that began before it must not fill the cache. */
  #generation = 0;

  constructor(options: { max: number; ttlMs: number }) {
    this.#entries = new LRUCache({ max: options.max, ttl: options.ttlMs });
  }

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  /** Reads `key` with `read`, and keeps what was found if `keep` says so and nothing changed meanwhile. */
  async read(key: string, read: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true) {
    const generation = this.#generation;
    const value = await read();
    if (value !== undefined && keep(value) && generation === this.#generation) this.#entries.set(key, value);
    return value;
  }

  /** Replaces an entry still kept (never adds one), keeping its expiry. */
  update(key: string, value: V): void {
    if (this.#entries.has(key)) this.#entries.set(key, value, { noUpdateTTL: true });
  }

  /** Drops everything now and when the transaction of `q` ends. */
  changed(q: Queryable): void {
    const forget = () => {
      this.#generation += 1;
      this.#entries.clear();
    };
    forget();
    onTransactionEnd(q, forget);
  }
}
