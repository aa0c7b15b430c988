import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { AppError, errorBody } from '../errors.ts';
import { PLAIN_TEXT, PLAIN_TEXT_PROBLEM } from './validation.ts';

interface AjvIssue {
  keyword: string;
  instancePath: string;
  message?: string;
  params: Record<string, unknown>;
}

/** Renders every failure in the one error shape; unknown routes get 404, known paths with a wrong method 405. */
export function installErrorHandling(app: FastifyInstance): void {
  const knownRoutes = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD' || knownRoutes.hasRoute(method as HTTPMethod, route.url)) continue;
      knownRoutes.on(method as HTTPMethod, route.url, () => {});
    }
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const allowed = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
      (method) => knownRoutes.find(method, path) !== null,
    );
    // A route that exists for this method sent the request here itself (a static file that is not there).
    if (allowed.length > 0 && !allowed.includes(request.method as (typeof allowed)[number])) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send(errorBody('method_not_allowed', `${request.method} is not allowed on this path.`, { allowed }));
    }
    return reply.code(404).send(errorBody('not_found', 'No such endpoint.'));
  });

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers);
      return reply.code(error.status).send(errorBody(error.code, error.message, error.details));
    }
    if (error.validation) {
      return reply.code(400).send(validationBody(error.validation, error.validationContext));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'unhandled error');
      return reply.code(500).send(errorBody('internal', 'Something went wrong on our side; it has been logged.'));
    }
    return reply.code(status).send(errorBody(clientErrorCode(status), clientErrorMessage(error, status)));
  });
}

function validationBody(issues: AjvIssue[], context: string | undefined) {
  const issue = issues[0];
  if (!issue) return errorBody('validation', 'The request is invalid.');
  const field = fieldOf(issue);
  const where = context && context !== 'body' ? ` (${context})` : '';
  const message =
    issue.keyword === 'additionalProperties'
      ? `Unknown field "${field}"${where}.`
      : issue.keyword === 'required'
        ? `Field "${field}" is required${where}.`
        : `Field "${field}" ${issue.keyword === PLAIN_TEXT ? PLAIN_TEXT_PROBLEM : (issue.message ?? 'is invalid')}${where}.`;
  return errorBody('validation', message, { field, ...(context ? { in: context } : {}) });
}

/** Dotted path of the offending field: `legs.0.odds`, or the missing / unknown property itself. */
function fieldOf(issue: AjvIssue): string {
  const base = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const own =
    (issue.params.missingProperty as string | undefined) ?? (issue.params.additionalProperty as string | undefined);
  if (own) return base ? `${base}.${own}` : own;
  return base || '(root)';
}

function clientErrorCode(status: number): string {
  switch (status) {
    case 413:
      return 'payload_too_large';
    case 415:
      return 'unsupported_media_type';
    case 429:
      return 'rate_limited';
    default:
      return 'bad_request';
  }
}

function clientErrorMessage(error: FastifyError, status: number): string {
  if (status === 413) return 'The request body is too large.';
  if (status === 415) return 'Send the body as application/json.';
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return 'The body is not valid JSON.';
  }
  return error.message;
}
