import type { FastifyRequest } from 'fastify';
import type { Auth } from '../http/auth.ts';
import type { TypedApp } from '../http/types.ts';
import { auditListSchema, type AuditQuery } from './schemas.ts';
import type { AuditViews } from './views.ts';

/** `GET /api/v1/admin/audit`: operators the rows about their tenant, the platform all. */
export function auditRoutes(app: TypedApp, views: AuditViews, auth: Auth): void {
  app.get(
    '/api/v1/admin/audit',
    { schema: auditListSchema, onRequest: auth.staff('tenant') },
    async (request, reply) => {
      const query = request.query;
      const call = { staff: request.staff! };
      if (!wantsCsv(request, query)) return reply.send(await views.list(call, query));
      const { filename, body } = await views.csv(call, query);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(body);
    },
  );
}

/** `format=csv`, or, without `format`, an Accept header asking for text/csv and not for JSON. */
function wantsCsv(request: FastifyRequest, query: AuditQuery): boolean {
  if (query.format !== undefined) return query.format === 'csv';
  const accept = request.headers.accept ?? '';
  return accept.includes('text/csv') && !accept.includes('application/json');
}
