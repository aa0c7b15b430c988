import type { Auth } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { Adjustments } from './adjustments.ts';
import type { ObligationReview } from './review.ts';
import {
  adjustmentSchema,
  adjustmentsSchema,
  approveAdjustmentSchema,
  balanceSchema,
  cancelSchema,
  obligationCountsSchema,
  obligationsSchema,
  resolveSchema,
  rejectAdjustmentSchema,
  retrySchema,
} from './schemas.ts';
import type { WalletService } from './service.ts';

export interface WalletUseCases {
  wallet: WalletService;
  review: ObligationReview;
  adjustments: Adjustments;
}

/** The player's balance; the operator workspace of money owed (operators their tenant, the platform any). */
export function walletRoutes(app: TypedApp, use: WalletUseCases, auth: Auth): void {
  app.get('/api/v1/wallet/balance', { schema: balanceSchema, onRequest: auth.player() }, async (request) =>
    use.wallet.balance(request.session!),
  );

  const operator = auth.staff('tenant');
  const base = '/api/v1/admin/obligations';
  app.get(base, { schema: obligationsSchema, onRequest: operator }, async (request) =>
    use.review.list({ staff: request.staff! }, request.query),
  );
  app.get(`${base}/counts`, { schema: obligationCountsSchema, onRequest: operator }, async (request) =>
    use.review.counts({ staff: request.staff! }, request.query),
  );
  app.post(`${base}/:id/retry`, { schema: retrySchema, onRequest: operator }, async (request) =>
    use.review.retry({ staff: request.staff!, ip: request.ip }, request.params.id, request.body.reason),
  );
  app.post(`${base}/:id/resolve`, { schema: resolveSchema, onRequest: operator }, async (request) =>
    use.review.resolve({ staff: request.staff!, ip: request.ip }, request.params.id, request.body.reason),
  );
  app.post(`${base}/:id/cancel`, { schema: cancelSchema, onRequest: operator }, async (request) =>
    use.review.cancel({ staff: request.staff!, ip: request.ip }, request.params.id, request.body.reason),
  );

  app.post('/api/v1/admin/adjustments', { schema: adjustmentSchema, onRequest: operator }, async (request, reply) => {
    const call = { staff: request.staff!, ip: request.ip };
    const made = await use.adjustments.create(call, request.headers['idempotency-key'], request.body);
    if (made.replayed)
      return reply.code(200).header('idempotency-replayed', 'true').send({ adjustment: made.adjustment });
    return reply.code(201).send({ adjustment: made.adjustment });
  });
  app.get('/api/v1/admin/adjustments', { schema: adjustmentsSchema, onRequest: operator }, async (request) =>
    use.adjustments.list({ staff: request.staff! }, request.query),
  );
  app.post(
    '/api/v1/admin/adjustments/:id/approve',
    { schema: approveAdjustmentSchema, onRequest: operator },
    async (request) =>
      use.adjustments.approve({ staff: request.staff!, ip: request.ip }, request.params.id, request.body.reason),
  );
  app.post(
    '/api/v1/admin/adjustments/:id/reject',
    { schema: rejectAdjustmentSchema, onRequest: operator },
    async (request) =>
      use.adjustments.reject({ staff: request.staff!, ip: request.ip }, request.params.id, request.body.reason),
  );
}
