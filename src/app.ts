import { randomInt, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import type { DestinationStream } from 'pino';
import { ClientActivation } from './aggregator/activation.ts';
import { AggregatorAdminService } from './aggregator/admin.ts';
import { AGGREGATOR_KEY_ERRORS, AggregatorAuthentication } from './aggregator/authentication.ts';
import { CredentialRotation } from './aggregator/credentials.ts';
import { ClientInterventions } from './aggregator/interventions.ts';
import { ClientProvisioning } from './aggregator/provisioning.ts';
import { aggregatorAdminRoutes, aggregatorRoutes, AGGREGATOR_PREFIX } from './aggregator/routes.ts';
import { bettingRoutes } from './betting/routes.ts';
import { CashOut } from './betting/cashout.ts';
import { BettingMetrics } from './betting/metrics.ts';
import { Placement } from './betting/placement.ts';
import { Recovery } from './betting/recovery.ts';
import { Settlement } from './betting/settlement.ts';
import { StakeDecisions } from './betting/stake-decision.ts';
import { BetViews } from './betting/views.ts';
import { catalogRoutes, tradingRoutes } from './catalog/routes.ts';
import { CatalogService } from './catalog/service.ts';
import { consoleRoutes } from './console/routes.ts';
import { embedRoutes } from './embed/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { integrationRoutes } from './integration/routes.ts';
import { IntegrationService, SESSION_ERRORS, TENANT_KEY_ERRORS } from './integration/service.ts';
import { AuditLog } from './platform/audit/log.ts';
import { auditRoutes } from './platform/audit/routes.ts';
import { AuditViews } from './platform/audit/views.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { SecretBox } from './platform/crypto.ts';
import type { Db } from './platform/db/database.ts';
import { Auth, type AuthLimits } from './platform/http/auth.ts';
import { installErrorHandling } from './platform/http/errors.ts';
import { installResponseDefaults } from './platform/http/headers.ts';
import { loggerOptions } from './platform/http/logging.ts';
import { PLATFORM_DOCUMENT_URL, registerOpenApi, serveDocuments, type DocumentSpec } from './platform/http/openapi.ts';
import { routerFailureOptions } from './platform/http/router-failures.ts';
import type { TypedApp } from './platform/http/types.ts';
import { validatorCompiler } from './platform/http/validation.ts';
import { IdempotencyService } from './platform/idempotency/service.ts';
import { PeriodicJob } from './platform/jobs.ts';
import { Metrics } from './platform/metrics/metrics.ts';
import { recordPlatform, type PlatformMetrics } from './platform/metrics/platform.ts';
import { VERSION } from './platform/version.ts';
import { preferencesRoutes } from './preferences/routes.ts';
import { PlayerPreferences } from './preferences/service.ts';
import { reportRoutes } from './reports/routes.ts';
import { Reports } from './reports/service.ts';
import { SandboxControls } from './sandbox/controls.ts';
import { sandboxRoutes } from './sandbox/routes.ts';
import { simulateLiveTick } from './seed/live-simulator.ts';
import { randomSource } from './seed/random.ts';
import { StaffAccounts } from './staff/accounts.ts';
import { staffRoutes } from './staff/routes.ts';
import type { PasswordCost } from './staff/password.ts';
import { STAFF_SESSION_ERRORS, StaffService } from './staff/service.ts';
import { TenantCredentials } from './tenants/credentials.ts';
import { TenantEnvironments } from './tenants/environments.ts';
import { tenantRoutes } from './tenants/routes.ts';
import { TenantService } from './tenants/service.ts';
import { TenantSettings } from './tenants/settings.ts';
import { Adjustments } from './wallet/operator/adjustments.ts';
import { WalletClient } from './wallet/delivery/client.ts';
import { DeliveryEngine, type DeliveryOptions } from './wallet/delivery/engine.ts';
import { Ledger } from './wallet/ledger/ledger.ts';
import { WalletMetrics } from './wallet/metrics.ts';
import { PartnerObligations } from './wallet/partner/obligations.ts';
import { ObligationReview } from './wallet/operator/workspace.ts';
import { walletRoutes } from './wallet/routes.ts';
import { WalletService } from './wallet/service.ts';
import { StatementSigner } from './wallet/partner/statement-signing.ts';
import { Statements } from './wallet/partner/statements.ts';
import { WalletTransport, type Resolver } from './wallet/delivery/transport.ts';

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
  /** Development only: run the demo live simulator (odds, suspensions, scores) beside the API. */
  demoLive?: boolean;
  /**
   * scrypt's cost for the passwords of accounts this app creates: PASSWORD_COST (staff/password.ts) unless a test
   * makes its throwaway accounts cheap to hash.
   */
  passwordCost?: PasswordCost;
}

