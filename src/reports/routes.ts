import type { Auth } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { ggrSchema } from './schemas.ts';
import type { Reports } from './service.ts';

/** Reports for operators (their tenant) and platform administrators (the tenant they name). */
export function reportRoutes(app: TypedApp, reports: Reports, auth: Auth): void {
  app.get('/api/v1/admin/reports/ggr', { schema: ggrSchema, onRequest: auth.staff('tenant') }, async (request) =>
    reports.ggr({ staff: request.staff! }, request.query),
  );
}
