import type { Auth } from '../platform/http/auth.ts';
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
      const report = await reports.ggr({ staff: request.staff! }, request.query);
      if (!wantsCsv(request.query.format, request.headers.accept)) return reply.send(report);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${ggrFileName(report, request.query)}"`)
        .send(ggrCsv(report));
    },
  );
  app.get('/api/v1/admin/dashboard', { schema: dashboardSchema, onRequest: auth.staff('platform') }, async () =>
    reports.dashboard.read(),
  );
}

/** CSV when asked by name (format=csv), or, with no format named, when the Accept header names CSV and not JSON. */
function wantsCsv(format: string | undefined, accept: string | undefined): boolean {
  if (format !== undefined) return format === 'csv';
  const types = (accept ?? '').split(',').map((range) => range.split(';')[0]!.trim().toLowerCase());
  return types.includes('text/csv') && !types.includes('application/json');
}
