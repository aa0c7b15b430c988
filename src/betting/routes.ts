import type { IntegrationService } from '../integration/service.ts';
import { requirePlayer } from '../integration/routes.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { WalletService } from '../wallet/service.ts';
import { requireStaff } from '../staff/routes.ts';
import type { StaffService } from '../staff/service.ts';
import { balanceSchema, getBetSchema, listBetsSchema, placeBetSchema, staffBetsSchema } from './schemas.ts';
import type { BettingService } from './service.ts';

/** Player calls with the session token; each counts as session activity. */
export function bettingRoutes(app: TypedApp, betting: BettingService, wallet: WalletService, integration: IntegrationService, staff: StaffService): void {
  const player = requirePlayer(integration);

  app.get('/api/v1/wallet/balance', { schema: balanceSchema, onRequest: player }, async (request) => wallet.balance(request.session!));

  app.post('/api/v1/bets', { schema: placeBetSchema, onRequest: player }, async (request, reply) => {
    const placed = await betting.placeBet(request.session!, request.body);
    if (placed.replayed) return reply.code(200).header('idempotency-replayed', 'true').send({ bet: placed.bet });
    return reply.code(201).send({ bet: placed.bet, balance: placed.balance! });
  });

  app.get('/api/v1/bets', { schema: listBetsSchema, onRequest: player }, async (request) => betting.myBets(request.session!, request.query));
  app.get('/api/v1/bets/:id', { schema: getBetSchema, onRequest: player }, async (request) => ({
    bet: await betting.playerBet(request.session!, request.params.id),
  }));

  app.get('/api/v1/admin/bets', { schema: staffBetsSchema, preHandler: requireStaff(staff) }, async (request) =>
    betting.playerBetsForStaff(request.staff!, request.query),
  );
}
