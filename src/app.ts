import type { DestinationStream } from 'pino';
import { DOCUMENTS } from './api-documents.ts';
import { createHttp } from './app-http.ts';
import { periodicJobs } from './app-jobs.ts';
import { registerRoutes } from './app-routes.ts';
import { buildServices, type AppServices } from './app-services.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import type { Db } from './platform/db/database.ts';
import type { AuthLimits } from './platform/http/auth.ts';
import { registerOpenApi } from './platform/http/openapi.ts';
import type { TypedApp } from './platform/http/types.ts';
import type { PeriodicJob } from './platform/jobs.ts';
import { Metrics } from './platform/metrics/metrics.ts';
import { recordPlatform, type PlatformMetrics } from './platform/metrics/platform.ts';
import { VERSION } from './platform/version.ts';
import type { PasswordCost } from './staff/password.ts';
import type { DeliveryOptions } from './wallet/delivery/engine.ts';
import type { Resolver } from './wallet/delivery/transport.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  clock: Clock;
  /** Where logs go; tests pass a stream to read them back. Defaults to stdout. */
  logStream?: DestinationStream;
  /** DNS for wallet calls; tests map names to loopback. Defaults to the system resolver. */
  resolver?: Resolver;
  /** Retry timing of the delivery engine; the contract's schedule unless a test shortens it. */
  delivery?: DeliveryOptions;
  /** Failed-attempt and aggregator request budgets; the defaults unless a test changes them. */
  authLimits?: AuthLimits;
  /**
   * Each route's schemas compiled at the route's first request rather than at start-up: a test app, of whose routes a
   * test file calls a few, starts in half the time. The server compiles every schema as it starts.
   */
  compileSchemasOnFirstUse?: boolean;
  /**
   * scrypt's cost for the passwords of accounts this app creates: PASSWORD_COST (staff/password.ts) unless a test
   * makes its throwaway accounts cheap to hash.
   */
  passwordCost?: PasswordCost;
}

export interface App {
  http: TypedApp;
  services: AppServices;
  jobs: PeriodicJob[];
  /** Recorded unless METRICS_PORT=off (then every instrument is a no-op); served by the server's metrics listener. */
  metrics: PlatformMetrics;
}

/**
 * Wires the domains together: the HTTP plumbing (app-http.ts), services from their dependencies (app-services.ts),
 * routes from their services (app-routes.ts), and the periodic jobs (app-jobs.ts).
 */
export async function buildApp(deps: AppDeps): Promise<App> {
  const http = createHttp(deps.config, deps.logStream, { onFirstUse: deps.compileSchemasOnFirstUse ?? false });
  const metrics = new Metrics({
    recording: deps.config.metricsPort !== 'off',
    tenantLabels: deps.config.metricsTenantLabels,
    onReadingFailed: (metric, err) => http.log.warn({ err, metric }, 'a metric could not be read for a scrape'),
  });
  const platformMetrics = recordPlatform(metrics, { http, db: deps.db });
  await registerOpenApi(http, VERSION, DOCUMENTS[0]!);
  const { services, routeOnly } = buildServices(deps, http, metrics);
  await registerRoutes(http, deps.db, services, routeOnly, deps.authLimits);
  await services.stream.start();
  // Streams never end by themselves: they are closed before the server waits for its connections to finish.
  http.addHook('preClose', async () => services.stream.stop());
  const jobs = periodicJobs(http, services);
  return { http, services, jobs, metrics: platformMetrics };
}