export interface App {
  http: TypedApp;
  services: {
    staff: StaffService;
    staffAccounts: StaffAccounts;
    tenants: TenantService;
    tenantEnvironments: TenantEnvironments;
    tenantCredentials: TenantCredentials;
    tenantSettings: TenantSettings;
    idempotency: IdempotencyService;
    provisioning: ClientProvisioning;
    activation: ClientActivation;
    credentialRotation: CredentialRotation;
    aggregatorAdmin: AggregatorAdminService;
    clientInterventions: ClientInterventions;
    integration: IntegrationService;
    catalog: CatalogService;
    placement: Placement;
    betViews: BetViews;
    stakeDecisions: StakeDecisions;
    recovery: Recovery;
    settlement: Settlement;
    cashOut: CashOut;
    ledger: Ledger;
    delivery: DeliveryEngine;
    review: ObligationReview;
    adjustments: Adjustments;
    reports: Reports;
    wallet: WalletService;
    wallets: WalletClient;
  };
  jobs: PeriodicJob[];
  /** Recorded unless METRICS_PORT=off (then every instrument is a no-op); served by the server's metrics listener. */
  metrics: PlatformMetrics;
}

const BODY_LIMIT_BYTES = 64 * 1024;
/** A request (headers and body) must arrive within 30 s: a client trickling its body cannot hold a connection. */
const REQUEST_TIMEOUT_MS = 30_000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;
const HOUR_MS = 60 * 60 * 1000;
/** Contract: "Wallet timeout: 5 s per attempt". */
const WALLET_TIMEOUT_MS = 5_000;
/** How often the running service looks for bets left pending by a placement that lost its database. */
const STALE_SWEEP_MS = 10_000;
const DEMO_TICK_MS = 3_000;

/** The two published documents: the whole API, and the aggregator's own (version 1.0.0 by contract). */
export const DOCUMENTS: DocumentSpec[] = [
  {
    prefix: '/',
    url: PLATFORM_DOCUMENT_URL,
    title: 'Bookmaker API',
    description: [
      'Every endpoint of the service: the aggregator API, the integration API of casino servers, the player API of',
      'the iframe, the catalog, and the admin API of staff.',
      '',
      '- Errors always have the shape `{ "error": { "code", "message", "details"?, "requestId" } }` and',
      '  `Cache-Control: no-store`; each operation lists the codes it can answer with, per status. `requestId` is the',
      "  answer's `X-Request-Id`: quote it when you report a problem.",
      '- Bodies are JSON (`Content-Type: application/json`, at most 64 KiB); unknown fields and query parameters',
      '  are refused with 400 `validation`, which names the field in `details.field`.',
    ].join('\n'),
  },
  {
    prefix: AGGREGATOR_PREFIX,
    url: `${AGGREGATOR_PREFIX}/openapi.json`,
    title: 'Bookmaker aggregator API',
    version: '1.0.0',
    description: [
      'Server-to-server provisioning of casinos (clients) by an authorized aggregator.',
      '',
      '- `Authorization: Bearer bm_agg_…` (your aggregator key); requests carrying `Origin` or `X-Tenant-ID` are',
      '  refused.',
      '- Every POST needs `Idempotency-Key` (`^[A-Za-z0-9_.:-]{8,128}$`); the original response is replayed for',
      '  24 h with `Idempotency-Replayed: true`.',
      '- Errors: `{ "error": { "code", "message", "details"?, "requestId" } }` with `Cache-Control: no-store`; each',
      "  operation lists its codes per status. `requestId` is the answer's `X-Request-Id`: quote it in a report.",
      '- At most 120 requests a minute per aggregator (429 `rate_limited`, `Retry-After: 60`); repeated failed',
      '  attempts from one address are limited too.',
    ].join('\n'),
  },
];

