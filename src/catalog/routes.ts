import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { catalogSchemas, tradingSchemas } from './schemas.ts';
import type { CatalogBrowsing } from './browsing.ts';
import type { FeedControl } from './feed-control.ts';
import type { Trading } from './trading.ts';
import type { TradingViews } from './trading-views.ts';

/**
 * Browsing is anonymous and does not count as session activity. Its answers are the same for every caller, so each
 * may be stored and revalidated (`revalidate`: an ETag, and 304 Not Modified for a screen that polls an unchanged
 * page; platform/http/revalidation.ts).
 */
export function catalogRoutes(app: TypedApp, browsing: CatalogBrowsing): void {
  const base = '/api/v1/catalog';
  const config = { revalidate: true };
  app.get(`${base}/sports`, { schema: catalogSchemas.sports, config }, async () => ({
    sports: await browsing.sports(),
  }));
  app.get(`${base}/live`, { schema: catalogSchemas.live, config }, async (request) => ({
    events: await browsing.live(request.query.sport),
  }));
  app.get(`${base}/sports/:sportId`, { schema: catalogSchemas.sport, config }, async (request) =>
    browsing.sport(request.params.sportId),
  );
  app.get(`${base}/competitions/:competitionId`, { schema: catalogSchemas.competition, config }, async (request) =>
    browsing.competition(request.params.competitionId),
  );
  app.get(`${base}/search`, { schema: catalogSchemas.search, config }, async (request) =>
    browsing.search(request.query.q),
  );
  app.get(`${base}/events/:eventId`, { schema: catalogSchemas.event, config }, async (request) => ({
    event: await browsing.event(request.params.eventId),
  }));
}

/** Trading: traders and platform administrators; their reads of the catalog tree, and their changes. */
export function tradingRoutes(
  app: TypedApp,
  use: { trading: Trading; views: TradingViews; feedControl: FeedControl },
  auth: Auth,
): void {
  const { trading, views, feedControl } = use;
  const onRequest = auth.staff('trading');
  const by = guarded.acting;
  const base = '/api/v1/admin/trading';

  app.get(`${base}/sports`, { schema: tradingSchemas.sports, onRequest }, async () => views.sports());
  app.get(`${base}/competitions`, { schema: tradingSchemas.competitions, onRequest }, async (request) =>
    views.competitions(request.query),
  );
  app.get(`${base}/events`, { schema: tradingSchemas.events, onRequest }, async (request) =>
    views.events(request.query),
  );
  app.get(`${base}/events/:eventId`, { schema: tradingSchemas.event, onRequest }, async (request) => ({
    event: await views.event(request.params.eventId),
  }));

  app.post(`${base}/sports`, { schema: tradingSchemas.createSport, onRequest }, async (request, reply) =>
    reply.code(201).send({ sport: await trading.createSport(by(request), request.body) }),
  );
  app.patch(`${base}/sports/:sportId`, { schema: tradingSchemas.updateSport, onRequest }, async (request) => ({
    sport: await trading.setLiveDelay(by(request), request.params.sportId, request.body.liveDelaySeconds),
  }));
  app.post(`${base}/competitions`, { schema: tradingSchemas.createCompetition, onRequest }, async (request, reply) =>
    reply.code(201).send({ competition: await trading.createCompetition(by(request), request.body) }),
  );
  app.post(`${base}/events`, { schema: tradingSchemas.createEvent, onRequest }, async (request, reply) =>
    reply.code(201).send({ event: await trading.createEvent(by(request), request.body) }),
  );
  app.patch(`${base}/events/:eventId`, { schema: tradingSchemas.updateEvent, onRequest }, async (request) => ({
    event: await trading.updateEvent(by(request), request.params.eventId, request.body),
  }));
  app.post(
    `${base}/events/:eventId/markets`,
    { schema: tradingSchemas.createMarket, onRequest },
    async (request, reply) =>
      reply.code(201).send({ market: await trading.createMarket(by(request), request.params.eventId, request.body) }),
  );
  app.patch(`${base}/markets/:marketId`, { schema: tradingSchemas.marketStatus, onRequest }, async (request) => ({
    market: await trading.setMarketStatus(by(request), request.params.marketId, request.body.status),
  }));
  app.put(
    `${base}/markets/:marketId/control`,
    { schema: tradingSchemas.marketControl, onRequest },
    async (request) => ({
      market: await feedControl.setControl(by(request), request.params.marketId, request.body.control),
    }),
  );
  app.put(`${base}/selections/:selectionId/odds`, { schema: tradingSchemas.odds, onRequest }, async (request) => ({
    selection: await trading.setOdds(by(request), request.params.selectionId, request.body.odds),
  }));
}
