import type { FastifyRequest } from 'fastify';
import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { integrationErrors } from './errors.ts';
import {
  configSchema,
  launchSchema,
  logoutSchema,
  playerStatusSchema,
  stakeFactorSchema,
  sessionInfoSchema,
  sessionsSchema,
} from './schemas.ts';
import type { IntegrationService } from './service.ts';
import { basisPoints, factorText } from './stake-factor.ts';

/**
 * Local account, KYC and cashier endpoints. The sportsbook never manages players' accounts or money: the
 * casino does. They answer 403 operator_managed in every environment, so integrations behave the same in
 * development as in production. They are not operations of the API, so the documents leave them out.
 */
const OPERATOR_MANAGED = [
  ['POST', '/api/v1/auth/register'],
  ['POST', '/api/v1/auth/login'],
  ['POST', '/api/v1/auth/password'],
  ['GET', '/api/v1/kyc'],
  ['POST', '/api/v1/kyc'],
  ['POST', '/api/v1/wallet/deposit'],
  ['POST', '/api/v1/wallet/withdraw'],
] as const;

export function integrationRoutes(app: TypedApp, integration: IntegrationService, auth: Auth): void {
  app.post('/api/v1/integration/sessions', { schema: sessionsSchema, onRequest: auth.tenantKey() }, async (request) =>
    integration.launch.openSession(guarded.tenant(request), request.body, `${request.protocol}://${request.host}`),
  );

  app.post('/api/v1/integration/launch', { schema: launchSchema }, async (request) =>
    integration.launch.exchange(request.headers['x-tenant-id'], request.body.launchToken, request.ip),
  );

  app.get('/api/v1/config', { schema: configSchema }, async (request, reply) => {
    const config = await integration.publicConfig(tenantHeader(request) ?? request.query.tenant);
    // Public, secret-free settings: a short cache spares the database on every iframe load. The answer
    // depends on X-Tenant-ID too, so caches must key on it.
    reply.header('cache-control', 'public, max-age=60');
    reply.header('vary', 'X-Tenant-ID');
    return config;
  });

  app.get('/api/v1/session', { schema: sessionInfoSchema, onRequest: auth.player() }, async (request) =>
    integration.sessions.info(guarded.session(request)),
  );
  app.post(
    '/api/v1/session/logout',
    { schema: logoutSchema, onRequest: auth.player({ forLogout: true }) },
    async (request, reply) => {
      await integration.sessions.logout(guarded.session(request));
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/api/v1/admin/players/:id/status',
    { schema: playerStatusSchema, onRequest: auth.staff('tenant') },
    async (request) => ({
      player: await integration.players.setStatus(
        guarded.staffCall(request),
        request.params.id,
        request.body.status,
        request.body.reason,
      ),
    }),
  );

  app.put(
    '/api/v1/admin/players/:id/stake-factor',
    { schema: stakeFactorSchema, onRequest: auth.staff('risk') },
    async (request) => {
      const { factor, reason } = request.body;
      const set = await integration.players.setStakeFactor(
        guarded.staffCall(request),
        request.params.id,
        basisPoints(factor),
        reason,
      );
      return {
        player: { id: set.id, tenantId: set.tenantId, stakeFactor: factorText(set.factorBp), maxStake: set.maxStake },
      };
    },
  );

  for (const [method, url] of OPERATOR_MANAGED) {
    app.route({
      method,
      url,
      schema: { hide: true },
      handler: async () => {
        throw integrationErrors.operator_managed();
      },
    });
  }
}

function tenantHeader(request: FastifyRequest): string | undefined {
  const value = request.headers['x-tenant-id'];
  return typeof value === 'string' ? value : undefined;
}
