import type { FastifyRequest } from 'fastify';
import { TOKEN_PREFIX } from '../platform/crypto.ts';
import { AppError, unauthorized } from '../platform/errors.ts';
import { bearerToken } from '../platform/http/bearer.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { loginSchema, logoutSchema, meSchema, type StaffRole } from './schemas.ts';
import type { StaffPrincipal, StaffService } from './service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    staff?: StaffPrincipal;
    staffToken?: string;
  }
}

/** preHandler for every /api/v1/admin route except login: a live staff token as Bearer, nothing else. */
export function requireStaff(service: StaffService) {
  return async (request: FastifyRequest): Promise<void> => {
    const token = bearerToken(request.headers.authorization);
    if (!token || !token.startsWith(TOKEN_PREFIX.staff)) throw unauthorized('A staff token is required (Authorization: Bearer).');
    const staff = await service.authenticate(token);
    if (!staff) throw unauthorized('The staff token is invalid, expired or logged out.');
    request.staff = staff;
    request.staffToken = token;
  };
}

/** preHandler after requireStaff: the staff member must hold one of the roles. */
export function requireRole(...roles: StaffRole[]) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!request.staff || !roles.includes(request.staff.role)) {
      throw new AppError('forbidden', 403, `This needs the role ${roles.join(' or ')}.`, { requiredRoles: roles });
    }
  };
}

export function staffRoutes(app: TypedApp, service: StaffService): void {
  const guard = requireStaff(service);

  app.post('/api/v1/admin/auth/login', { schema: loginSchema }, async (request) => {
    const { token, expiresAt } = await service.login(request.body, request.ip);
    return { token, expiresAt: expiresAt.toISOString() };
  });

  app.post('/api/v1/admin/auth/logout', { schema: logoutSchema, preHandler: guard }, async (request, reply) => {
    await service.logout(request.staffToken!, request.staff!, request.ip);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/admin/me', { schema: meSchema, preHandler: guard }, async (request) => {
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

