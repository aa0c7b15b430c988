import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/** database.ts's Db, named here without importing it (database.ts registers each database's notifications). */
type Db = Kysely<Database>;

/**
 * LISTEN on either engine: PGlite tells its own process; on PostgreSQL a connection of its own (never one of the
 * pool's, which a transaction may hold) listens, and comes back after it breaks. Either way `onGap` is told when
 * notifications may have been missed (the connection broke), so the listener reads what it watches again.
 */
export interface Notifications {
  listen(channel: string, onPayload: (payload: string) => void, onGap: () => void): Promise<() => Promise<void>>;
}

const notifications = new WeakMap<Db, Notifications>();

/** How the database opened by openDatabase tells its listeners; absent for a database opened another way. */
export function notificationsOf(db: Db): Notifications | undefined {
  return notifications.get(db);
}

export function registerNotifications(db: Db, source: Notifications): void {
  notifications.set(db, source);
}

/** PGlite's own LISTEN, started while the one connection is held, so it never lands inside someone's transaction. */
export function pgliteNotifications(db: Db, pglite: PGlite): Notifications {
  return {
    async listen(channel, onPayload) {
      const unlisten = await db.connection().execute(() => pglite.listen(channel, onPayload));
      return () => db.connection().execute(() => unlisten());
    },
  };
}

/** A reconnection waits this long after a failure, so a database that is down is not hammered. */
const RECONNECT_MS = 1_000;

/** A dedicated client per listener, connected again after any failure until the listener stops. */
export function postgresNotifications(
  connectionString: string,
  onError: (error: Error) => void,
): Notifications & { closeAll(): Promise<void> } {
  const stops = new Set<() => Promise<void>>();
  return {
    /** The database closes: every listener with it (one left open would keep the process alive). */
    async closeAll() {
      await Promise.all([...stops].map((stop) => stop()));
    },
    async listen(channel, onPayload, onGap) {
      let client: pg.Client | undefined;
      let stopped = false;
      let retry: ReturnType<typeof setTimeout> | undefined;
      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString });
        next.on('notification', (message) => {
          if (message.channel === channel && message.payload !== undefined) onPayload(message.payload);
        });
        next.on('error', (error) => {
          onError(error);
          void next.end().catch(() => {});
          if (client === next) reconnect();
        });
        await next.connect();
        await next.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
        client = next;
      };
      const reconnect = () => {
        client = undefined;
        if (stopped) return;
        retry = setTimeout(() => {
          connect().then(onGap, (error: Error) => {
            onError(error);
            reconnect();
          });
        }, RECONNECT_MS);
      };
      await connect();
      const stop = async () => {
        stops.delete(stop);
        stopped = true;
        clearTimeout(retry);
        await client?.end().catch(() => {});
      };
      stops.add(stop);
      return stop;
    },
  };
}
