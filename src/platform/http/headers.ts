/**
 * The headers every answer carries, and the security headers of the pages people open in a browser.
 *
 * Every answer (API, errors, files, pages): `X-Request-Id`, `Cache-Control: no-store` unless the route sets its own
 * caching (the catalog's reads: `no-cache` with an ETag, revalidation.ts; an error never), `X-Content-Type-Options:
 * nosniff`, and a Content-Security-Policy that allows nothing and no framing unless the route sets its own. A page sets its own policy (what it loads, who may frame it) with `pageHeaders`.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/** For answers that are not pages: nothing may load from them, nobody may frame them. */
const NO_CONTENT_POLICY = "default-src 'none'; frame-ancestors 'none'";

/** The defaults of every answer; the parser-level answers written before Fastify has a request use them too. */
export function defaultHeaders(requestId: string): Record<string, string> {
  return {
    'x-request-id': requestId,
    // API answers carry credentials or personal data: never cached unless a route says otherwise.
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'content-security-policy': NO_CONTENT_POLICY,
  };
}

/** Fills in each default a route, a plugin or the error handler did not set itself. */
export function installResponseDefaults(http: FastifyInstance): void {
  http.addHook('onSend', async (request, reply) => {
    for (const [name, value] of Object.entries(defaultHeaders(request.id))) {
      if (name === 'x-request-id' || !reply.hasHeader(name)) reply.header(name, value);
    }
  });
}

/**
 * A Content-Security-Policy from its directives. Pages start from `default-src 'none'` and name what they load;
 * `frame-ancestors` is always given (`'none'` unless a page is meant to be framed).
 */
export function contentSecurityPolicy(directives: Record<string, string[]>): string {
  const all: Record<string, string[]> = {
    'default-src': ["'none'"],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    ...directives,
  };
  all['frame-ancestors'] ??= ["'none'"];
  return Object.entries(all)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The security headers of a page: its policy, no sniffing, no Referer (page URLs may carry tokens). */
export function pageHeaders(policy: string): Record<string, string> {
  return {
    'content-security-policy': policy,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

/** The CSP source of each inline script element of an HTML page (those without a src): `'sha256-…'`. */
export function inlineScriptHashes(page: string): string[] {
  return [...page.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (match) => `'sha256-${createHash('sha256').update(match[1]!, 'utf8').digest('base64')}'`,
  );
}
