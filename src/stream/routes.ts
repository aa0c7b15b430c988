import { defaultHeaders } from '../platform/http/headers.ts';
import { type Auth, guarded } from '../platform/http/auth.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { followTopicsSchema, openStreamSchema } from './schemas.ts';
import type { StreamService } from './service.ts';
import { splitTopics } from './topics.ts';

/** The stream's headers: never cached, compressed or buffered by a proxy (X-Accel-Buffering for nginx). */
const STREAM_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-store, no-transform',
  'x-accel-buffering': 'no',
};

/** The change stream: open it (anonymous, or with the player's session), and change what it follows. */
export function streamRoutes(app: TypedApp, stream: StreamService, auth: Auth): void {
  const onRequest = auth.playerIfAny();

  app.get('/api/v1/stream', { schema: openStreamSchema, onRequest }, async (request, reply) => {
    const session = guarded.sessionIfAny(request);
    const topics = stream.topics(splitTopics(request.query.topics), session);
    stream.hub.admit(request.ip);
    reply.hijack();
    reply.raw.writeHead(200, { ...defaultHeaders(request.id), ...STREAM_HEADERS });
    request.raw.socket.setNoDelay(true);
    stream.hub.open(reply.raw, {
      address: request.ip,
      session,
      topics,
      lastEventId: request.headers['last-event-id'],
    });
  });

  app.put('/api/v1/stream/:streamId/topics', { schema: followTopicsSchema, onRequest }, async (request) => ({
    streamId: request.params.streamId,
    topics: stream.follow(request.params.streamId, guarded.sessionIfAny(request), request.body.topics),
  }));
}
