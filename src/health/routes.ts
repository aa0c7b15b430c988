import { Type } from 'typebox';
import type { Db } from '../platform/db/database.ts';
import { isReady } from '../platform/db/migrate.ts';
import { platformErrors } from '../platform/errors.ts';
import type { TypedApp } from '../platform/http/types.ts';

const Status = Type.Object({ status: Type.String() });
/** Probes may add parameters of their own (cache busters): health checks accept any query string. */
const AnyQuery = Type.Object({}, { additionalProperties: true });
const tags = ['health'];

export function healthRoutes(app: TypedApp, db: Db): void {
  app.get(
    '/healthz',
    {
      schema: {
        tags,
        operationId: 'healthz',
        summary: 'The process is alive',
        querystring: AnyQuery,
        response: { 200: Status },
      },
    },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        operationId: 'readyz',
        summary: 'The database answers and every migration is applied',
        querystring: AnyQuery,
        response: { 200: Status },
        errors: [platformErrors.not_ready],
      },
    },
    async () => {
      const state = await isReady(db);
      if (!state.ready) throw platformErrors.not_ready({ reason: state.reason }, 'The service is not ready.');
      return { status: 'ready' };
    },
  );
}
