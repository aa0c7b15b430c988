import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import Fastify from 'fastify';
import type { DestinationStream } from 'pino';
import type { Config } from './platform/config.ts';
import { installJsonCompression } from './platform/http/compressed.ts';
import { installErrorHandling } from './platform/http/errors.ts';
import { installResponseDefaults } from './platform/http/headers.ts';
import { loggerOptions } from './platform/http/logging.ts';
import { installRevalidation } from './platform/http/revalidation.ts';
import { routerFailureOptions } from './platform/http/router-failures.ts';
import type { TypedApp } from './platform/http/types.ts';
import { serializerOnFirstUse, validatorCompiler } from './platform/http/validation.ts';

const BODY_LIMIT_BYTES = 64 * 1024;
/** A request (headers and body) must arrive within 30 s: a client trickling its body cannot hold a connection. */
const REQUEST_TIMEOUT_MS = 30_000;
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The Fastify instance with the plumbing every answer goes through: logging, limits, request ids, the proxies
 * trusted, validation, the error handler, the default headers, revalidation (ETag and 304, for the routes that ask)
 * and the compression of JSON answers.
 */
export function createHttp(
  config: Config,
  logStream: DestinationStream | undefined,
  schemas: { onFirstUse: boolean },
): TypedApp {
  const http = Fastify({
    logger: loggerOptions(config.logLevel, logStream),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: proxyTrust(config.trustProxy),
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Bad URLs, shutdown and parser refusals answered in the error shape with the default headers.
    ...routerFailureOptions(() => http),
  }).withTypeProvider() as unknown as TypedApp;
  http.setValidatorCompiler(validatorCompiler(schemas));
  if (schemas.onFirstUse) http.setSerializerCompiler(serializerOnFirstUse());
  // Bodies are JSON only: Fastify's own text/plain parser would hand a string to the schema (400 validation)
  // where the answer is 415 unsupported_media_type.
  http.removeContentTypeParser('text/plain');
  installErrorHandling(http);
  installResponseDefaults(http);
  // In this order: a revalidated answer's ETag is the hash of its JSON as serialised, and a 304 has no body left to
  // compress.
  installRevalidation(http);
  installJsonCompression(http);
  closeUnusedConnectionsOnClose(http);
  return http;
}

/**
 * Node's close waits for a connection that never sent a request (a browser's spare, opened ahead) until its headers
 * timeout, 60 s: a shutdown would hang that long with nothing to drain. Such connections carry nothing and are
 * closed at once, and so is one accepted once the close has begun; those with a request in flight are drained as
 * before. (A PostgreSQL test file waited 70 s for a spare its HTTP client opened as the app closed.)
 */
function closeUnusedConnectionsOnClose(http: TypedApp): void {
  const open = new Set<Socket>();
  let closing = false;
  http.server.on('connection', (socket: Socket) => {
    // one the kernel accepted as the close began (a client's spare, opened ahead) would wait out the same timeout
    if (closing) return socket.destroy();
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  http.addHook('preClose', async () => {
    closing = true;
    // a connection that has sent anything (even half a request) is drained: it gets its answer, 503 if need be
    setImmediate(() => open.forEach((socket) => socket.bytesRead === 0 && socket.destroy()));
  });
}

/** TRUST_PROXY as Fastify wants it: a number of hops becomes "the nearest N hops". */
function proxyTrust(setting: Config['trustProxy']): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof setting === 'number' ? (_address, hop) => hop < setting : setting;
}
