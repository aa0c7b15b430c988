import { AGGREGATOR_KEY_ERRORS } from './aggregator/authentication.ts';
import { aggregatorAdminRoutes, aggregatorRoutes } from './aggregator/routes.ts';
import { DOCUMENTS } from './api-documents.ts';
import type { AppServices, RouteOnlyServices } from './app-services.ts';
import { bettingRoutes } from './betting/routes.ts';
import { feedRoutes } from './feed/routes.ts';
import { catalogRoutes, tradingRoutes } from './catalog/routes.ts';
import { consoleRoutes } from './console/routes.ts';
import { embedRoutes } from './embed/routes.ts';
import { healthRoutes } from './health/routes.ts';
import { integrationRoutes } from './integration/routes.ts';
import { SESSION_ERRORS, TENANT_KEY_ERRORS } from './integration/service.ts';
import { auditRoutes } from './platform/audit/routes.ts';
import type { Db } from './platform/db/database.ts';
import { Auth, type AuthLimits } from './platform/http/auth.ts';
import { serveDocuments } from './platform/http/openapi.ts';
import type { TypedApp } from './platform/http/types.ts';
import { preferencesRoutes } from './preferences/routes.ts';
import { reportRoutes } from './reports/routes.ts';
import { sandboxRoutes } from './sandbox/routes.ts';
import { staffRoutes } from './staff/routes.ts';
import { streamRoutes } from './stream/routes.ts';
import { STAFF_SESSION_ERRORS } from './staff/service.ts';
import { tenantRoutes } from './tenants/routes.ts';
import { walletRoutes } from './wallet/routes.ts';

/**
 * Every route with the use cases behind it: the guards first (who is calling), then each domain's routes, then the
 * API documents.
 */
export async function registerRoutes(
  http: TypedApp,
  db: Db,
  services: AppServices,
  routeOnly: RouteOnlyServices,
  authLimits: AuthLimits | undefined,
): Promise<void> {
  const { staff, staffAccounts, integration, catalog, placement, betViews, cashOut, settlement } = services;
  const { wallet, review, adjustments, reports, provisioning, activation, credentialRotation } = services;
  const { aggregatorAdmin, clientInterventions, tenantSettings, tenantCredentials } = services;
  const { aggregatorAuthentication, auditViews, sandbox, partner, statements, preferences, eventResults } = routeOnly;
  const { risk } = routeOnly;
  const { producers, ingestion } = services;
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
      feed: { check: (key) => producers.authenticate(key), errors: [] },
    },
    authLimits,
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
  sandboxRoutes(http, sandbox, auth);
  catalogRoutes(http, catalog.browsing);
  tradingRoutes(
    http,
    { trading: catalog.trading, views: catalog.tradingViews, feedControl: catalog.feedControl },
    auth,
  );
  walletRoutes(http, { wallet, review, adjustments, partner, statements }, auth);
  bettingRoutes(http, { placement, views: betViews, cashOut, settlement, eventResults, risk }, auth);
  preferencesRoutes(http, preferences, auth);
  streamRoutes(http, services.stream, auth);
  feedRoutes(http, { producers, ingestion }, auth);
  reportRoutes(http, reports, auth);
  await serveDocuments(http, DOCUMENTS);
}
