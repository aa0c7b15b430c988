import { ClientActivation } from './aggregator/activation.ts';
import { AggregatorAdminService } from './aggregator/admin.ts';
import { AggregatorAuthentication } from './aggregator/authentication.ts';
import { CredentialRotation } from './aggregator/credentials.ts';
import { ClientInterventions } from './aggregator/interventions.ts';
import { ClientProvisioning } from './aggregator/provisioning.ts';
import { CashOut } from './betting/cashout.ts';
import { BettingMetrics } from './betting/metrics.ts';
import { Placement } from './betting/placement.ts';
import { Recovery } from './betting/recovery.ts';
import { EventResults } from './betting/event-results.ts';
import { EventRisk } from './betting/risk.ts';
import { Ingestion } from './feed/ingestion.ts';
import { Producers } from './feed/producers.ts';
import { Settlement } from './betting/settlement.ts';
import { StakeDecisions } from './betting/stake-decision.ts';
import { BetViews } from './betting/views.ts';
import { CatalogService } from './catalog/service.ts';
import { IntegrationService } from './integration/service.ts';
import { AuditLog } from './platform/audit/log.ts';
import { AuditViews } from './platform/audit/views.ts';
import type { Clock } from './platform/clock.ts';
import type { Config } from './platform/config.ts';
import { SecretBox } from './platform/crypto.ts';
import type { Db } from './platform/db/database.ts';
import type { TypedApp } from './platform/http/types.ts';
import { IdempotencyService } from './platform/idempotency/service.ts';
import type { Metrics } from './platform/metrics/metrics.ts';
import { PlayerPreferences } from './preferences/service.ts';
import { Reports } from './reports/service.ts';
import { SandboxControls } from './sandbox/controls.ts';
import { StaffAccounts } from './staff/accounts.ts';
import { StreamService } from './stream/service.ts';
import type { PasswordCost } from './staff/password.ts';
import { StaffService } from './staff/service.ts';
import { TenantCredentials } from './tenants/credentials.ts';
import { TenantEnvironments } from './tenants/environments.ts';
import { TenantService } from './tenants/service.ts';
import { TenantSettings } from './tenants/settings.ts';
import { Adjustments } from './wallet/operator/adjustments.ts';
import { SandboxAdjustments } from './wallet/operator/sandbox-adjustments.ts';
import { WalletClient } from './wallet/delivery/client.ts';
import { DeliveryEngine, type DeliveryOptions } from './wallet/delivery/engine.ts';
import { Ledger } from './wallet/ledger/ledger.ts';
import { WalletMetrics } from './wallet/metrics.ts';
import { PartnerObligations } from './wallet/partner/obligations.ts';
import { ObligationReview } from './wallet/operator/workspace.ts';
import { WalletService } from './wallet/service.ts';
import { StatementSigner } from './wallet/partner/statement-signing.ts';
import { Statements } from './wallet/partner/statements.ts';
import { WalletTransport, type Resolver } from './wallet/delivery/transport.ts';

/** What the domains are built from (the app's own dependencies: see AppDeps). */
export interface ServiceDeps {
  config: Config;
  db: Db;
  clock: Clock;
  resolver?: Resolver;
  delivery?: DeliveryOptions;
  passwordCost?: PasswordCost;
}

/** The use cases the server and the tests reach (App['services']). */
export interface AppServices {
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
  stream: StreamService;
  producers: Producers;
  ingestion: Ingestion;
}

/** The use cases only the guards and the routes reach. */
export interface RouteOnlyServices {
  aggregatorAuthentication: AggregatorAuthentication;
  auditViews: AuditViews;
  sandbox: SandboxControls;
  partner: PartnerObligations;
  statements: Statements;
  preferences: PlayerPreferences;
  eventResults: EventResults;
  risk: EventRisk;
}

/** Contract: "Wallet timeout: 5 s per attempt". */
const WALLET_TIMEOUT_MS = 5_000;

/**
 * The domains' use cases built from their dependencies, and the listeners one domain sets on another. `http` gives
 * the engines their logger and closes the wallet transport's connections when it closes.
 */
export function buildServices(
  deps: ServiceDeps,
  http: TypedApp,
  metrics: Metrics,
): { services: AppServices; routeOnly: RouteOnlyServices } {
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
  const eventResults = new EventResults({ db, clock, catalog, settlement, audit });
  const risk = new EventRisk({ db, catalog, tenants });
  const producers = new Producers({ db, clock, audit, catalog, silenceSeconds: config.feedSilenceSeconds });
  const ingestion = new Ingestion({ db, clock, catalog, producers });
  ingestion.settleWith({
    result: (by, eventId, score) => eventResults.apply(by, eventId, score),
    cancel: (by, eventId) => eventResults.voidUnsettled(by, eventId),
    rollbackResult: (by, eventId) => eventResults.rollback(by, eventId),
    rollbackCancel: (by, eventId) => eventResults.rollback(by, eventId, true),
  });
  const cashOut = new CashOut({ db, clock, catalog, ledger, delivery, views: betViews, metrics: bettingMetrics });
  const wallet = new WalletService({ db, clock, wallets, tenants });
  const review = new ObligationReview({ db, clock, ledger, delivery, tenants, audit });
  // The bets are betting's: it locks their rows, the first step of every decision on their money (wallet/locks.ts).
  ledger.lockBetsWith((tx, betIds) => settlement.lockBetRows(tx, betIds));
  ledger.whenCountedLate((bet, obligation) => settlement.correctAfterLateCount(bet, obligation));
  const adjustments = new Adjustments({
    db,
    clock,
    ledger,
    delivery,
    integration,
    tenants,
    audit,
    staffEmails: (ids) => staffAccounts.emailsOf(ids),
  });
  const reports = new Reports({ clock, review, tenants });
  const sandbox = new SandboxControls({
    db,
    clock,
    audit,
    idempotency,
    catalog,
    ledger,
    delivery,
    views: betViews,
    adjustments: new SandboxAdjustments({ db, clock, ledger, delivery, integration, tenants, audit }),
    integration,
  });
  const partner = new PartnerObligations({ db, clock, ledger, delivery, tenants, audit });
  const statements = new Statements({ db, clock, signer: new StatementSigner(config.secretsKeys) });
  const preferences = new PlayerPreferences({ db, clock, catalog });
  const stream = new StreamService({
    db,
    clock,
    settings: config.stream,
    browsing: catalog.browsing,
    betViews,
    cashOut,
    recheck: (session) => integration.sessions.stillLive(session),
    log: http.log,
    metrics,
  });
  integration.sessions.whenEnded((ended) => stream.sessionsEnded(ended));
  return {
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
      stream,
      producers,
      ingestion,
    },
    routeOnly: {
      aggregatorAuthentication,
      auditViews,
      sandbox,
      partner,
      statements,
      preferences,
      eventResults,
      risk,
    },
  };
}
