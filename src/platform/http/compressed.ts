/**
 * What goes out in a content coding, brotli or gzip as the request's Accept-Encoding prefers (one rule for both,
 * `acceptedCodings`), always with `Vary: Accept-Encoding` so that caches keep the forms apart:
 *
 * - **What `npm run build` wrote**, compressed once by the build. It writes `x.br` (brotli) and `x.gz` (gzip) beside
 *   each text file where they are smaller than what would be sent without them; a request names `x`, its
 *   Accept-Encoding picks the form, and the answer says which (`Content-Encoding`).
 * - **JSON answers** of COMPRESS_FROM_BYTES or more, compressed as they are sent (`installJsonCompression`); a
 *   revalidated one (revalidation.ts) once per change, its forms kept by ETag. Nothing else: an answer that already
 *   has a content coding (a built file) is never compressed again, and a stream (a file, an event stream) is never
 *   compressed nor held back: it goes out as it is written.
 */
import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync, type BrotliOptions } from 'node:zlib';
import type { FastifyStaticOptions } from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';

/** Hashed file names: a new build is a new URL, so an asset never changes and may be kept a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';
/** The suffix of each content coding's file, in our order of preference when a browser accepts both equally. */
const CODINGS = { br: '.br', gzip: '.gz' } as const;
type Coding = keyof typeof CODINGS;
const COMPRESSED_NAME = /\.(?:br|gz)$/i;

/**
 * A folder of hashed assets, as `@fastify/static` options. Its `preCompressed` sends `x.br`, else `x.gz`, else `x`,
 * as the request's Accept-Encoding allows (quality values honoured), with the Content-Type, Content-Length, ETag
 * and Range of the bytes sent. A compressed file asked for by its own name (`x.js.br`) is not found: it exists only
 * as a form of `x.js`.
 */
export function assetFolder(root: string, prefix: string): FastifyStaticOptions {
  return {
    root,
    prefix,
    index: false,
    cacheControl: false,
    preCompressed: true,
    allowedPath: (pathname) => !COMPRESSED_NAME.test(pathname),
    setHeaders: (response) => {
      response.setHeader('cache-control', ASSET_CACHE);
      response.setHeader('vary', 'Accept-Encoding');
      response.setHeader('x-content-type-options', 'nosniff');
    },
  };
}

/**
 * The content codings an Accept-Encoding header accepts, of those we send, the preferred first: by quality, then br
 * before gzip. `q=0` refuses a coding; `*` stands for every coding the header does not name. None (no header,
 * `identity`, only codings we do not send): send the answer as it is.
 */
function acceptedCodings(header: string | undefined): Coding[] {
  const quality = new Map<string, number>();
  for (const element of (header ?? '').split(',')) {
    const [name = '', ...parameters] = element.split(';').map((part) => part.trim().toLowerCase());
    const q = parameters.map((parameter) => /^q\s*=(.*)$/.exec(parameter)).find((match) => match !== null)?.[1];
    const value = q === undefined ? 1 : Number(q);
    if (name !== '') quality.set(name, Number.isNaN(value) ? 0 : value);
  }
  const of = (coding: Coding) => quality.get(coding) ?? quality.get('*') ?? 0;
  return (Object.keys(CODINGS) as Coding[]).filter((coding) => of(coding) > 0).sort((a, b) => of(b) - of(a));
}

/**
 * A built file served by a route of its own (a page, the SDK), in the form the request accepts. Each form is read
 * once and again when it changes on disk (a rebuild beside a running server is picked up at the next request).
 */
export class PrecompressedFile {
  readonly #path: string;
  readonly #forms = new Map<string, { mtimeMs: number; bytes: Buffer }>();

  constructor(path: string) {
    this.#path = path;
  }

  /**
   * The bytes to answer `request` with, having set their Content-Encoding and Vary on `reply`; null while the file
   * is not built. A route calls it after whatever may still fail, so that no error answer goes out marked as
   * compressed.
   */
  async bodyFor(request: FastifyRequest, reply: FastifyReply): Promise<Buffer | null> {
    const file = await this.#read(this.#path);
    if (!file) return null;
    reply.header('vary', 'Accept-Encoding');
    for (const coding of acceptedCodings(request.headers['accept-encoding'])) {
      const form = await this.#read(this.#path + CODINGS[coding]);
      // A form older than the file was left by an earlier build (the SDK's tests rebuild v1.js alone): never sent.
      if (form && form.mtimeMs >= file.mtimeMs) {
        reply.header('content-encoding', coding);
        return form.bytes;
      }
    }
    return file.bytes;
  }

