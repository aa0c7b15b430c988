import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { type Auth, guarded } from '../platform/http/auth.ts';
import { targetTenant } from '../platform/http/permissions.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { TenantCredentials } from './credentials.ts';
import { tenantErrors } from './errors.ts';
import {
  CreatedTenant,
  CreateTenantBody,
  RotatedApiKey,
  RotatedWalletSecret,
  TenantQuery,
  TenantRecord,
  UpdateTenantBody,
} from './schemas.ts';
import type { TenantSettings } from './settings.ts';

const tags = ['admin: tenants'];

export function tenantRoutes(
  app: TypedApp,
  useCases: { settings: TenantSettings; credentials: TenantCredentials },
  auth: Auth,
): void {
  const { settings, credentials } = useCases;
  const who = (request: FastifyRequest): StaffCall => guarded.staffCall(request);
  const target = (request: FastifyRequest) =>
    targetTenant(guarded.staff(request), (request.query as { tenantId?: string }).tenantId);
  const tenantStaff = auth.staff('tenant');

  app.post(
    '/api/v1/admin/tenants',
    {
      schema: {
        tags,
        operationId: 'createTenant',
        summary: 'Create a tenant directly (operator not behind an aggregator); credentials shown once',
        body: CreateTenantBody,
        response: { 201: CreatedTenant },
      },
      onRequest: auth.staff('platform'),
    },
    async (request, reply) => reply.code(201).send(await settings.createTenant(who(request), request.body)),
  );

  app.get(
    '/api/v1/admin/tenant',
    {
      schema: {
        tags,
        operationId: 'getTenant',
        summary: 'Settings of a tenant (no secrets)',
        querystring: TenantQuery,
        response: { 200: Type.Object({ tenant: TenantRecord }) },
        errors: [platformErrors.not_found],
      },
      onRequest: tenantStaff,
    },
    async (request) => ({ tenant: await settings.tenant(target(request)) }),
  );

  app.put(
    '/api/v1/admin/tenant',
    {
      schema: {
        tags,
        operationId: 'updateTenant',
        summary: 'Change tenant settings (embedOrigins, name, locale; wallet identity and status: platform only)',
        querystring: TenantQuery,
        body: UpdateTenantBody,
        response: { 200: Type.Object({ tenant: TenantRecord }) },
        errors: [platformErrors.not_found, tenantErrors.wallet_identity_locked],
      },
      onRequest: tenantStaff,
    },
    async (request) => ({ tenant: await settings.updateTenant(who(request), target(request), request.body) }),
  );

  app.post(
    '/api/v1/admin/integration/api-key',
    {
      schema: {
        tags,
        operationId: 'rotateIntegrationKey',
        summary: 'Rotate the integration API key: new key returned once, the previous one stops at once',
        querystring: TenantQuery,
        response: { 200: RotatedApiKey },
        errors: [platformErrors.not_found],
      },
      onRequest: tenantStaff,
    },
    async (request) => credentials.rotateApiKey(who(request), target(request)),
  );

  app.post(
    '/api/v1/admin/integration/wallet-secret',
    {
      schema: {
        tags,
        operationId: 'rotateWalletSecret',
        summary: 'Rotate the wallet signing secret: returned once, used for every later signature',
        querystring: TenantQuery,
        response: { 200: RotatedWalletSecret },
        errors: [platformErrors.not_found],
      },
      onRequest: tenantStaff,
    },
    async (request) => credentials.rotateWalletSecret(who(request), target(request)),
  );
}
