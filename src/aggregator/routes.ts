import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Auth, guarded } from '../platform/http/auth.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { ClientActivation } from './activation.ts';
import type { AggregatorAdminService } from './admin.ts';
import type { CredentialRotation } from './credentials.ts';
import { aggregatorErrors } from './errors.ts';
import type { ClientInterventions } from './interventions.ts';
import type { ClientProvisioning } from './provisioning.ts';
import {
  activateClientSchema,
  adminSchemas,
  createClientSchema,
  getClientSchema,
  listClientsSchema,
  rotateCredentialsSchema,
} from './schemas.ts';

export const AGGREGATOR_PREFIX = '/api/v1/aggregator';

function sendStored(reply: FastifyReply, result: { status: number; body: unknown; replayed: boolean }) {
  if (result.replayed) reply.header('idempotency-replayed', 'true');
  return reply.code(result.status).send(result.body);
}

/** The aggregator API: server to server, a scoped key on every route (see Auth.aggregator). */
export function aggregatorRoutes(
  app: TypedApp,
  useCases: { provisioning: ClientProvisioning; activation: ClientActivation; rotation: CredentialRotation },
  auth: Auth,
): void {
  const { provisioning, activation, rotation } = useCases;
  const base = AGGREGATOR_PREFIX;
  const call = (request: FastifyRequest) => ({ key: String(request.headers['idempotency-key']), ip: request.ip });

  app.post(
    `${base}/clients`,
    { schema: createClientSchema, onRequest: auth.aggregator('clients:create') },
    async (request, reply) =>
      sendStored(reply, await provisioning.createClient(guarded.aggregator(request), call(request), request.body)),
  );
  app.get(
    `${base}/clients`,
    { schema: listClientsSchema, onRequest: auth.aggregator('clients:read') },
    async (request) => provisioning.listClients(guarded.aggregator(request), request.query),
  );
  app.get(
    `${base}/clients/:id`,
    { schema: getClientSchema, onRequest: auth.aggregator('clients:read') },
    async (request) => ({ client: await provisioning.getClient(guarded.aggregator(request), request.params.id) }),
  );
  app.post(
    `${base}/clients/:id/activate`,
    { schema: activateClientSchema, onRequest: auth.aggregator('clients:activate') },
    async (request, reply) =>
      sendStored(
        reply,
        await activation.activateClient(guarded.aggregator(request), call(request), request.params.id, request.body),
      ),
  );
  app.post(
    `${base}/clients/:id/credentials/rotate`,
    { schema: rotateCredentialsSchema, onRequest: auth.aggregator('credentials:rotate') },
    async (request, reply) =>
      sendStored(
        reply,
        await rotation.rotateCredentials(guarded.aggregator(request), call(request), request.params.id, request.body),
      ),
  );
}

/** Platform administration of aggregators and their clients. */
export function aggregatorAdminRoutes(
  app: TypedApp,
  useCases: { admin: AggregatorAdminService; interventions: ClientInterventions },
  auth: Auth,
): void {
  const { admin, interventions } = useCases;
  const onRequest = auth.staff('platform');
  const who = (request: FastifyRequest): StaffCall => guarded.staffCall(request);
  const base = '/api/v1/admin/aggregators';

  app.post(base, { schema: adminSchemas.createAggregator, onRequest }, async (request, reply) =>
    reply.code(201).send({ aggregator: await admin.createAggregator(who(request), request.body.name) }),
  );
  app.get(base, { schema: adminSchemas.listAggregators, onRequest }, async () => ({
    aggregators: await admin.listAggregators(),
  }));
  app.get(`${base}/:id`, { schema: adminSchemas.getAggregator, onRequest }, async (request) => ({
    aggregator: await admin.aggregator(request.params.id),
  }));
  app.put(`${base}/:id/authorization`, { schema: adminSchemas.putAuthorization, onRequest }, async (request) => ({
    authorization: await admin.setAuthorization(who(request), request.params.id, request.body),
  }));
  app.post(`${base}/:id/keys`, { schema: adminSchemas.issueKey, onRequest }, async (request, reply) =>
    reply.code(201).send(await admin.issueKey(who(request), request.params.id, request.body)),
  );
  app.get(`${base}/:id/keys`, { schema: adminSchemas.listKeys, onRequest }, async (request) => ({
    keys: await admin.listKeys(request.params.id),
  }));
  app.delete(`${base}/:id/keys/:keyId`, { schema: adminSchemas.revokeKey, onRequest }, async (request) => ({
    key: await admin.revokeKey(who(request), request.params.id, request.params.keyId),
  }));
  app.post(
    `${base}/:id/disable`,
    {
      schema: adminSchemas.aggregatorAction(
        'disableAggregator',
        "Block the aggregator's API access; its clients' integrations and owed payments go on",
      ),
      onRequest,
    },
    async (request) => ({
      aggregator: await admin.setEnabled(who(request), request.params.id, false, request.body.reason),
    }),
  );
  app.post(
    `${base}/:id/enable`,
    { schema: adminSchemas.aggregatorAction('enableAggregator', "Restore the aggregator's API access"), onRequest },
    async (request) => ({
      aggregator: await admin.setEnabled(who(request), request.params.id, true, request.body.reason),
    }),
  );

  const clients = '/api/v1/admin/clients';
  app.get(clients, { schema: adminSchemas.listClients, onRequest }, async (request) =>
    interventions.listClients(request.query),
  );
  app.get(`${clients}/:id`, { schema: adminSchemas.getClient, onRequest }, async (request) =>
    interventions.client(request.params.id),
  );
  app.post(
    `${clients}/:id/suspend`,
    { schema: adminSchemas.clientAction('suspendClient', 'Suspend a client and both its environments'), onRequest },
    async (request) => interventions.suspendClient(who(request), request.params.id, request.body.reason),
  );
  app.post(
    `${clients}/:id/resume`,
    {
      schema: adminSchemas.clientAction('resumeClient', "Lift the platform's holds (suspension, revoked credentials)", [
        aggregatorErrors.not_suspended,
      ]),
      onRequest,
    },
    async (request) => interventions.resumeClient(who(request), request.params.id, request.body.reason),
  );
  app.post(
    `${clients}/:id/revoke-credentials`,
    {
      schema: adminSchemas.clientAction(
        'revokeClientCredentials',
        'Revoke the integration keys of both environments and hold them revoked',
      ),
      onRequest,
    },
    async (request) => interventions.revokeClientCredentials(who(request), request.params.id, request.body.reason),
  );
}
