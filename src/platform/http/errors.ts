import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError, errorBody, platformErrors, type ErrorFactory, type Failure } from '../errors.ts';
import { installRequestLogContext } from './logging.ts';
import { MAX_PARAM_LENGTH, refuseUnservableRequests } from './router-failures.ts';
import { PLAIN_TEXT, PLAIN_TEXT_PROBLEM } from './validation.ts';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/**
 * Renders every failure in the one error shape, with the request's id (the X-Request-Id of the answer and the
 * `reqId` of every log line written while serving it, which is why the log context is entered here, first of all
 * hooks); unknown routes get 404, known paths with a wrong method 405, and what the routes cannot serve (see
 * router-failures.ts) is refused before any route's own hooks.
 */
export function installErrorHandling(app: FastifyInstance): void {
  installRequestLogContext(app);
  refuseUnservableRequests(app);
  const knownRoutes = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || knownRoutes.hasRoute(method as HTTPMethod, route.url)) continue;
      knownRoutes.on(method as HTTPMethod, route.url, () => {});
    }
  });

  app.setNotFoundHandler((request) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
      (method) => knownRoutes.find(method, path) !== null,
    );
    // A route that exists for this method sent the request here itself (a static file that is not there).
    if (allowed.length > 0 && !allowed.includes(request.method as (typeof allowed)[number])) {
      throw platformErrors.method_not_allowed({ allowed }, `${request.method} is not allowed on this path.`);
    }
    throw platformErrors.not_found(undefined, 'No such endpoint.');
  });

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send(errorBody(request.id, error));
    }
    if (error.validation) {
      return reply.code(400).send(errorBody(request.id, validationFailure(error.validation, error.validationContext)));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(errorBody(request.id, platformErrors.internal()));
    }
    // Fastify's own refusals (body, media type, JSON) and those of plugins, under the catalogued code of their
    // status; a status the catalogue does not have becomes 400 bad_request.
    const known = FRAMEWORK_ERRORS.get(status) ?? platformErrors.bad_request;
    return reply
      .code(known.status)
      .send(errorBody(request.id, { code: known.code, message: frameworkErrorMessage(error, known) }));
  });
}

function validationFailure(issues: AjvIssue[], context: string | undefined): Failure {
  const issue = issues[0];
  if (!issue) return { code: 'validation', message: 'The request is invalid.' };
  const field = fieldOf(issue);
  const where = context && context !== 'body' ? ` (${context})` : '';
  const message =
    issue.keyword === 'additionalProperties'
      ? `Unknown field "${field}"${where}.`
      : issue.keyword === 'required'
        ? `Field "${field}" is required${where}.`
        : `Field "${field}" ${ruleBroken(issue)}${where}.`;
  return { code: 'validation', message, details: { field, ...(context ? { in: context } : {}) } };
}

/** The rule a value broke, in words a person reads ("needs at least 3 characters"), not the validator's own. */
function ruleBroken(issue: AjvIssue): string {
  const limit = issue.params.limit as number | undefined;
  const plural = (n: number | undefined, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  switch (issue.keyword) {
    case PLAIN_TEXT:
      return PLAIN_TEXT_PROBLEM;
    case 'minLength':
      return `needs at least ${plural(limit, 'character')}`;
    case 'maxLength':
      return `may have at most ${plural(limit, 'character')}`;
    case 'minItems':
      return `needs at least ${plural(limit, 'item')}`;
    case 'maxItems':
      return `may have at most ${plural(limit, 'item')}`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    case 'exclusiveMinimum':
      return `must be more than ${limit}`;
    case 'exclusiveMaximum':
      return `must be less than ${limit}`;
    case 'uniqueItems': {
      const [first, second] = [Number(issue.params.i), Number(issue.params.j)].sort((a, b) => a - b);
      return `must not repeat an item (items ${first} and ${second} are the same)`;
    }
    case 'enum':
      return `must be one of ${(issue.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')}`;
    case 'const':
      return `must be ${JSON.stringify(issue.params.allowedValue)}`;
    case 'type':
      return `must be ${/^[aeiou]/.test(String(issue.params.type)) ? 'an' : 'a'} ${String(issue.params.type)}`;
    case 'pattern':
      return 'is not in the expected form (see the API reference)';
    case 'format':
      return `must be a valid ${String(issue.params.format)}`;
    default:
      return issue.message ?? 'is invalid';
  }
}

/** Dotted path of the offending field: `legs.0.odds`, or the missing / unknown property itself. */
function fieldOf(issue: AjvIssue): string {
  const base = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const own =
    (issue.params.missingProperty as string | undefined) ?? (issue.params.additionalProperty as string | undefined);
  if (own) return base ? `${base}.${own}` : own;
  return base || '(root)';
}

const FRAMEWORK_ERRORS = new Map<number, ErrorFactory>(
  [
    platformErrors.bad_request,
    platformErrors.forbidden,
    platformErrors.not_found,
    platformErrors.request_timeout,
    platformErrors.payload_too_large,
    platformErrors.url_too_long,
    platformErrors.unsupported_media_type,
    platformErrors.rate_limited,
    platformErrors.headers_too_large,
  ].map((error) => [error.status, error]),
);

function frameworkErrorMessage(error: FastifyError, known: ErrorFactory): string {
  if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') return 'The body is empty: send JSON, or no Content-Type.';
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return 'The body is not valid JSON.';
  }
  if (known === platformErrors.bad_request) return error.message;
  return known.message;
}
