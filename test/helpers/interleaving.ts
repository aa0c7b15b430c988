import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type PostgresCursor, type PostgresPool, type PostgresPoolClient } from 'kysely';
import type { Db } from '../../src/platform/db/database.ts';

/**
 * Races between two actors, made to happen every time on PostgreSQL: one operation is paused at a named point (just
 * before a statement of its whose text matches: after it read, before it writes) while another runs until it has
 * committed or waits for a lock the paused one holds; then the paused one is let go. A fix that takes the right lock
 * first turns "committed in between" into "waited": both are reported, so a test can say which it expects.
 *
 * PGlite runs one transaction at a time, so these races cannot exist there: interleaving tests run on PostgreSQL
 * (`DATABASE_URL`) and are skipped on PGlite with that reason (`ON_POSTGRES`).
 */
export class Interleaving {
  readonly #armed: Pause[] = [];
  readonly #clients = new WeakMap<PostgresPoolClient, PostgresPoolClient>();

  /** For openDatabase's `interpose`: every statement of the service passes the armed pauses first. */
  readonly interpose = (pool: PostgresPool): PostgresPool => ({
    connect: async () => {
      const client = await pool.connect();
      let gated = this.#clients.get(client);
      if (!gated) {
        gated = this.#gated(client);
        this.#clients.set(client, gated);
      }
      return gated;
    },
    end: () => pool.end(),
  });

  /**
   * Runs `paused` until it is about to run a statement matching `point.before`, then `meanwhile` until it has
   * committed (its promise settled) or waits for a lock, then lets `paused` go. Throws if `paused` ends without
   * reaching the point (the test's premise is wrong). Both outcomes are returned, errors included, with whether
   * `meanwhile` had to wait for the paused one's lock.
   */
  async race<A, B>(
    db: Db,
    point: { name: string; before: RegExp },
    paused: () => Promise<A>,
    meanwhile: () => Promise<B>,
  ): Promise<{ paused: Settled<A>; meanwhile: Settled<B>; waited: boolean }> {
    const pause = this.#arm(point.name, point.before);
    const first = settle(paused());
    const reached = await Promise.race([pause.reached.then(() => true), first.then(() => false)]);
    if (!reached) {
      this.#disarm(pause);
      throw new Error(`the paused operation ended without reaching "${point.name}": ${JSON.stringify(await first)}`);
    }
    const second = settle(meanwhile());
    const waited = await untilSettledOrWaiting(db, second);
    pause.release();
    return { paused: await first, meanwhile: await second, waited };
  }

  #arm(name: string, before: RegExp): Pause {
    let reached!: () => void;
    let release!: () => void;
    const pause: Pause = {
      name,
      before,
      reached: new Promise<void>((resolve) => (reached = resolve)),
      released: new Promise<void>((resolve) => (release = resolve)),
      reach: () => reached(),
      release: () => release(),
    };
    this.#armed.push(pause);
    return pause;
  }

  #disarm(pause: Pause): void {
    const index = this.#armed.indexOf(pause);
    if (index >= 0) this.#armed.splice(index, 1);
  }

  #gated(client: PostgresPoolClient): PostgresPoolClient {
    const query = async (text: string, parameters: readonly unknown[]) => {
      const pause = this.#armed.find((armed) => armed.before.test(text));
      if (pause) {
        this.#disarm(pause);
        pause.reach();
        await pause.released;
      }
      return client.query(text, parameters);
    };
    return {
      query: ((textOrCursor: string | PostgresCursor<unknown>, parameters?: readonly unknown[]) =>
        typeof textOrCursor === 'string'
          ? query(textOrCursor, parameters ?? [])
          : client.query(textOrCursor)) as PostgresPoolClient['query'],
      release: () => client.release(),
    };
  }
}

/** The reason interleaving tests give when they are skipped: `it(name, ON_POSTGRES, ...)`. */
export const ON_POSTGRES = {
  skip: process.env.DATABASE_URL
    ? false
    : 'PGlite runs one transaction at a time, so this race cannot happen there: it runs on PostgreSQL (DATABASE_URL)',
};

interface Pause {
  name: string;
  before: RegExp;
  reached: Promise<void>;
  released: Promise<void>;
  reach(): void;
  release(): void;
}

export type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
}

/** Whether `operation` was still running and waiting for a lock (true) or had settled (false) when this returned. */
async function untilSettledOrWaiting(db: Db, operation: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void operation.then(() => (settled = true));
  for (let round = 0; round < 1_000; round += 1) {
    if (settled) return false;
    const { rows } = await sql<{ waiting: number }>`
      select count(*)::int as waiting from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    if (rows[0]!.waiting > 0) return true;
    await sleep(5);
  }
  throw new Error('the other operation neither ended nor waited for a lock within 5 s');
}