  /** The file as built (not compressed), as text; null while it is not built. */
  async text(): Promise<string | null> {
    return (await this.#read(this.#path))?.bytes.toString('utf8') ?? null;
  }

  async #read(path: string): Promise<{ mtimeMs: number; bytes: Buffer } | null> {
    const info = await stat(path).catch(() => null);
    if (!info) return null;
    let form = this.#forms.get(path);
    if (form?.mtimeMs !== info.mtimeMs) {
      form = { mtimeMs: info.mtimeMs, bytes: await readFile(path) };
      this.#forms.set(path, form);
    }
    return form;
  }
}

/**
 * Below 1 KiB an answer fits in one TCP segment (a 1,500-byte Ethernet MTU less the IP, TCP and HTTP headers)
 * compressed or not: the client waits no round trip less, and the compression would cost CPU and add its own
 * framing (about 20 bytes for gzip) for nothing. Most small answers (a balance, a bet, a health check) are under it.
 */
const COMPRESS_FROM_BYTES = 1024;
/**
 * Larger answers (the OpenAPI documents, long staff lists) are compressed on libuv's thread pool, so that one of
 * them does not hold every other request back; below it, compressing at once costs less than the hand-over.
 */
const ON_THE_EVENT_LOOP_UP_TO = 64 * 1024;
/** Brotli's quality 4 (of 11): most of what brotli saves over gzip, at gzip's speed; 11 is for files built once. */
const BROTLI_QUALITY = 4;
/**
 * The compressed forms kept of revalidated answers (the catalog's reads, revalidation.ts), by ETag and coding: every
 * screen polling one event page gets the same bytes, compressed once per change instead of once per read (0.1 to
 * 0.3 ms of CPU each for an 8 KB page, as the server runs). 4 MiB holds about 3,000 compressed event pages.
 */
const KEPT_FORMS_BYTES = 4 * 1024 * 1024;
const JSON_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

const brotliLater = promisify(brotliCompress);
const gzipLater = promisify(gzip);

/**
 * Compresses JSON answers of COMPRESS_FROM_BYTES or more as the request's Accept-Encoding prefers, whatever their
 * status (an error's body decodes to the one error shape). Installed after every hook that still needs the JSON as
 * it is (the ETag of a revalidated answer, revalidation.ts).
 */
export function installJsonCompression(http: FastifyInstance): void {
  const kept = new LRUCache<string, Buffer>({ maxSize: KEPT_FORMS_BYTES, sizeCalculation: (form) => form.length });
  http.addHook('onSend', async (request, reply, payload) => {
    // A stream, a file or an event stream, is sent as it comes; so is a body that is already in a content coding.
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    if (reply.hasHeader('content-encoding') || !JSON_TYPE.test(String(reply.getHeader('content-type') ?? ''))) {
      return payload;
    }
    const size = Buffer.byteLength(payload);
    if (size < COMPRESS_FROM_BYTES) return payload;
    varyOnAcceptEncoding(reply);
    const coding = acceptedCodings(request.headers['accept-encoding'])[0];
    if (coding === undefined) return payload;
    reply.header('content-encoding', coding);
    // A revalidated answer's ETag is the hash of its bytes (revalidation.ts): one tag, one JSON, whoever asked.
    const etag = reply.getHeader('etag');
    const revalidated = request.routeOptions.config.revalidate === true && typeof etag === 'string';
    const key = revalidated ? `${coding} ${etag}` : undefined;
    const known = key === undefined ? undefined : kept.get(key);
    if (known) return known;
    const form = await compress(coding, payload, size);
    if (key !== undefined) kept.set(key, form);
    return form;
  });
}

function compress(coding: Coding, payload: string | Buffer, size: number): Buffer | Promise<Buffer> {
  const later = size > ON_THE_EVENT_LOOP_UP_TO;
  if (coding === 'gzip') return later ? gzipLater(payload) : gzipSync(payload);
  const options: BrotliOptions = {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
  return later ? brotliLater(payload, options) : brotliCompressSync(payload, options);
}

/** Adds Accept-Encoding to the answer's Vary, keeping what a route put there (`GET /api/v1/config`: X-Tenant-ID). */
function varyOnAcceptEncoding(reply: FastifyReply): void {
  const vary = reply.getHeader('vary');
  const names = (Array.isArray(vary) ? vary.join(',') : String(vary ?? '')).split(',').map((name) => name.trim());
  if (names.some((name) => name === '*' || name.toLowerCase() === 'accept-encoding')) return;
  reply.header('vary', [...names.filter(Boolean), 'Accept-Encoding'].join(', '));
}