/** Wires the domains together: services from their dependencies, routes from their services. */
export async function buildApp(deps: AppDeps): Promise<App> {
  const http = Fastify({
    logger: loggerOptions(deps.config.logLevel, deps.logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: proxyTrust(deps.config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Bad URLs, shutdown and parser refusals answered in the error shape with the default headers.
    ...routerFailureOptions(() => http),
  }).withTypeProvider() as unknown as TypedApp;
  http.setValidatorCompiler(validatorCompiler());
  // Bodies are JSON only: Fastify's own text/plain parser would hand a string to the schema (400 validation)
  // where the answer is 415 unsupported_media_type.
  http.removeContentTypeParser('text/plain');
  installErrorHandling(http);
  installResponseDefaults(http);
  const metrics = new Metrics({
    recording: deps.config.metricsPort !== 'off',
    tenantLabels: deps.config.metricsTenantLabels,
    onReadingFailed: (metric, err) => http.log.warn({ err, metric }, 'a metric could not be read for a scrape'),
  });
  const platformMetrics = recordPlatform(metrics, { http, db: deps.db });
  await registerOpenApi(http, VERSION, DOCUMENTS[0]!);

  const { config, db, clock } = deps;
  const secrets = new SecretBox(config.secretsKeys);
  const audit = new AuditLog(clock);
  const development = config.appEnv === 'development';
  const originRules = { allowLoopback: development };
  const transport = new WalletTransport(
    { allowLoopback: development, requireHttps443: !development, timeoutMs: WALLET_TIMEOUT_MS },
    deps.resolver,
  );
  const walletMetrics = new WalletMetrics(metrics, { db, clock });
  const wallets = new WalletClient(transport, clock, walletMetrics);
  http.addHook('onClose', async () => transport.close());
  const staff = new StaffService({ db, clock, secrets, audit, passwordCost: deps.passwordCost });
  const tenants = new TenantService({ db, clock, secrets });
  const tenantEnvironments = new TenantEnvironments({ db, clock, secrets, tenants });
  const tenantCredentials = new TenantCredentials({ db, clock, secrets, audit, tenants });
  const tenantSettings = new TenantSettings({
    db,
    audit,
    originRules,
    tenants,
    environments: tenantEnvironments,
    credentials: tenantCredentials,
  });
  const idempotency = new IdempotencyService({ db, clock, secrets });
  const clientTenants = { environments: tenantEnvironments, credentials: tenantCredentials };
  const aggregatorAuthentication = new AggregatorAuthentication({ db, clock, audit });
  const provisioning = new ClientProvisioning({ db, clock, audit, idempotency, ...clientTenants, originRules });
  const activation = new ClientActivation({
    db,
    clock,
    audit,
    idempotency,
    tenants,
    ...clientTenants,
    wallets,
    sandboxesEnabled: config.integrationSandboxes,
  });
  const credentialRotation = new CredentialRotation({ db, audit, idempotency, ...clientTenants });
  const aggregatorAdmin = new AggregatorAdminService({ db, clock, audit, originRules });
  const clientInterventions = new ClientInterventions({ db, clock, audit, tenants, ...clientTenants });
  const staffAccounts = new StaffAccounts({ db, clock, audit, staff, tenants });
  const auditViews = new AuditViews({ db, clock, staffOfTenant: (tenantId) => staffAccounts.idsOfTenant(tenantId) });
  const integration = new IntegrationService({ db, clock, audit, tenants, sportsbookUrl: config.sportsbookUrl });
  tenants.whenSuspended((tx, tenantIds) => integration.endSessionsOfTenants(tx, tenantIds));
  const catalog = new CatalogService({ db, clock, audit });
  const ledger = new Ledger({ clock });
  const delivery = new DeliveryEngine(
    { db, clock, wallets, tenants, ledger, log: http.log, metrics: walletMetrics },
    deps.delivery,
  );
  const bettingMetrics = new BettingMetrics(metrics);
  const stakeDecisions = new StakeDecisions({ db, clock, ledger, delivery });
  const betViews = new BetViews({ db, catalog, integration, ledger });
  const placement = new Placement({
    db,
    clock,
    tenants,
    catalog,
    ledger,
    delivery,
    decisions: stakeDecisions,
    views: betViews,
    log: http.log,
    metrics: bettingMetrics,
  });
  const recovery = new Recovery({ db, clock, decisions: stakeDecisions });
  const settlement = new Settlement({ db, clock, catalog, ledger, delivery, audit });
  const cashOut = new CashOut({ db, clock, catalog, ledger, delivery, views: betViews, metrics: bettingMetrics });
  const wallet = new WalletService({ db, clock, wallets, tenants });
  const review = new ObligationReview({ db, clock, ledger, delivery, tenants, audit });
  // The bets are betting's: it locks their rows, the first step of every decision on their money (wallet/locks.ts).
  ledger.lockBetsWith((tx, betIds) => settlement.lockBetRows(tx, betIds));
  ledger.whenCountedLate((bet, obligation) => settlement.correctAfterLateCount(bet, obligation));
  const adjustments = new Adjustments({ db, clock, ledger, delivery, integration, tenants, audit });
  const reports = new Reports({ clock, review, tenants });

  const auth = await Auth.create(
    http,
    {
      staff: { check: (token) => staff.authenticate(token), errors: STAFF_SESSION_ERRORS },
      player: { check: (token, options) => integration.authenticateSession(token, options), errors: SESSION_ERRORS },
      aggregator: {
        check: (key, ip) => aggregatorAuthentication.authenticate(key, ip),
        errors: AGGREGATOR_KEY_ERRORS,
      },
      tenant: {
        check: (tenantId, apiKey, ip) => integration.authenticateTenant(tenantId, apiKey, ip),
        errors: TENANT_KEY_ERRORS,
      },
    },
    deps.authLimits,
  );

  embedRoutes(http, { documents: DOCUMENTS, integration });
  consoleRoutes(http);
  healthRoutes(http, db);
  staffRoutes(http, { service: staff, accounts: staffAccounts }, auth);
  auditRoutes(http, auditViews, auth);
  aggregatorAdminRoutes(http, { admin: aggregatorAdmin, interventions: clientInterventions }, auth);
  aggregatorRoutes(http, { provisioning, activation, rotation: credentialRotation }, auth);
  tenantRoutes(http, { settings: tenantSettings, credentials: tenantCredentials }, auth);
  integrationRoutes(http, integration, auth);
  const sandbox = new SandboxControls({ db, clock, audit, idempotency, catalog, ledger, delivery, views: betViews });
  sandboxRoutes(http, sandbox, auth);
  catalogRoutes(http, catalog.browsing);
  tradingRoutes(http, { trading: catalog.trading, views: catalog.tradingViews }, auth);
  const partner = new PartnerObligations({ db, clock, ledger, delivery, tenants, audit });
  const statements = new Statements({ db, clock, signer: new StatementSigner(config.secretsKeys) });
  walletRoutes(http, { wallet, review, adjustments, partner, statements }, auth);
  bettingRoutes(http, { placement, views: betViews, cashOut, settlement }, auth);
  preferencesRoutes(http, new PlayerPreferences({ db, clock, catalog }), auth);
  reportRoutes(http, reports, auth);
  await serveDocuments(http, DOCUMENTS);

  const jobs = [
    new PeriodicJob('purge-stale-staff-tokens', HOUR_MS, () => staff.purgeStaleTokens(), http.log),
    new PeriodicJob('erase-expired-replay-bodies', HOUR_MS, () => idempotency.eraseExpiredResponses(), http.log),
    new PeriodicJob('purge-launch-records', HOUR_MS, () => integration.purgeLaunchRecords(), http.log),
    new PeriodicJob('resolve-stale-pending-bets', STALE_SWEEP_MS, () => recovery.resolveStalePendingBets(), http.log),
  ];
  if (deps.demoLive) {
    if (config.appEnv !== 'development') throw new Error('The demo live simulator runs only with APP_ENV=development.');
    const random = randomSource(randomInt(2 ** 31));
    jobs.push(new PeriodicJob('demo-live-simulator', DEMO_TICK_MS, () => simulateLiveTick(catalog, random), http.log));
  }
  return {
    http,
    services: {
      staff,
      staffAccounts,
      tenants,
      tenantEnvironments,
      tenantCredentials,
      tenantSettings,
      idempotency,
      provisioning,
      activation,
      credentialRotation,
      aggregatorAdmin,
      clientInterventions,
      integration,
      catalog,
      placement,
      betViews,
      stakeDecisions,
      recovery,
      settlement,
      cashOut,
      ledger,
      delivery,
      review,
      adjustments,
      reports,
      wallet,
      wallets,
    },
    jobs,
    metrics: platformMetrics,
  };
}

/** TRUST_PROXY as Fastify wants it: a number of hops becomes "the nearest N hops". */
function proxyTrust(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
