import { sha256Hex } from '../platform/crypto.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { SandboxControls } from './controls.ts';
import {
  cancelSandboxBetSchema,
  createSandboxAdjustmentSchema,
  getSandboxBetSchema,
  reopenSandboxBetSchema,
  resettleSandboxBetSchema,
  SANDBOX_ADJUSTMENTS,
  SANDBOX_BETS,
  SANDBOX_PLAYERS,
  setSandboxPlayerStatusSchema,
  settleSandboxBetSchema,
} from './schemas.ts';

function sendStored(reply: FastifyReply, result: { status: number; body: unknown; replayed: boolean }) {
  if (result.replayed) reply.header('idempotency-replayed', 'true');
  return reply.code(result.status).send(result.body);
}

/**
 * The sandbox controls: a sandbox tenant's server (X-Tenant-ID + X-API-Key) decides its own bets' outcomes, makes
 * adjustments on its players and sets their status.
 */
export function sandboxRoutes(app: TypedApp, outcomes: SandboxControls, auth: Auth): void {
  const server = auth.tenantKey();
  const call = (request: FastifyRequest) => ({
    key: String(request.headers['idempotency-key']),
    // The integration key that sent it, as integration_keys knows it (its SHA-256): the Idempotency-Key is bound to it.
    credential: sha256Hex(String(request.headers['x-api-key'])),
    ip: request.ip,
  });

  app.post(
    `${SANDBOX_BETS}/:id/settle`,
    { schema: settleSandboxBetSchema, onRequest: server },
    async (request, reply) =>
      sendStored(
        reply,
        await outcomes.decide(guarded.tenant(request), call(request), request.params.id, 'settle', request.body),
      ),
  );
  app.post(
    `${SANDBOX_BETS}/:id/resettle`,
    { schema: resettleSandboxBetSchema, onRequest: server },
    async (request, reply) =>
      sendStored(
        reply,
        await outcomes.decide(guarded.tenant(request), call(request), request.params.id, 'resettle', request.body),
      ),
  );
  app.post(
    `${SANDBOX_BETS}/:id/reopen`,
    { schema: reopenSandboxBetSchema, onRequest: server },
    async (request, reply) =>
      sendStored(
        reply,
        await outcomes.decide(guarded.tenant(request), call(request), request.params.id, 'reopen', request.body),
      ),
  );
  app.post(
    `${SANDBOX_BETS}/:id/cancel`,
    { schema: cancelSandboxBetSchema, onRequest: server },
    async (request, reply) =>
      sendStored(
        reply,
        await outcomes.decide(guarded.tenant(request), call(request), request.params.id, 'cancel', request.body),
      ),
  );
  app.get(`${SANDBOX_BETS}/:id`, { schema: getSandboxBetSchema, onRequest: server }, async (request) => ({
    bet: await outcomes.view(guarded.tenant(request), request.params.id),
  }));
  app.post(SANDBOX_ADJUSTMENTS, { schema: createSandboxAdjustmentSchema, onRequest: server }, async (request, reply) =>
    sendStored(reply, await outcomes.adjust(guarded.tenant(request), call(request), request.body)),
  );
  app.put(
    `${SANDBOX_PLAYERS}/:externalPlayerId/status`,
    { schema: setSandboxPlayerStatusSchema, onRequest: server },
    async (request) =>
      outcomes.setPlayerStatus(guarded.tenant(request), request.ip, request.params.externalPlayerId, request.body),
  );
}
