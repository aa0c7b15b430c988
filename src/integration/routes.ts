import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { TOKEN_PREFIX } from '../platform/crypto.ts';
import type { Tenant } from '../platform/db/schema.ts';
import { AppError } from '../platform/errors.ts';
import { bearerToken } from '../platform/http/bearer.ts';
import { ErrorResponse } from '../platform/http/schemas.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { configSchema, launchSchema, logoutSchema, playerStatusSchema, sessionInfoSchema, sessionsSchema } from './schemas.ts';
import { requireStaff } from '../staff/routes.ts';
import type { StaffService } from '../staff/service.ts';
import type { IntegrationService, SessionPrincipal } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    tenant?: Tenant;
    session?: SessionPrincipal;
  }
}

const header = (request: FastifyRequest, name: string): string | undefined => {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
};

/** Player calls: `Authorization: Bearer <session token>`; the tenant comes from the session. */
export function requirePlayer(service: IntegrationService, options: { forLogout?: boolean } = {}) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request.headers.authorization);
    if (!token || !token.startsWith(TOKEN_PREFIX.session)) {
      throw new AppError('unauthorized', 401, 'A player session token is required (Authorization: Bearer).');
    }
    request.session = await service.authenticateSession(token, options);
  };
}

/**
 * Local account, KYC and cashier endpoints. The sportsbook never manages players' accounts or money: the
 * casino does. They answer 403 operator_managed in every environment, so integrations behave the same in
 * development as in production.
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

export function integrationRoutes(app: TypedApp, service: IntegrationService, staff: StaffService): void {
  const authenticateTenant = async (request: FastifyRequest) => {
    request.tenant = await service.authenticateTenant(header(request, 'x-tenant-id'), header(request, 'x-api-key'), request.ip);
  };

  app.post('/api/v1/integration/sessions', { schema: sessionsSchema, onRequest: authenticateTenant }, async (request) =>
    service.openSession(request.tenant!, request.body, `${request.protocol}://${request.host}`),
  );

  app.post('/api/v1/integration/launch', { schema: launchSchema }, async (request) =>
    service.exchangeLaunchToken(request.headers['x-tenant-id'], request.body.launchToken, request.ip),
  );

  app.get('/api/v1/config', { schema: configSchema }, async (request, reply) => {
    const config = await service.publicConfig(header(request, 'x-tenant-id') ?? request.query.tenant);
    // Public, secret-free settings: a short cache spares the database on every iframe load. The answer
    // depends on X-Tenant-ID too, so caches must key on it.
    reply.header('cache-control', 'public, max-age=60');
    reply.header('vary', 'X-Tenant-ID');
    return config;
  });

  const player = requirePlayer(service);
  app.get('/api/v1/session', { schema: sessionInfoSchema, onRequest: player }, async (request) => service.sessionInfo(request.session!));
  app.post('/api/v1/session/logout', { schema: logoutSchema, onRequest: requirePlayer(service, { forLogout: true }) }, async (request, reply) => {
    await service.logout(request.session!);
    return reply.code(204).send(null);
  });

  app.put('/api/v1/admin/players/:id/status', { schema: playerStatusSchema, preHandler: requireStaff(staff) }, async (request) => ({
    player: await service.setPlayerStatus({ staff: request.staff!, ip: request.ip }, request.params.id, request.body.status, request.body.reason),
  }));

  for (const [method, url] of OPERATOR_MANAGED) {
    app.route({
      method,
      url,
      schema: { tags: ['player'], summary: 'Managed by the casino: always 403 operator_managed', response: { 403: ErrorResponse, 200: Type.Never() } },
      handler: async () => {
        throw new AppError('operator_managed', 403, 'Accounts, KYC, deposits and withdrawals are managed by the casino, not by the sportsbook.');
      },
    });
  }
}
