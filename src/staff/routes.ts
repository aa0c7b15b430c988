import type { FastifyRequest } from 'fastify';
import { type Auth, guarded } from '../platform/http/auth.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { StaffAccounts } from './accounts.ts';
import { staffErrors } from './errors.ts';
import {
  createStaffSchema,
  enrolSchema,
  listStaffSchema,
  loginSchema,
  logoutSchema,
  meSchema,
  staffActionSchema,
} from './schemas.ts';
import { STAFF_IDLE_TIMEOUT_MS, type StaffService } from './service.ts';
import { platformErrors } from '../platform/errors.ts';

export function staffRoutes(
  app: TypedApp,
  useCases: { service: StaffService; accounts: StaffAccounts },
  auth: Auth,
): void {
  const { service, accounts } = useCases;
  const signedIn = auth.staff('self');
  const platform = auth.staff('platform');
  const who = (request: FastifyRequest): StaffCall => guarded.staffCall(request);
  const session = ({ token, expiresAt }: { token: string; expiresAt: Date }) => ({
    token,
    expiresAt: expiresAt.toISOString(),
  });

  app.post('/api/v1/admin/auth/login', { schema: loginSchema }, async (request) => {
    const result = await auth.limitFailures(request, () => service.login(request.body, request.ip));
    if ('enrolment' in result) {
      const { enrolmentToken, secret, otpauthUrl, expiresAt } = result.enrolment;
      return { enrolment: { enrolmentToken, secret, otpauthUrl, expiresAt: expiresAt.toISOString() } };
    }
    return session(result);
  });

  app.post('/api/v1/admin/auth/enrol', { schema: enrolSchema }, async (request) =>
    session(await auth.limitFailures(request, () => service.enrol(request.body, request.ip))),
  );

  app.post('/api/v1/admin/auth/logout', { schema: logoutSchema, onRequest: signedIn }, async (request, reply) => {
    await service.logout(guarded.staffToken(request), guarded.staff(request), request.ip);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/admin/me', { schema: meSchema, onRequest: signedIn }, async (request) => {
    const staff = guarded.staff(request);
    return {
      staff: {
        id: staff.id,
        email: staff.email,
        role: staff.role,
        tenantId: staff.tenantId,
        sessionExpiresAt: staff.sessionExpiresAt.toISOString(),
        idleExpiresAt: staff.idleExpiresAt.toISOString(),
        idleTimeoutSeconds: STAFF_IDLE_TIMEOUT_MS / 1000,
      },
    };
  });

  const base = '/api/v1/admin/staff';
  app.get(base, { schema: listStaffSchema, onRequest: platform }, async (request) => accounts.list(request.query));
  app.post(base, { schema: createStaffSchema, onRequest: platform }, async (request, reply) =>
    reply.code(201).send({ staff: await accounts.create(who(request), request.body) }),
  );
  app.post(
    `${base}/:id/reset-totp`,
    {
      schema: staffActionSchema(
        'resetStaffTotp',
        'The account enrols a new authenticator at its next sign-in; its sessions end now',
      ),
      onRequest: platform,
    },
    async (request) => ({ staff: await accounts.resetTotp(who(request), request.params.id, request.body.reason) }),
  );
  app.post(
    `${base}/:id/disable`,
    {
      schema: staffActionSchema('disableStaff', 'Disable the account and end its sessions', [
        platformErrors.not_found,
        staffErrors.cannot_disable_self,
        staffErrors.last_platform_admin,
      ]),
      onRequest: platform,
    },
    async (request) => ({ staff: await accounts.disable(who(request), request.params.id, request.body.reason) }),
  );
  app.post(
    `${base}/:id/enable`,
    { schema: staffActionSchema('enableStaff', 'Enable a disabled account'), onRequest: platform },
    async (request) => ({ staff: await accounts.enable(who(request), request.params.id, request.body.reason) }),
  );
}
