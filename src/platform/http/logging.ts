import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat } from '../config.ts';

/** Query parameters that may carry credentials (the deprecated ?token= launch among them). */
const SECRET_QUERY_PARAMS = /([?&](?:token|launch|launchToken|key|apiKey|secret)=)[^&#]*/gi;

function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[REDACTED]');
}

/**
 * Anything named like a credential is redacted wherever it appears in a log line, at any depth: a request's
 * headers, a body, an error's properties.
 */
const SECRET_NAMES = [
  'password',
  'token',
  'totp',
  'totpSecret',
  'otpauthUrl',
  'secret',
  'walletSecret',
  'apiKey',
  'key',
  'integrationApiKey',
  'launchToken',
  'authorization',
  'x-api-key',
  'cookie',
  'set-cookie',
  'cpf',
];
const SECRET_NAME = new Set(SECRET_NAMES);
const CENSOR = '[REDACTED]';
/** A line that names such a property somewhere (a key is written `"name":` in JSON). */
const NAMES_A_SECRET = new RegExp(`"(?:${SECRET_NAMES.join('|')})":`);

/**
 * The line as written, or, when it names a credential, the line with every such value replaced. Done on the line
 * pino wrote, after its serializers: one test of a regular expression per line, where pino's own wildcard paths
 * walked every object of every line (83 of the 91 µs a request's two lines cost; docs/benchmarks.md).
 */
function redactLine(line: string): string {
  if (!NAMES_A_SECRET.test(line)) return line;
  return `${JSON.stringify(redacted(JSON.parse(line)))}\n`;
}

function redacted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redacted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, child]) => [key, SECRET_NAME.has(key) ? CENSOR : redacted(child)]),
  );
}

/** The field every log line written while serving a request carries: the request's id, its X-Request-Id. */
const REQUEST_ID_LOG_KEY = 'reqId';

/** The id of the request being served, for lines logged through the root logger (services, the ledger). */
const servedRequest = new AsyncLocalStorage<string>();
const REQUEST_ID_BINDING = `"${REQUEST_ID_LOG_KEY}":`;

/**
 * Adds the served request's id to a line logged outside its request logger (a service logs through the root
 * logger). Fastify's request logger has it among its bindings already: it is not written twice.
 */
function requestIdOfServedRequest(_line: object, _level: number, logger: Logger): Record<string, string> {
  const id = servedRequest.getStore();
  if (id === undefined) return {};
  const bindings = (logger as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym] ?? '';
  return bindings.includes(REQUEST_ID_BINDING) ? {} : { [REQUEST_ID_LOG_KEY]: id };
}

function baseOptions(level: string): LoggerOptions {
  return {
    level,
    hooks: { streamWrite: redactLine },
    mixin: requestIdOfServedRequest,
  };
}

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    ...baseOptions(level),
    ...(stream ? { stream } : {}),
    serializers: {
      // Headers are left out on purpose: they carry the credentials of every surface.
      req: (req: { method: string; url: string; ip?: string; id?: string }) => ({
        method: req.method,
        url: redactUrl(req.url),
        remoteAddress: req.ip,
      }),
    },
  };
}

/**
 * Makes the request's id known to every line logged while it is served, from its arrival on (Fastify keeps the
 * context across the reading of the body).
 */
export function installRequestLogContext(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => servedRequest.run(request.id, done));
}

/** A logger beside the app's, on the same stream: the start-up and shutdown narration of `serve`. */
export function createLogger(level: string, stream: DestinationStream): Logger {
  return pino(baseOptions(level), stream);
}

/** The format asked for, else readable on a terminal and JSON anywhere else (a pipe, a file, a journal). */
export function chooseLogFormat(asked: LogFormat | undefined, terminal: boolean): LogFormat {
  return asked ?? (terminal ? 'pretty' : 'json');
}

/**
 * Where the log lines go: a file descriptor (1, standard output) or a path. Synchronous, as pino's default: a line
 * is written when it is logged, so the last lines before a crash (or an exit) are never lost. In the `pretty`
 * format each line is rewritten in place before it is written, synchronously too: no worker, no buffer.
 */
export function logDestination(to: number | string, format: LogFormat = 'json'): DestinationStream {
  const destination = pino.destination({ dest: to, sync: true });
  if (format === 'json') return destination;
  const pretty = prettyFactory({ translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname', singleLine: true });
  return { write: (line: string) => destination.write(pretty(line)) };
}
