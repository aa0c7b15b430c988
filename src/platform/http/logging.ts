import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { prettyFactory } from 'pino-pretty';
import type { LogFormat } from '../config.ts';

/** What a credential, or anything that may be one, is replaced with in a log line. */
const CENSOR = '[REDACTED]';

/**
 * The query parameters whose values a request's log line shows: the names the routes' querystring schemas declare
 * (and the iframe page's, `embed/schemas.ts`), except those that carry a credential (`launch`, `token`: the launch
 * and the deprecated `?token=` of the iframe page) and free text a person types (`q`: a search, part of an e-mail).
 * Every other parameter, whatever its name, is logged with its value replaced; test/platform/log-redaction.test.ts
 * holds this list to the routes' schemas.
 */
export const LOGGED_QUERY_PARAMS: ReadonlySet<string> = new Set([
  // lists: filters and paging
  'action',
  'actorId',
  'actorType',
  'aggregatorId',
  'bet',
  'betId',
  'competitionId',
  'cursor',
  'externalId',
  'externalPlayerId',
  'format',
  'from',
  'limit',
  'order',
  'player',
  'role',
  'sort',
  'sport',
  'sportId',
  'stake',
  'startsFrom',
  'startsTo',
  'state',
  'status',
  'targetId',
  'targetType',
  'tenant',
  'tenantId',
  'to',
  // the change stream's topics (catalog ids, and the names bets and offers)
  'topics',
  // the iframe page's presentation
  'header',
  'height',
  'locale',
  'oddsFormat',
  'origin',
  'path',
  'theme.accent',
  'theme.background',
  'theme.fontFamily',
  'theme.mode',
  'theme.primary',
  'theme.radius',
]);

/** The service's credentials all begin `bm_<kind>_` (platform/crypto.ts, the staff enrolment token): never shown. */
const CREDENTIAL_PREFIX = /bm_[a-z]+_/i;
/** A parameter's name is shown as sent when it reads as one; anything else (a token sent as a name) is replaced. */
const PARAMETER_NAME = /^[A-Za-z0-9_.-]{1,32}$/;
/** Whether the path needs a closer look: it may hold a credential, plainly or percent-encoded. */
const MAY_HOLD_CREDENTIAL = /bm_|%/i;

/**
 * A request's URL as its log line shows it: the path as sent (a segment holding a credential replaced), and each
 * query parameter with its value only when its name is on LOGGED_QUERY_PARAMS and the value holds no credential;
 * every other value, and a name that does not read as one, is `[REDACTED]`. A credential cannot reach the log
 * through the URL whatever parameter it is sent as.
 */
export function loggedUrl(url: string): string {
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  const shownPath = MAY_HOLD_CREDENTIAL.test(path)
    ? path
        .split('/')
        .map((segment) => (holdsCredential(segment) ? CENSOR : segment))
        .join('/')
    : path;
  if (mark === -1) return shownPath;
  return `${shownPath}?${url
    .slice(mark + 1)
    .split('&')
    .map(loggedParameter)
    .join('&')}`;
}

function loggedParameter(parameter: string): string {
  if (parameter === '') return parameter;
  const equals = parameter.indexOf('=');
  const sentName = equals === -1 ? parameter : parameter.slice(0, equals);
  const name = decoded(sentName);
  const allowed = name !== null && LOGGED_QUERY_PARAMS.has(name);
  const readable = allowed || (name !== null && PARAMETER_NAME.test(name) && !CREDENTIAL_PREFIX.test(name));
  const shownName = readable ? sentName : CENSOR;
  if (equals === -1) return shownName;
  const value = parameter.slice(equals + 1);
  return `${shownName}=${allowed && !holdsCredential(value) ? value : CENSOR}`;
}

/** Whether the text holds a credential's prefix, as sent or once percent-decoded (at most thrice, `%255F`). */
function holdsCredential(text: string): boolean {
  let current = text;
  for (let round = 0; round < 4; round += 1) {
    if (CREDENTIAL_PREFIX.test(current)) return true;
    if (!current.includes('%')) return false;
    const next = decoded(current);
    // Text that cannot be decoded cannot be read safely either.
    if (next === null) return true;
    if (next === current) return false;
    current = next;
  }
  return true;
}

/** The percent-decoded text (`+` is a space in a query), or null when it is not valid percent-encoding. */
function decoded(text: string): string | null {
  if (!text.includes('%') && !text.includes('+')) return text;
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return null;
  }
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
        url: loggedUrl(req.url),
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
