import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import {
  competitionFavouriteSchemas,
  eventFavouriteSchemas,
  getSettingsSchema,
  listFavouritesSchema,
  updateSettingsSchema,
} from './schemas.ts';
import type { PlayerPreferences } from './service.ts';

/** The player's favourites and settings, with the session token (each call counts as session activity). */
export function preferencesRoutes(app: TypedApp, preferences: PlayerPreferences, auth: Auth): void {
  const onRequest = auth.player();
  const base = '/api/v1/favourites';

  app.get(base, { schema: listFavouritesSchema, onRequest }, async (request) =>
    preferences.favourites(guarded.session(request)),
  );

  app.put(`${base}/events/:eventId`, { schema: eventFavouriteSchemas.put, onRequest }, async (request, reply) => {
    const { favourite, created } = await preferences.addEvent(guarded.session(request), request.params.eventId);
    return reply.code(created ? 201 : 200).send({ favourite });
  });
  app.delete(`${base}/events/:eventId`, { schema: eventFavouriteSchemas.remove, onRequest }, async (request, reply) => {
    await preferences.remove(guarded.session(request), 'event', request.params.eventId);
    return reply.code(204).send(null);
  });

  const competition = `${base}/competitions/:competitionId`;
  app.put(competition, { schema: competitionFavouriteSchemas.put, onRequest }, async (request, reply) => {
    const { favourite, created } = await preferences.addCompetition(
      guarded.session(request),
      request.params.competitionId,
    );
    return reply.code(created ? 201 : 200).send({ favourite });
  });
  app.delete(competition, { schema: competitionFavouriteSchemas.remove, onRequest }, async (request, reply) => {
    await preferences.remove(guarded.session(request), 'competition', request.params.competitionId);
    return reply.code(204).send(null);
  });

  app.get('/api/v1/settings', { schema: getSettingsSchema, onRequest }, async (request) => ({
    settings: await preferences.settings(guarded.session(request)),
  }));
  app.patch('/api/v1/settings', { schema: updateSettingsSchema, onRequest }, async (request) => ({
    settings: await preferences.updateSettings(guarded.session(request), request.body),
  }));
}
