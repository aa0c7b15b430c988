import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { CashOut } from './cashout.ts';
import type { EventResults } from './event-results.ts';
import type { EventRisk } from './risk.ts';
import type { Placement } from './placement.ts';
import {
  cashOutOfferSchema,
  cashOutSchema,
  eventResultPreviewSchema,
  eventRiskSchema,
  eventResultSchema,
  getBetSchema,
  listBetsSchema,
  placeBetSchema,
  resettlePreviewSchema,
  resettleSchema,
  settlePreviewSchema,
  settleSchema,
  staffBetsSchema,
} from './schemas.ts';
import type { Settlement } from './settlement.ts';
import type { BetViews } from './views.ts';

export interface BettingUseCases {
  placement: Placement;
  views: BetViews;
  cashOut: CashOut;
  settlement: Settlement;
  eventResults: EventResults;
  risk: EventRisk;
}

/** Player calls with the session token (each counts as session activity), settlement by traders, the staff look-up. */
export function bettingRoutes(app: TypedApp, betting: BettingUseCases, auth: Auth): void {
  const player = auth.player();

  app.post('/api/v1/bets', { schema: placeBetSchema, onRequest: player }, async (request, reply) => {
    const placed = await betting.placement.placeBet(guarded.session(request), request.body);
    if (placed.replayed) return reply.code(200).header('idempotency-replayed', 'true').send({ bet: placed.bet });
    return reply.code(201).send({ bet: placed.bet, balance: placed.balance });
  });

  app.get('/api/v1/bets', { schema: listBetsSchema, onRequest: player }, async (request) =>
    betting.views.myBets(guarded.session(request), request.query),
  );
  app.get('/api/v1/bets/:id', { schema: getBetSchema, onRequest: player }, async (request) => ({
    bet: await betting.views.playerBet(guarded.session(request), request.params.id),
  }));
  app.get('/api/v1/bets/:id/cashout', { schema: cashOutOfferSchema, onRequest: player }, async (request) => ({
    offer: await betting.cashOut.offer(guarded.session(request), request.params.id, request.query.stake),
  }));
  app.post('/api/v1/bets/:id/cashout', { schema: cashOutSchema, onRequest: player }, async (request) =>
    betting.cashOut.accept(guarded.session(request), request.params.id, request.body),
  );

  const trader = auth.staff('trading');
  const market = '/api/v1/admin/trading/markets/:marketId';
  app.post(`${market}/settle`, { schema: settleSchema, onRequest: trader }, async (request) =>
    betting.settlement.settle(guarded.acting(request), request.params.marketId, request.body),
  );
  app.post(`${market}/resettle`, { schema: resettleSchema, onRequest: trader }, async (request) =>
    betting.settlement.resettle(guarded.acting(request), request.params.marketId, request.body),
  );
  app.post(`${market}/settle/preview`, { schema: settlePreviewSchema, onRequest: trader }, async (request) =>
    betting.settlement.preview('settle', request.params.marketId, request.body),
  );
  app.post(`${market}/resettle/preview`, { schema: resettlePreviewSchema, onRequest: trader }, async (request) =>
    betting.settlement.preview('resettle', request.params.marketId, request.body),
  );
  const event = '/api/v1/admin/trading/events/:eventId';
  app.post(`${event}/result/preview`, { schema: eventResultPreviewSchema, onRequest: trader }, async (request) =>
    betting.eventResults.preview(request.params.eventId, request.body.score),
  );
  app.get(`${event}/risk`, { schema: eventRiskSchema, onRequest: trader }, async (request) =>
    betting.risk.view(request.params.eventId),
  );
  app.post(`${event}/result`, { schema: eventResultSchema, onRequest: trader }, async (request) =>
    betting.eventResults.apply(guarded.acting(request), request.params.eventId, request.body.score),
  );

  app.get('/api/v1/admin/bets', { schema: staffBetsSchema, onRequest: auth.staff('tenant') }, async (request) =>
    betting.views.playerBetsForStaff({ staff: guarded.staff(request) }, request.query),
  );
}
