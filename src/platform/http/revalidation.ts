/**
 * Answers that may be stored and must be checked again before each use, for the routes that ask for it with
 * `config: { revalidate: true }`: anonymous reads whose answer is the same for every caller.
 *
 * A 200 answer of such a route carries `Cache-Control: no-cache` (in place of the default `no-store`, headers.ts) and
 * a strong ETag: the SHA-256 of its JSON exactly as serialised, before any content coding (compressed.ts), so the
 * brotli, gzip and plain forms of one answer share it (no byte range of these answers is ever served, the one use
 * that would tell the forms apart). A request whose `If-None-Match` names that tag (weak comparison, RFC 9110
 * section 13.1.2; `*` names any) gets `304 Not Modified` with no body, the ETag and the Cache-Control. The answer is
 * still computed and serialised to know its tag: a 304 saves its bytes, their compression and the client's parsing,
 * not the reads behind it. Any other status keeps the defaults: an error is never stored, never a 304.
 */
import { hash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's 200 answers may be stored and revalidated: ETag, If-None-Match, 304 (revalidation.ts). */
    revalidate?: boolean;
  }
}

/**
 * Installs the ETag and the 304 for the routes that ask for them. Installed before the compression of answers
 * (compressed.ts), which then sees a 304's empty body and the JSON of a 200 as it was hashed.
 */
export function installRevalidation(http: FastifyInstance): void {
  http.addHook('onSend', async (request, reply, payload) => {
    if (request.routeOptions.config.revalidate !== true || reply.statusCode !== 200) return payload;
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const etag = `"${hash('sha256', payload, 'base64url')}"`;
    reply.header('etag', etag);
    reply.header('cache-control', 'no-cache');
    if (!namedBy(request.headers['if-none-match'], etag)) return payload;
    // No representation metadata on a 304 besides what a cache updates (RFC 9110 section 15.4.5), no Content-Length
    // (the 200's would be the only right one), no body. Fastify's own last step of a HEAD measures a body it is
    // given (and fails on none): an empty stream it drains instead.
    reply.code(304);
    reply.removeHeader('content-type');
    reply.removeHeader('content-length');
    return request.method === 'HEAD' ? Readable.from([]) : null;
  });
}

/** Whether an If-None-Match header names `etag`: `*`, or a list of tags compared weakly (`W/` ignored). */
function namedBy(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}
