import { type Auth, guarded } from '../platform/http/auth.ts';
import { sendCsv, wantsCsv } from '../platform/http/csv.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { ggrCsv, ggrFileName } from './csv.ts';
import { dashboardSchema, ggrSchema } from './schemas.ts';
import type { Reports } from './service.ts';

/** Reports for operators (their tenant) and platform administrators (any, or all); the platform's dashboard. */
export function reportRoutes(app: TypedApp, reports: Reports, auth: Auth): void {
  app.get(
    '/api/v1/admin/reports/ggr',
    { schema: ggrSchema, onRequest: auth.staff('tenant') },
    async (request, reply) => {
      const report = await reports.ggr({ staff: guarded.staff(request) }, request.query);
      if (!wantsCsv(request.query.format, request)) return reply.send(report);
      return sendCsv(reply, ggrFileName(report, request.query), ggrCsv(report));
    },
  );
  app.get('/api/v1/admin/dashboard', { schema: dashboardSchema, onRequest: auth.staff('platform') }, async () =>
    reports.dashboard.read(),
  );
}
