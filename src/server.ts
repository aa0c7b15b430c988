import { createServer } from 'node:net';
import type { DestinationStream } from 'pino';
import { buildApp, type App } from './app.ts';
import { openLocalChannel, type LocalChannel } from './commands/local-channel.ts';
import { systemClock, type Clock } from './platform/clock.ts';
import { DEFAULT_DATA_DIR, type Config } from './platform/config.ts';
import { ensurePrivateDir, makePrivate, pgliteDir } from './platform/data-dir.ts';
import { openDatabase, type DatabaseHandle } from './platform/db/database.ts';
import { migrateToLatest } from './platform/db/migrate.ts';
import { lockDataDir, lockPostgres, type InstanceLock, type LockLost } from './platform/db/instance-lock.ts';
import { logDestination } from './platform/http/logging.ts';
import { DOCS_PATH } from './platform/http/openapi.ts';
import { serveMetrics, type MetricsListener } from './platform/metrics/listener.ts';
import { startDemoFeed } from './seed/demo-feed-process.ts';

export interface RunningServer {
  app: App;
  database: DatabaseHandle;
  /** Base URL the server listens on, e.g. http://127.0.0.1:3000 */
  url: string;
  /** Where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics; null with METRICS_PORT=off. */
  metricsUrl: string | null;
  stop(): Promise<void>;
}

export interface ServeOptions {
  clock?: Clock;
  logStream?: DestinationStream;
  demoLive?: boolean;
  /** Start-up narration for the person who started the server (database, migrations, URLs, next step). */
  say?: (line: string) => void;
  /**
   * Once aborted, start-up stops at its next step (a migration under way first commits or rolls back whole), undoes
   * what it opened and rejects with StartupInterrupted or MigrationsInterrupted, which say what state it leaves.
   */
  signal?: AbortSignal;
  /**
   * Called when the server can no longer run safely (its instance lock was lost): the workers have already
   * stopped; the process should exit. Without it the server only stops.
   */
  onFatal?: (error: Error) => void;
}

/** A start-up problem the person can fix, said in one line (a busy port, ...). */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/** Start-up stopped on request before the server listened; `state` says what it leaves. */
export class StartupInterrupted extends Error {
  constructor(state: string) {
    super(`stopped during start-up, ${state}`);
    this.name = 'StartupInterrupted';
  }
}

const BEFORE_LISTENING = 'before listening: the database is migrated and consistent, no request was served';

/** The variables another terminal needs to reach this server's database (a password is not repeated). */
function sameDatabase(config: Config): string {
  if (config.databaseUrl) {
    const url = new URL(config.databaseUrl);
    if (url.password) url.password = '…';
    return `DATABASE_URL=${url.toString()} `;
  }
  return config.dataDir === DEFAULT_DATA_DIR ? '' : `DATA_DIR=${config.dataDir} `;
}

export function describeDatabase(config: Config): string {
  if (!config.databaseUrl) return `embedded PGlite in ${pgliteDir(config)}`;
  const url = new URL(config.databaseUrl);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/**
 * Opens the database for the API instance. The instance lock comes first: a second instance must be refused
 * before it touches PGlite files or runs migrations beside a live one. Before the lock, an embedded database's
 * DATA_DIR is made or checked private to this user (data-dir.ts): a directory open to others stops the start.
 * Once the lock is held, everything in it is made private.
 */
async function openOwnedDatabase(
  config: Config,
  onLockLost: LockLost,
): Promise<{ database: DatabaseHandle; lock: InstanceLock }> {
  if (!config.databaseUrl) ensurePrivateDir(config.dataDir);
  const lock = config.databaseUrl
    ? await lockPostgres(config.databaseUrl, onLockLost)
    : await lockDataDir(config.dataDir, onLockLost);
  try {
    // Ours now: whatever was left open to others in it (by an older version, by hand) is made private.
    if (!config.databaseUrl) makePrivate(config.dataDir);
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: pgliteDir(config) });
    return { database, lock };
  } catch (error) {
    await lock.release();
    throw error;
  }
}

/**
 * Start-up: port check, lock, open, migrate, listen, local channel, workers. stop() undoes it in reverse,
 * finishing in-flight work.
 */
