import { type Auth, guarded } from '../platform/http/auth.ts';
import { wantsCsv } from '../platform/http/csv.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { Adjustments } from './operator/adjustments.ts';
import type { PartnerObligations } from './partner/obligations.ts';
import type { ObligationReview } from './operator/workspace.ts';
import {
  adjustmentSchema,
  adjustmentsSchema,
  approveAdjustmentSchema,
  balanceSchema,
  cancelSchema,
  obligationCountsSchema,
  obligationsSchema,
  partnerObligationsSchema,
  redeliverSchema,
  resolveSchema,
  rejectAdjustmentSchema,
  retrySchema,
  statementKeysSchema,
  statementSchema,
  transactionSchema,
} from './schemas.ts';
import type { WalletService } from './service.ts';
import type { Statements } from './partner/statements.ts';

export interface WalletUseCases {
  wallet: WalletService;
  review: ObligationReview;
  adjustments: Adjustments;
  partner: PartnerObligations;
  statements: Statements;
}

/**
 * The player's balance; the operator workspace of money owed (operators their tenant, the platform any); the
 * casino's own view of it with its integration key, and its signed daily statements.
 */
export function walletRoutes(app: TypedApp, use: WalletUseCases, auth: Auth): void {
  app.get('/api/v1/wallet/balance', { schema: balanceSchema, onRequest: auth.player() }, async (request) =>
    use.wallet.balance(guarded.session(request)),
  );

  const operator = auth.staff('tenant');
  const base = '/api/v1/admin/obligations';
  app.get(base, { schema: obligationsSchema, onRequest: operator }, async (request) =>
    use.review.list({ staff: guarded.staff(request) }, request.query),
  );
  app.get(`${base}/counts`, { schema: obligationCountsSchema, onRequest: operator }, async (request) =>
    use.review.counts({ staff: guarded.staff(request) }, request.query),
  );
  app.post(`${base}/:id/retry`, { schema: retrySchema, onRequest: operator }, async (request) =>
    use.review.retry(guarded.staffCall(request), request.params.id, request.body.reason),
  );
  app.post(`${base}/:id/resolve`, { schema: resolveSchema, onRequest: operator }, async (request) =>
    use.review.resolve(guarded.staffCall(request), request.params.id, request.body.reason, request.body.collected),
  );
  app.post(`${base}/:id/cancel`, { schema: cancelSchema, onRequest: operator }, async (request) =>
    use.review.cancel(guarded.staffCall(request), request.params.id, request.body.reason),
  );

  app.post('/api/v1/admin/adjustments', { schema: adjustmentSchema, onRequest: operator }, async (request, reply) => {
    const call = guarded.staffCall(request);
    const made = await use.adjustments.create(call, request.headers['idempotency-key'], request.body);
    if (made.replayed)
      return reply.code(200).header('idempotency-replayed', 'true').send({ adjustment: made.adjustment });
    return reply.code(201).send({ adjustment: made.adjustment });
  });
  app.get('/api/v1/admin/adjustments', { schema: adjustmentsSchema, onRequest: operator }, async (request) =>
    use.adjustments.list({ staff: guarded.staff(request) }, request.query),
  );
  app.post(
    '/api/v1/admin/adjustments/:id/approve',
    { schema: approveAdjustmentSchema, onRequest: operator },
    async (request) => use.adjustments.approve(guarded.staffCall(request), request.params.id, request.body.reason),
  );
  app.post(
    '/api/v1/admin/adjustments/:id/reject',
    { schema: rejectAdjustmentSchema, onRequest: operator },
    async (request) => use.adjustments.reject(guarded.staffCall(request), request.params.id, request.body.reason),
  );

  casinoRoutes(app, use, auth);
}

/** The casino's server, with its integration key: money owed in its environment, and its statements. */
function casinoRoutes(app: TypedApp, use: WalletUseCases, auth: Auth): void {
  const casino = auth.tenantKey();
  const base = '/api/v1/integration';
  app.get(`${base}/obligations`, { schema: partnerObligationsSchema, onRequest: casino }, async (request) =>
    use.partner.list(guarded.tenant(request), request.query),
  );
  app.post(
    `${base}/obligations/:id/redeliver`,
    { schema: redeliverSchema, onRequest: casino },
    async (request, reply) => {
      const call = { tenant: guarded.tenant(request), ip: request.ip };
      return reply.code(202).send(await use.partner.redeliver(call, request.params.id, request.body.reason));
    },
  );
  app.get(`${base}/transactions/:txId`, { schema: transactionSchema, onRequest: casino }, async (request) =>
    use.partner.transaction(guarded.tenant(request), request.params.txId),
  );
  app.get(`${base}/statements/:day`, { schema: statementSchema, onRequest: casino }, async (request, reply) => {
    const format = wantsCsv(request.query.format, request) ? 'csv' : 'json';
    const statement = await use.statements.statement(guarded.tenant(request), request.params.day, format);
    // The body is sent as the very string that was signed: nothing re-serialises it.
    return reply
      .header('content-type', statement.contentType)
      .header('content-disposition', `attachment; filename="${statement.fileName}"`)
      .header('x-statement-key-id', statement.keyId)
      .header('x-statement-signature', statement.signature)
      .header('x-statement-preview', String(statement.preview))
      .send(statement.body);
  });
  app.get(`${base}/statement-keys`, { schema: statementKeysSchema }, async () => use.statements.keys());
}
