import type { FastifyRequest } from 'fastify';
import type { Auth } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { catalogSchemas, tradingSchemas } from './schemas.ts';
import type { CatalogActor, CatalogService } from './service.ts';

/** Browsing is anonymous and does not count as session activity. */
export function catalogRoutes(app: TypedApp, catalog: CatalogService): void {
  const base = '/api/v1/catalog';
  app.get(`${base}/sports`, { schema: catalogSchemas.sports }, async () => ({ sports: await catalog.sports() }));
  app.get(`${base}/live`, { schema: catalogSchemas.live }, async (request) => ({
    events: await catalog.live(request.query.sport),
  }));
  app.get(`${base}/sports/:sportId`, { schema: catalogSchemas.sport }, async (request) =>
    catalog.sport(request.params.sportId),
  );
  app.get(`${base}/competitions/:competitionId`, { schema: catalogSchemas.competition }, async (request) =>
    catalog.competition(request.params.competitionId),
  );
  app.get(`${base}/events/:eventId`, { schema: catalogSchemas.event }, async (request) => ({
    event: await catalog.event(request.params.eventId),
  }));
}

/** Trading: traders and platform administrators. */
export function tradingRoutes(app: TypedApp, catalog: CatalogService, auth: Auth): void {
  const onRequest = auth.staff('trading');
  const by = (request: FastifyRequest): CatalogActor => ({
    actor: { type: 'staff', id: request.staff!.id },
    ip: request.ip,
  });
  const base = '/api/v1/admin/trading';

  app.post(`${base}/sports`, { schema: tradingSchemas.createSport, onRequest }, async (request, reply) =>
    reply.code(201).send({ sport: await catalog.createSport(by(request), request.body) }),
  );
  app.post(`${base}/competitions`, { schema: tradingSchemas.createCompetition, onRequest }, async (request, reply) =>
    reply.code(201).send({ competition: await catalog.createCompetition(by(request), request.body) }),
  );
  app.post(`${base}/events`, { schema: tradingSchemas.createEvent, onRequest }, async (request, reply) =>
    reply.code(201).send({ event: await catalog.createEvent(by(request), request.body) }),
  );
  app.patch(`${base}/events/:eventId`, { schema: tradingSchemas.updateEvent, onRequest }, async (request) => ({
    event: await catalog.updateEvent(by(request), request.params.eventId, request.body),
  }));
  app.post(
    `${base}/events/:eventId/markets`,
    { schema: tradingSchemas.createMarket, onRequest },
    async (request, reply) =>
      reply.code(201).send({ market: await catalog.createMarket(by(request), request.params.eventId, request.body) }),
  );
  app.patch(`${base}/markets/:marketId`, { schema: tradingSchemas.marketStatus, onRequest }, async (request) => ({
    market: await catalog.setMarketStatus(by(request), request.params.marketId, request.body.status),
  }));
  app.put(`${base}/selections/:selectionId/odds`, { schema: tradingSchemas.odds, onRequest }, async (request) => ({
    selection: await catalog.setOdds(by(request), request.params.selectionId, request.body.odds),
  }));
}