export async function startServer(config: Config, options: ServeOptions = {}): Promise<RunningServer> {
  const say = options.say ?? (() => {});
  const stopIfAsked = (state: string) => {
    if (options.signal?.aborted) throw new StartupInterrupted(state);
  };
  if (options.demoLive && config.appEnv !== 'development') {
    throw new StartupError('the demo live simulator runs only with APP_ENV=development');
  }
  await ensurePortFree(config);
  await ensureMetricsPortFree(config);
  // The lock can be lost at any moment from here on: during start-up it fails the start, afterwards it stops all.
  let lostDuringStartup: Error | undefined;
  let lost = (error: Error): void => {
    lostDuringStartup ??= error;
  };
  const { database, lock } = await openOwnedDatabase(config, (error) => lost(error));
  let app: App | undefined;
  let channel: LocalChannel | null = null;
  let metrics: MetricsListener | null = null;
  try {
    stopIfAsked('before migrating: no migration was applied, the database is as it was');
    say(`database: ${describeDatabase(config)}`);
    const applied = await migrateToLatest(database.db, {
      pending: (names) => say(`migrations: ${names.length} to apply, each in its own transaction`),
      applying: (name) => say(`migrating: ${name}`),
      signal: options.signal,
    });
    say(applied.length > 0 ? `migrations: ${applied.length} applied` : 'migrations: up to date');
    app = await buildApp({
      config,
      db: database.db,
      clock: options.clock ?? systemClock,
      logStream: options.logStream ?? logDestination(1),
    });
    // Before any request: bets left pending by a crash are unknown outcomes, refused and rolled back.
    const recovered = await app.services.recovery.recoverPendingBets();
    if (recovered > 0) {
      app.http.log.warn({ recovered }, 'pending bets from before a restart were refused and rolled back');
    }
    stopIfAsked(BEFORE_LISTENING);
    if (!config.databaseUrl) {
      channel = await openLocalChannel(
        config.dataDir,
        { db: database.db, clock: options.clock ?? systemClock, services: app.services },
        app.http.log,
      );
      say(
        channel
          ? `admin commands (npx bookmaker …) reach this server through ${channel.path}`
          : 'DATA_DIR is too long a path for the local channel: stop the server to run admin commands',
      );
    }
    if (await app.services.staff.noStaffYet()) {
      say('no staff account yet: create the first administrator in another terminal, with the same environment:');
      say(
        `  ${sameDatabase(config)}npx bookmaker staff create --email you@example.com ` +
          "--password '<12 or more characters>' --role platform_admin",
      );
    }
    if (lostDuringStartup) throw lostDuringStartup;
    stopIfAsked(BEFORE_LISTENING);
    const url = await listen(app, config);
    say(`listening on ${url}`);
    say(`API reference: ${url}${DOCS_PATH}`);
    say(`staff console: ${url}/admin`);
    metrics = await listenForMetrics(app, config);
    if (metrics) say(`metrics: ${metrics.url}`);
    app.metrics.instanceLockHeld(true);
    for (const job of app.jobs) job.start();
    await app.services.delivery.start();
    const demoFeed = options.demoLive ? await startDemoFeed(app.services.producers, url, app.http.log) : null;
    if (demoFeed) say("demo: the live simulator prices the demo producer's events through the feed API");
    const running = app;
    const openChannel = channel;
    const stopWorkers = async () => {
      await demoFeed?.stop();
      await Promise.all(running.jobs.map((job) => job.stop()));
      await running.services.delivery.stop();
    };
    lost = (error) => {
      running.metrics.instanceLockHeld(false);
      // Another process may own the database now: take no new request, stop every worker, then go.
      running.http.log.fatal({ err: error }, 'instance lock lost: refusing requests, stopping the workers and exiting');
      void Promise.allSettled([running.http.close(), stopWorkers()]).then(() => options.onFatal?.(error));
    };
    if (lostDuringStartup) lost(lostDuringStartup);
    const openMetrics = metrics;
    return {
      app: running,
      database,
      url,
      metricsUrl: openMetrics?.url ?? null,
      stop: async () => {
        await openChannel?.close();
        await running.http.close();
        await stopWorkers();
        await openMetrics?.close();
        await database.close();
        await lock.release();
      },
    };
  } catch (error) {
    await channel?.close();
    await metrics?.close();
    await app?.http.close();
    await database.close();
    await lock.release();
    throw error;
  }
}

async function listen(app: App, config: Config): Promise<string> {
  try {
    return await app.http.listen({ port: config.port, host: config.host });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw portInUse(config);
    throw error;
  }
}

/** Said before anything is migrated: a busy port is the commonest first-run mistake. */
async function ensurePortFree(config: Config): Promise<void> {
  if (config.port === 0) return;
  await probePort(config.port, config.host, () => portInUse(config));
}

/** METRICS_PORT's, like PORT's: before anything is migrated. */
async function ensureMetricsPortFree(config: Config): Promise<void> {
  if (config.metricsPort === 'off' || config.metricsPort === 0) return;
  await probePort(config.metricsPort, config.metricsHost, () => metricsPortInUse(config));
}

async function probePort(port: number, host: string, inUse: () => StartupError): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => reject(error.code === 'EADDRINUSE' ? inUse() : error));
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** The scrape endpoint on its own listener (METRICS_HOST:METRICS_PORT), once the API listens; none when off. */
async function listenForMetrics(app: App, config: Config): Promise<MetricsListener | null> {
  if (config.metricsPort === 'off') return null;
  try {
    return await serveMetrics(app.metrics.registry, { host: config.metricsHost, port: config.metricsPort });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw metricsPortInUse(config);
    throw error;
  }
}

function metricsPortInUse(config: Config): StartupError {
  return new StartupError(
    `METRICS_PORT ${config.metricsPort} is already in use on ${config.metricsHost}: stop the program using it, ` +
      'or set METRICS_PORT to a free port (or to off, to serve no metrics).',
  );
}

function portInUse(config: Config): StartupError {
  return new StartupError(
    `PORT ${config.port} is already in use on ${config.host}: stop the program using it, or set PORT to a free port.`,
  );
}
