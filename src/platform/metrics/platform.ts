import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, type Registry } from 'prom-client';
import { connectionUse, type Db } from '../db/database.ts';
import { isReady } from '../db/migrate.ts';
import { recordRequests } from './http.ts';
import type { Metrics } from './metrics.ts';

/** What the entry needs of the app's metrics: the registry to serve, and the instance lock's state to report. */
export interface PlatformMetrics {
  registry: Registry;
  /** Said by the server: held once it has the database's instance lock, not held once it lost it. */
  instanceLockHeld(held: boolean): void;
}

/**
 * The platform's own metrics: the process (CPU, memory, GC, event loop lag: prom-client's defaults), the API's
 * requests, the database's connections, readiness and the instance lock.
 */
export function recordPlatform(metrics: Metrics, deps: { http: FastifyInstance; db: Db }): PlatformMetrics {
  if (metrics.recording) collectDefaultMetrics({ register: metrics.registry });
  recordRequests(deps.http, metrics);
  recordDatabase(metrics, deps.db);
  const lock = metrics.level(
    'bookmaker_instance_lock_held',
    "1 while this instance holds the database's instance lock, 0 once it is lost (or before it is taken).",
  );
  return { registry: metrics.registry, instanceLockHeld: (held) => lock.set(held ? 1 : 0) };
}

function recordDatabase(metrics: Metrics, db: Db): void {
  metrics.gaugeAtScrape(
    'bookmaker_db_pool_connections',
    "The database's connections, in use or idle (embedded PGlite has one).",
    ['state'],
    async (report) => {
      const use = connectionUse(db);
      if (!use) return;
      report({ state: 'in_use' }, use.inUse);
      report({ state: 'idle' }, use.idle);
    },
  );
  metrics.gaugeAtScrape(
    'bookmaker_db_pool_waiting',
    'Queries waiting for a database connection.',
    [],
    async (report) => {
      const use = connectionUse(db);
      if (use) report({}, use.waiting);
    },
  );
  metrics.gaugeAtScrape(
    'bookmaker_ready',
    '1 when GET /readyz would answer ready (the database answers and no migration is pending), else 0.',
    [],
    async (report) => report({}, (await isReady(db)).ready ? 1 : 0),
  );
}
