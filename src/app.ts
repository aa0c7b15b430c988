import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import type { DestinationStream } from 'pino';
import { healthRoutes } from './health/routes.ts';
import { AuditLog } from './platform/audit.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { SecretBox } from './platform/crypto.ts';
import type { Db } from './platform/db/database.ts';
import { installErrorHandling } from './platform/http/errors.ts';
import { loggerOptions } from './platform/http/logging.ts';
import type { TypedApp } from './platform/http/types.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { PeriodicJob } from './platform/jobs.ts';
import { staffRoutes } from './staff/routes.ts';
import { StaffService } from './staff/service.ts';
import { AggregatorAdminService } from './aggregator/admin.ts';
import { aggregatorAdminRoutes, aggregatorRoutes, AGGREGATOR_PREFIX } from './aggregator/routes.ts';
import { ProvisioningService } from './aggregator/service.ts';
import { IdempotencyService } from './platform/idempotency.ts';
import { TenantService } from './tenants/service.ts';
import { tenantRoutes } from './tenants/routes.ts';
import { IntegrationService } from './integration/service.ts';
import { integrationRoutes } from './integration/routes.ts';
import { CatalogService } from './catalog/service.ts';
import { randomSource, simulateLiveTick } from './catalog/demo.ts';
import { catalogRoutes, tradingRoutes } from './catalog/routes.ts';
import { BettingService } from './betting/service.ts';
import { bettingRoutes } from './betting/routes.ts';
import { DeliveryEngine, type DeliveryOptions } from './wallet/delivery.ts';
import { WalletService } from './wallet/service.ts';
import { WalletClient } from './wallet/client.ts';
import { WalletTransport, type Resolver } from './wallet/transport.ts';

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
  /** Development only: run the demo live simulator (odds, suspensions, scores) beside the API. */
  demoLive?: boolean;
}

export interface App {
  http: TypedApp;
  services: {
    staff: StaffService;
    tenants: TenantService;
    idempotency: IdempotencyService;
    provisioning: ProvisioningService;
    aggregatorAdmin: AggregatorAdminService;
    integration: IntegrationService;
    catalog: CatalogService;
    betting: BettingService;
    delivery: DeliveryEngine;
    wallet: WalletService;
    wallets: WalletClient;
  };
  jobs: PeriodicJob[];
}

const BODY_LIMIT_BYTES = 64 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HOUR_MS = 60 * 60 * 1000;
/** Contract: "Wallet timeout: 5 s per attempt". */
export const WALLET_TIMEOUT_MS = 5_000;
/** How often the worker looks for obligations due for (re)delivery. */
const DELIVERY_TICK_MS = 5_000;
const DEMO_TICK_MS = 3_000;

