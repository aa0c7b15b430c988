import { join } from 'node:path';
import type { DestinationStream } from 'pino';
import { buildApp, type App } from './app.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './platform/db/database.ts';
import { lockDataDir, lockPostgres, type InstanceLock } from './platform/db/instance-lock.ts';

export interface RunningServer {
  app: App;
  database: DatabaseHandle;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  stop(): Promise<void>;
}

export interface ServeOptions {
  clock?: Clock;
  logStream?: DestinationStream;
  demoLive?: boolean;
}

/** Where the embedded database lives inside DATA_DIR. */
export const pgliteDir = (config: Config): string => join(config.dataDir, 'pglite');

/**
 * Opens the database for a process that owns it. The instance lock comes first: a second process must be
 * refused before it touches PGlite files or runs migrations beside a live instance.
 */
export async function openOwnedDatabase(
  config: Config,
  onLockLost: (error: Error) => void,
): Promise<{ database: DatabaseHandle; lock: InstanceLock }> {
  const lock = config.databaseUrl
    ? await lockPostgres(config.databaseUrl)
    : await lockDataDir(config.dataDir, onLockLost);
  try {
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDir(config) });
    return { database, lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/** Start-up: lock, open, migrate, listen, start workers. stop() undoes it in reverse, finishing in-flight work. */
export async function startServer(config: Config, options: ServeOptions = {}): Promise<RunningServer> {
  let app: App | undefined;
  const { database, lock } = await openOwnedDatabase(config, (error) =>
    app?.http.log.fatal({ err: error }, 'instance lock lost'),
  );
  try {
    await migrateToLatest(database.db);
    app = await buildApp({ config, db: database.db, clock: options.clock ?? systemClock, ...options });
    // Before any request: bets left pending by a crash are unknown outcomes, refused and rolled back.
    const recovered = await app.services.betting.recoverPendingBets();
    if (recovered > 0) app.http.log.warn({ recovered }, 'pending bets from before a restart were refused and rolled back');
    const url = await app.http.listen({ port: config.port, host: config.host });
    for (const job of app.jobs) job.start();
    const running = app;
    return {
      app: running,
      database,
      url,
      stop: async () => {
        await running.http.close();
        await Promise.all(running.jobs.map((job) => job.stop()));
        await running.services.delivery.stop();
        await database.close();
        await lock.release();
      },
    };
  } catch (error) {
    await app?.http.close();
    await database.close();
    await lock.release();
    throw error;
  }
}
