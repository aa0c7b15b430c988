/**
 * What `npm run build` wrote, sent in the form a browser asks for. The build writes `x.br` (brotli) and `x.gz`
 * (gzip) beside each text file where they are smaller than what would be sent without them; a request names `x`,
 * its Accept-Encoding picks the form, and the answer says which (`Content-Encoding`) and that the choice depends on
 * that header (`Vary: Accept-Encoding`, so caches keep the forms apart).
 */
import { readFile, stat } from 'node:fs/promises';
import type { FastifyStaticOptions } from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';

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
 * The content codings of the build an Accept-Encoding header accepts, the preferred first: by quality, then br
 * before gzip. `q=0` refuses a coding; `*` stands for every coding the header does not name. None: send the file.
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
