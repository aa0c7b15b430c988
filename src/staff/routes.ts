import type { Auth } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { loginSchema, logoutSchema, meSchema } from './schemas.ts';
import type { StaffService } from './service.ts';

export function staffRoutes(app: TypedApp, service: StaffService, auth: Auth): void {
  const signedIn = auth.staff('self');

  app.post('/api/v1/admin/auth/login', { schema: loginSchema }, async (request) => {
    const { token, expiresAt } = await auth.limitFailures(request, () => service.login(request.body, request.ip));
    return { token, expiresAt: expiresAt.toISOString() };
  });

  app.post('/api/v1/admin/auth/logout', { schema: logoutSchema, onRequest: signedIn }, async (request, reply) => {
    await service.logout(request.staffToken!, request.staff!, request.ip);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/admin/me', { schema: meSchema, onRequest: signedIn }, async (request) => {
    const staff = request.staff!;
    return {
      staff: {
        id: staff.id,
        email: staff.email,
        role: staff.role,
        tenantId: staff.tenantId,
        sessionExpiresAt: staff.sessionExpiresAt.toISOString(),
      },
    };
  });
}
