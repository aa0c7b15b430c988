import { guarded, type Auth } from '../http/auth.ts';
import { sendCsv, wantsCsv } from '../http/csv.ts';
import type { TypedApp } from '../http/types.ts';
import { auditListSchema } from './schemas.ts';
import type { AuditViews } from './views.ts';

/** `GET /api/v1/admin/audit`: operators the rows about their tenant, the platform all. */
export function auditRoutes(app: TypedApp, views: AuditViews, auth: Auth): void {
  app.get(
    '/api/v1/admin/audit',
    { schema: auditListSchema, onRequest: auth.staff('tenant') },
    async (request, reply) => {
      const query = request.query;
      const call = { staff: guarded.staff(request) };
      if (!wantsCsv(query.format, request)) return reply.send(await views.list(call, query));
      const { filename, body } = await views.csv(call, query);
      return sendCsv(reply, filename, body);
    },
  );
}
