import type { FastifyServerOptions } from 'fastify';
import pino, { type DestinationStream } from 'pino';

/** Query parameters that may carry credentials (the deprecated ?token= launch among them). */
const SECRET_QUERY_PARAMS = /([?&](?:token|launch|launchToken|key|apiKey|secret)=)[^&#]*/gi;

function redactUrl(url: string): string {
  return url.replace(SECRET_QUERY_PARAMS, '$1[REDACTED]');
}

/** Anything named like a credential is redacted wherever it appears in a log object. */
const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  ...[
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
    'cpf',
  ].flatMap((name) => [name, `*.${name}`, `*.*.${name}`]),
];

export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
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
 * Where the log lines go: a file descriptor (1, standard output) or a path. Synchronous, as pino's default: a line
 * is written when it is logged, so the last lines before a crash are never lost.
 */
export function logDestination(to: number | string): DestinationStream {
  return pino.destination({ dest: to, sync: true });
}
