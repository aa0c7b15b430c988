import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ErrorResponse } from '../platform/http/schemas.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { requireRole, requireStaff } from '../staff/routes.ts';
import type { StaffCall, StaffService } from '../staff/service.ts';
import { CreatedTenant, CreateTenantBody, RotatedApiKey, RotatedWalletSecret, TenantQuery, TenantRecord, UpdateTenantBody } from './schemas.ts';
import type { TenantService } from './service.ts';

const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
const common = { tags: ['admin: tenants'], security: [{ staffToken: [] }] };

export function tenantRoutes(app: TypedApp, tenants: TenantService, staff: StaffService): void {
  const authenticated = requireStaff(staff);
  const who = (request: FastifyRequest): StaffCall => ({ staff: request.staff!, ip: request.ip });
  const target = (request: FastifyRequest) =>
    tenants.resolveTenantId(request.staff!, (request.query as { tenantId?: string }).tenantId);

  app.post(
    '/api/v1/admin/tenants',
    {
      schema: { ...common, summary: 'Create a tenant directly (operator not behind an aggregator); credentials shown once', body: CreateTenantBody, response: { 201: CreatedTenant, ...errors } },
      preHandler: [authenticated, requireRole('platform_admin')],
    },
    async (request, reply) => reply.code(201).send(await tenants.createTenant(who(request), request.body)),
  );

  app.get(
    '/api/v1/admin/tenant',
    { schema: { ...common, summary: 'Settings of a tenant (no secrets)', querystring: TenantQuery, response: { 200: Type.Object({ tenant: TenantRecord }), ...errors } }, preHandler: authenticated },
    async (request) => ({ tenant: await tenants.tenant(target(request)) }),
  );

  app.put(
    '/api/v1/admin/tenant',
    {
      schema: { ...common, summary: 'Change tenant settings (embedOrigins, name, locale; wallet identity: platform only)', querystring: TenantQuery, body: UpdateTenantBody, response: { 200: Type.Object({ tenant: TenantRecord }), ...errors } },
      preHandler: authenticated,
    },
    async (request) => ({ tenant: await tenants.updateTenant(who(request), target(request), request.body) }),
  );

  app.post(
    '/api/v1/admin/integration/api-key',
    { schema: { ...common, summary: 'Rotate the integration API key: new key returned once, the previous one stops at once', querystring: TenantQuery, response: { 200: RotatedApiKey, ...errors } }, preHandler: authenticated },
    async (request) => tenants.rotateApiKey(who(request), target(request)),
  );

  app.post(
    '/api/v1/admin/integration/wallet-secret',
    { schema: { ...common, summary: 'Rotate the wallet signing secret: returned once, used for every later signature', querystring: TenantQuery, response: { 200: RotatedWalletSecret, ...errors } }, preHandler: authenticated },
    async (request) => tenants.rotateWalletSecret(who(request), target(request)),
  );
}
