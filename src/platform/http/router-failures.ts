/**
 * Failures below the routes: a URL the router cannot read, a URL too long, a request during shutdown, a request
 * Node's HTTP parser refuses. Left to Fastify and Node, each would get an answer of its own (`FST_ERR_BAD_URL`, a
 * bare 417 or 400, a 503 in another shape) without the service's headers. Here every one that reaches Fastify is
 * refused by an `onRequest` hook, so the one error handler renders it and the hooks of its area add their headers;
 * what Node refuses before a request exists is written in the same shape with the same default headers.
 */
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError, FastifyBaseLogger, FastifyHttpOptions, FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody, platformErrors, type AppError } from '../errors.ts';
import { defaultHeaders } from './headers.ts';

/** The longest URL (path and query) the service reads; longer ones are refused with 414 `url_too_long`. */
export const MAX_URL_LENGTH = 8 * 1024;

/**
 * No request line Node accepts is longer than its header limit, so no path parameter can be either: with this as
 * the router's parameter limit, the router never answers 414 itself and a long value reaches its schema.
 */
export const MAX_PARAM_LENGTH = maxHeaderSize;

type Unreadable = 'malformed_url' | 'url_too_long';

/** Requests whose URL the router could not read, sent through the routes again to be refused by the hook. */
const unreadable = new WeakMap<IncomingMessage, Unreadable>();

interface Routing {
  routing: (req: IncomingMessage, res: ServerResponse) => void;
  log: FastifyBaseLogger;
}

/**
 * Fastify options that keep router and parser failures in the service's hands. `app` is called only once
 * requests arrive (the instance these options build).
 */
export function routerFailureOptions(app: () => Routing): Partial<FastifyHttpOptions<Server>> {
  const reroute = (failure: Unreadable) => (_path: string, req: IncomingMessage, res: ServerResponse) => {
    const again = unreadable.has(req);
    if (!again) unreadable.set(req, failure);
    (req as IncomingMessage & { originalUrl?: string }).originalUrl ??= req.url;
    // A URL the router reads, on the same path: the request reaches its area's route or 404 handler, whose
    // onRequest hook refuses it. Should even that fail (an absolute URL), the root path is always readable.
    req.url = again ? '/' : (req.url ?? '/').replaceAll('%', '%25');
    app().routing(req, res);
  };
  return {
    routerOptions: {
      maxParamLength: MAX_PARAM_LENGTH,
      onBadUrl: reroute('malformed_url'),
      onMaxParamLength: reroute('url_too_long'),
    },
    // The hook answers a request that arrives while the server closes, in the error shape.
    return503OnClosing: false,
    // Node answers a missing Host with a bare 400 itself; the hook refuses it instead.
    http: { requireHostHeader: false },
    clientErrorHandler: (error, socket) => answerParserFailure(app().log, error, socket),
  };
}

/** Refuses, before any guard or body, what the routes cannot serve. Registered first, on the root instance. */
export function refuseUnservableRequests(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // A callback hook: it runs on every request, and a promise each time would cost the hot paths for nothing.
  app.addHook('onRequest', (request, _reply, done) => {
    done(closing ? platformErrors.shutting_down() : refusalOf(request));
  });
  // Node answers an Expect other than 100-continue with a bare 417; the service ignores it, as HTTP allows.
  app.server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => app.routing(req, res));
  // Node closes a CONNECT without a word; the service is no proxy, and says so.
  app.server.on('connect', (_req: IncomingMessage, socket: Socket) => {
    const refusal = platformErrors.method_not_allowed({ allowed: [] }, 'This server is not a proxy: no CONNECT.');
    writeAndClose(socket, refusal, randomUUID());
  });
}

function refusalOf(request: FastifyRequest): AppError | undefined {
  const failure = unreadable.get(request.raw);
  if (failure === 'url_too_long' || request.originalUrl.length > MAX_URL_LENGTH) {
    return platformErrors.url_too_long({ maxLength: MAX_URL_LENGTH });
  }
  if (failure === 'malformed_url') return malformedUrl('path');
  if (!decodable(queryOf(request.url))) return malformedUrl('querystring');
  if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
    return platformErrors.validation({ field: 'host', in: 'headers' }, 'The Host header is required (HTTP/1.1).');
  }
  return undefined;
}

const malformedUrl = (where: 'path' | 'querystring') =>
  platformErrors.malformed_url(
    { in: where },
    `The URL's ${where === 'path' ? 'path' : 'query string'} has a malformed percent-encoding (%XX).`,
  );

function queryOf(url: string): string {
  const start = url.indexOf('?');
  return start === -1 ? '' : url.slice(start + 1);
}

/** Whether every %XX of the text is a valid escape of UTF-8, as the router requires of the path. */
function decodable(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** What Node's parser refuses (a malformed request, headers over its limit, a request too slow) in the one shape. */
function answerParserFailure(log: FastifyBaseLogger, error: ConnectionError, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  const refusal = parserRefusal(error.code);
  log.info({ reqId: requestId, code: refusal.code, cause: error.code }, 'request refused by the HTTP parser');
  writeAndClose(socket, refusal, requestId, error);
}

function parserRefusal(code: string): AppError {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return platformErrors.request_timeout();
    case 'HPE_HEADER_OVERFLOW':
      return platformErrors.headers_too_large({ maxBytes: maxHeaderSize });
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return platformErrors.payload_too_large(undefined, 'The chunk extensions of the body are too large.');
    default:
      return platformErrors.bad_request(undefined, 'The request is not valid HTTP/1.1.');
  }
}

/** Writes the error as a whole HTTP answer, unless an answer is already under way on the socket, and closes it. */
function writeAndClose(socket: Socket, refusal: AppError, requestId: string, cause?: Error): void {
  // As Node's own default does: the socket's current answer, if it has begun, cannot be followed by another.
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (socket.writable && !current?.headersSent) socket.write(rawAnswer(refusal, requestId));
  socket.destroy(cause);
}

function rawAnswer(refusal: AppError, requestId: string): string {
  const body = JSON.stringify(errorBody(requestId, refusal));
  const headers = {
    ...defaultHeaders(requestId),
    ...refusal.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return [`HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}`, ...lines, '', body].join('\r\n');
}
