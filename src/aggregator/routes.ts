import rateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { TOKEN_PREFIX } from '../platform/crypto.ts';
import { AppError } from '../platform/errors.ts';
import { bearerToken } from '../platform/http/bearer.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { requireRole, requireStaff } from '../staff/routes.ts';
import type { StaffCall, StaffService } from '../staff/service.ts';
import type { AggregatorAdminService } from './admin.ts';
import {
  activateClientSchema,
  adminSchemas,
  createClientSchema,
  getClientSchema,
  listClientsSchema,
  rotateCredentialsSchema,
  type Scope,
} from './schemas.ts';
import type { AggregatorPrincipal, ProvisioningService } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    aggregator?: AggregatorPrincipal;
  }
}

export const AGGREGATOR_PREFIX = '/api/v1/aggregator';
export const RATE_LIMIT_PER_MINUTE = 120;

/** Server to server only: a Bearer aggregator key, no browser Origin, no tenant header. */
function authenticateAggregator(service: ProvisioningService) {
  return async (request: FastifyRequest): Promise<void> => {
    if (request.headers.origin !== undefined) {
      throw new AppError('origin_not_allowed', 403, 'The aggregator API is server to server; requests carrying an Origin header are refused.');
    }
    if (request.headers['x-tenant-id'] !== undefined) {
      throw new AppError('tenant_header_not_allowed', 400, 'The aggregator API takes no X-Tenant-ID header.');
    }
    const token = bearerToken(request.headers.authorization);
    if (!token || !token.startsWith(TOKEN_PREFIX.aggregatorKey)) {
      throw new AppError('unauthorized', 401, 'An aggregator API key is required (Authorization: Bearer).', { reason: 'missing_key' });
    }
    request.aggregator = await service.authenticate(token);
  };
}

function requireScope(scope: Scope) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.aggregator?.scopes.includes(scope)) {
      throw new AppError('scope_missing', 403, `This API key lacks the scope ${scope}.`, { requiredScope: scope });
    }
  };
}

function sendStored(reply: FastifyReply, result: { status: number; body: unknown; replayed: boolean }) {
  if (result.replayed) reply.header('idempotency-replayed', 'true');
  return reply.code(result.status).send(result.body);
}

export async function aggregatorRoutes(app: TypedApp, service: ProvisioningService): Promise<void> {
  await app.register(
    async (api: TypedApp) => {
      api.addHook('onRequest', authenticateAggregator(service));
      // One budget per aggregator, shared by all its keys; counted for every authenticated request.
      await api.register(rateLimit, {
        global: true,
        hook: 'preParsing',
        max: RATE_LIMIT_PER_MINUTE,
        timeWindow: 60_000,
        keyGenerator: (request) => request.aggregator?.aggregatorId ?? request.ip,
        addHeaders: { 'retry-after': false },
        errorResponseBuilder: () =>
          new AppError('rate_limited', 429, `At most ${RATE_LIMIT_PER_MINUTE} requests per minute per aggregator.`, { limit: RATE_LIMIT_PER_MINUTE, windowSeconds: 60 }, { 'retry-after': '60' }),
      });

      const call = (request: FastifyRequest) => ({ key: String(request.headers['idempotency-key']), ip: request.ip });

      api.post('/clients', { schema: createClientSchema, preHandler: requireScope('clients:create') }, async (request, reply) =>
        sendStored(reply, await service.createClient(request.aggregator!, call(request), request.body)),
      );
      api.get('/clients', { schema: listClientsSchema, preHandler: requireScope('clients:read') }, async (request) =>
        service.listClients(request.aggregator!, request.query),
      );
      api.get('/clients/:id', { schema: getClientSchema, preHandler: requireScope('clients:read') }, async (request) => ({
        client: await service.getClient(request.aggregator!, request.params.id),
      }));
      api.post('/clients/:id/activate', { schema: activateClientSchema, preHandler: requireScope('clients:activate') }, async (request, reply) =>
        sendStored(reply, await service.activateClient(request.aggregator!, call(request), request.params.id, request.body)),
      );
      api.post(
        '/clients/:id/credentials/rotate',
        { schema: rotateCredentialsSchema, preHandler: requireScope('credentials:rotate') },
        async (request, reply) =>
          sendStored(reply, await service.rotateCredentials(request.aggregator!, call(request), request.params.id, request.body)),
      );
    },
    { prefix: AGGREGATOR_PREFIX },
  );
}

/** Platform administration of aggregators: platform_admin only. */
export function aggregatorAdminRoutes(app: TypedApp, admin: AggregatorAdminService, staff: StaffService): void {
  const preHandler = [requireStaff(staff), requireRole('platform_admin')];
  const who = (request: FastifyRequest): StaffCall => ({ staff: request.staff!, ip: request.ip });
  const base = '/api/v1/admin/aggregators';

  app.post(base, { schema: adminSchemas.createAggregator, preHandler }, async (request, reply) =>
    reply.code(201).send({ aggregator: await admin.createAggregator(who(request), request.body.name) }),
  );
  app.get(base, { schema: adminSchemas.listAggregators, preHandler }, async () => ({ aggregators: await admin.listAggregators() }));
  app.get(`${base}/:id`, { schema: adminSchemas.getAggregator, preHandler }, async (request) => ({
    aggregator: await admin.aggregator(request.params.id),
  }));
  app.put(`${base}/:id/authorization`, { schema: adminSchemas.putAuthorization, preHandler }, async (request) => ({
    authorization: await admin.setAuthorization(who(request), request.params.id, request.body),
  }));
  app.post(`${base}/:id/keys`, { schema: adminSchemas.issueKey, preHandler }, async (request, reply) =>
    reply.code(201).send(await admin.issueKey(who(request), request.params.id, request.body)),
  );
  app.delete(`${base}/:id/keys/:keyId`, { schema: adminSchemas.revokeKey, preHandler }, async (request) => ({
    key: await admin.revokeKey(who(request), request.params.id, request.params.keyId),
  }));

  const clients = '/api/v1/admin/clients';
  app.get(`${clients}/:id`, { schema: adminSchemas.getClient, preHandler }, async (request) => admin.client(request.params.id));
  app.post(`${clients}/:id/suspend`, { schema: adminSchemas.clientAction('Suspend a client and both its environments'), preHandler }, async (request) =>
    admin.suspendClient(who(request), request.params.id, request.body.reason),
  );
  app.post(`${clients}/:id/resume`, { schema: adminSchemas.clientAction('Lift a platform suspension'), preHandler }, async (request) =>
    admin.resumeClient(who(request), request.params.id, request.body.reason),
  );
  app.post(
    `${clients}/:id/revoke-credentials`,
    { schema: adminSchemas.clientAction('Revoke the integration keys of both environments'), preHandler },
    async (request) => admin.revokeClientCredentials(who(request), request.params.id, request.body.reason),
  );
}