/** Wires the domains together: services from their dependencies, routes from their services. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const http = Fastify({
    logger: loggerOptions(deps.config.logLevel, deps.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
  }).withTypeProvider() as unknown as TypedApp;
  http.setValidatorCompiler(validatorCompiler());
  installErrorHandling(http);
  installResponseDefaults(http);
  await registerOpenApi(http);

  const { config, db, clock } = deps;
  const secrets = new SecretBox(config.secretsKeys);
  const audit = new AuditLog(clock);
  const development = config.appEnv === 'development';
  const originRules = { allowLoopback: development };
  const transport = new WalletTransport(
    { allowLoopback: development, requireHttps443: !development, timeoutMs: WALLET_TIMEOUT_MS },
    deps.resolver,
  );
  const wallets = new WalletClient(transport, clock);
  const staff = new StaffService({ db, clock, secrets, audit });
  const tenants = new TenantService({ db, clock, secrets, audit, originRules });
  const idempotency = new IdempotencyService({ db, clock, secrets });
  const provisioning = new ProvisioningService({
    db, clock, audit, idempotency, tenants, wallets, originRules, sandboxesEnabled: config.integrationSandboxes,
  });
  const aggregatorAdmin = new AggregatorAdminService({ db, clock, audit, tenants, originRules });
  const integration = new IntegrationService({ db, clock, audit, tenants, sportsbookUrl: config.sportsbookUrl });
  const catalog = new CatalogService({ db, clock, audit });
  const delivery = new DeliveryEngine({ db, clock, wallets, tenants, log: http.log }, deps.delivery);
  const betting = new BettingService({ db, clock, tenants, delivery, log: http.log });
  const wallet = new WalletService({ db, clock, wallets, tenants });

  healthRoutes(http, db);
  staffRoutes(http, staff);
  aggregatorAdminRoutes(http, aggregatorAdmin, staff);
  await aggregatorRoutes(http, provisioning);
  tenantRoutes(http, tenants, staff);
  integrationRoutes(http, integration, staff);
  catalogRoutes(http, catalog);
  tradingRoutes(http, catalog, staff);
  bettingRoutes(http, betting, wallet, integration, staff);

  const jobs = [
    new PeriodicJob('purge-stale-staff-tokens', HOUR_MS, () => staff.purgeStaleTokens(), http.log),
    new PeriodicJob('erase-expired-replay-bodies', HOUR_MS, () => idempotency.eraseExpiredResponses(), http.log),
    new PeriodicJob('purge-launch-records', HOUR_MS, () => integration.purgeLaunchRecords(), http.log),
    new PeriodicJob('deliver-wallet-obligations', DELIVERY_TICK_MS, () => delivery.deliverDue(), http.log),
  ];
  if (deps.demoLive) {
    if (config.appEnv !== 'development') throw new Error('The demo live simulator runs only with APP_ENV=development.');
    const random = randomSource(Date.now());
    jobs.push(new PeriodicJob('demo-live-simulator', DEMO_TICK_MS, () => simulateLiveTick(catalog, db, clock, random), http.log));
  }
  return {
    http,
    services: { staff, tenants, idempotency, provisioning, aggregatorAdmin, integration, catalog, betting, delivery, wallet, wallets },
    jobs,
  };
}

function installResponseDefaults(http: TypedApp): void {
  http.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
    // API answers carry credentials or personal data: never cached unless a route says otherwise.
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
}

async function registerOpenApi(http: TypedApp): Promise<void> {
  await http.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookmaker API',
        version: '1.0.0',
        description: 'Every endpoint of the service. Errors always use the shape { error: { code, message, details? } }.',
      },
      components: {
        securitySchemes: {
          staffToken: { type: 'http', scheme: 'bearer', description: 'Staff token from POST /api/v1/admin/auth/login' },
          aggregatorKey: { type: 'http', scheme: 'bearer', description: 'Aggregator API key (bm_agg_…), issued by the platform, server to server only' },
          integrationKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'Tenant integration key, with X-Tenant-ID; server to server only' },
          sessionToken: { type: 'http', scheme: 'bearer', description: 'Player session token (bm_sess_…) from the launch exchange' },
        },
      },
    },
  });
  http.get('/api/v1/openapi.json', { schema: { hide: true } }, async () => http.swagger());
  http.get(`${AGGREGATOR_PREFIX}/openapi.json`, { schema: { hide: true } }, async () => aggregatorOpenApi(http));
}

/** The aggregator's own document: the same generated schemas, only its paths, versioned 1.0.0. */
function aggregatorOpenApi(http: TypedApp) {
  const full = http.swagger() as { paths?: Record<string, unknown>; components?: { securitySchemes?: Record<string, unknown> } };
  const paths = Object.fromEntries(
    Object.entries(full.paths ?? {})
      .filter(([path]) => path.startsWith(`${AGGREGATOR_PREFIX}/`))
      .map(([path, item]) => [path.slice(AGGREGATOR_PREFIX.length), item]),
  );
  return {
    openapi: '3.1.0',
    info: {
      title: 'Bookmaker aggregator API',
      version: '1.0.0',
      description: AGGREGATOR_API_DESCRIPTION,
    },
    servers: [{ url: AGGREGATOR_PREFIX }],
    components: { securitySchemes: { aggregatorKey: full.components?.securitySchemes?.aggregatorKey } },
    security: [{ aggregatorKey: [] }],
    paths,
  };
}

const AGGREGATOR_API_DESCRIPTION = [
  'Server-to-server provisioning of casinos (clients) by an authorized aggregator.',
  'Authorization: Bearer <aggregator key>; requests carrying Origin or X-Tenant-ID are refused.',
  'Every POST needs Idempotency-Key (^[A-Za-z0-9_.:-]{8,128}$); the original response is replayed for 24 h with Idempotency-Replayed: true.',
  'Errors: { error: { code, message, details? } } with Cache-Control: no-store; rate limit 120 requests/minute per aggregator (429, Retry-After: 60).',
  'Codes: validation, bad_request, wallet_validation_failed, deployment_not_configured, tenant_header_not_allowed (400); unauthorized (401, details.reason);',
  'scope_missing, not_authorized, activation_not_permitted, suspended_by_platform, credentials_revoked_by_platform, origin_not_allowed (403); not_found (404);',
  'duplicate_external_id, quota_exceeded, already_active, not_active, configuration_changed, idempotency_mismatch, idempotency_expired, idempotency_in_progress (409);',
  'payload_too_large (413); rate_limited (429).',
].join(' ');
