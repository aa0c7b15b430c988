import { Type } from 'typebox';
import { isReady, type Db } from '../platform/db/database.ts';
import { errorBody } from '../platform/errors.ts';
import { ErrorResponse } from '../platform/http/schemas.ts';
import type { TypedApp } from '../platform/http/types.ts';

const Status = Type.Object({ status: Type.String() });

export function healthRoutes(app: TypedApp, db: Db): void {
  app.get(
    '/healthz',
    { schema: { tags: ['health'], summary: 'The process is alive', response: { 200: Status } } },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags: ['health'],
        summary: 'The database answers and every migration is applied',
        response: { 200: Status, 503: ErrorResponse },
      },
    },
    async (_request, reply) => {
      const state = await isReady(db);
      if (state.ready) return { status: 'ready' };
      return reply.code(503).send(errorBody('not_ready', 'The service is not ready.', { reason: state.reason }));
    },
  );
}
