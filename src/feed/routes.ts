import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import type { Ingestion } from './ingestion.ts';
import type { Producers } from './producers.ts';
import {
  feedMessagesSchema,
  issueProducerKeySchema,
  listProducersSchema,
  pricedEventsSchema,
  registerProducerSchema,
} from './schemas.ts';

/** A batch of 500 messages with their prices is far above the API's 64 KiB bodies. */
const FEED_BODY_LIMIT = 1024 * 1024;

/** Producers push their messages with their key; platform administrators register and watch producers. */
export function feedRoutes(app: TypedApp, use: { producers: Producers; ingestion: Ingestion }, auth: Auth): void {
  app.post(
    '/api/v1/feed/messages',
    { schema: feedMessagesSchema, onRequest: auth.feed(), bodyLimit: FEED_BODY_LIMIT },
    async (request) => use.ingestion.push(guarded.producer(request), request.body),
  );
  app.get('/api/v1/feed/events', { schema: pricedEventsSchema, onRequest: auth.feed() }, async (request) =>
    use.producers.pricedEvents(guarded.producer(request).producerId),
  );
  const platform = auth.staff('platform');
  app.post(
    '/api/v1/admin/feed/producers',
    { schema: registerProducerSchema, onRequest: platform },
    async (request, reply) => reply.code(201).send(await use.producers.register(guarded.acting(request), request.body)),
  );
  app.post(
    '/api/v1/admin/feed/producers/:producerId/key',
    { schema: issueProducerKeySchema, onRequest: platform },
    async (request) => use.producers.issueKey(guarded.acting(request), request.params.producerId),
  );
  // traders watch the feed they trade beside; only the platform registers producers
  const trading = auth.staff('trading');
  app.get('/api/v1/admin/feed/producers', { schema: listProducersSchema, onRequest: trading }, async () => ({
    producers: await use.producers.list(),
  }));
}
