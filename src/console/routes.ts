import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply } from 'fastify';
import { defineErrors } from '../platform/errors.ts';
import { BuiltFile } from '../platform/http/built-file.ts';
import { contentSecurityPolicy, pageHeaders } from '../platform/http/headers.ts';
import type { TypedApp } from '../platform/http/types.ts';

/** Where `npm run build` writes the staff console; not committed. */
const CONSOLE_DIR = join(import.meta.dirname, '..', '..', 'console', 'dist');
const CONSOLE_ASSETS_DIR = join(CONSOLE_DIR, 'assets');
/** Hashed file names: a new build is a new URL, so an asset never changes and may be kept a year. */
const ASSET_CACHE = 'public, max-age=31536000, immutable';

const consoleErrors = defineErrors({
  console_not_built: {
    status: 503,
    message: 'This deployment has no build of the staff console. Build it with `npm run build` (npm start does).',
  },
});

/**
 * The console loads its own scripts and styles and calls its own API, nothing else: no inline script or style,
 * no third-party origin, no framing (a staff page in a frame could be clickjacked), no form posting anywhere.
 */
const CONSOLE_POLICY = contentSecurityPolicy({
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'frame-ancestors': ["'none'"],
});

/**
 * The staff console: `GET /admin` and every path under it answer its page (the console routes in the browser, so
 * a shared link opens the same screen), `GET /admin/assets/*` its hashed scripts and styles. The page holds no
 * data; everything it shows comes from the admin API with the staff member's token.
 */
export function consoleRoutes(app: TypedApp): void {
  const page = new BuiltFile(join(CONSOLE_DIR, 'index.html'));
  const servePage = async (_request: unknown, reply: FastifyReply) => {
    const html = await page.text();
    if (html === null) throw consoleErrors.console_not_built();
    reply.headers(pageHeaders(CONSOLE_POLICY));
    reply.header('x-frame-options', 'DENY');
    reply.header('content-type', 'text/html; charset=utf-8');
    return html;
  };
  app.get('/admin', { schema: { hide: true } }, servePage);
  app.get('/admin/*', { schema: { hide: true } }, servePage);

  if (existsSync(CONSOLE_ASSETS_DIR)) {
    void app.register(fastifyStatic, {
      root: CONSOLE_ASSETS_DIR,
      prefix: '/admin/assets/',
      index: false,
      cacheControl: false,
      decorateReply: false,
      setHeaders: (response) => {
        response.setHeader('cache-control', ASSET_CACHE);
        response.setHeader('x-content-type-options', 'nosniff');
      },
    });
  } else {
    app.get('/admin/assets/*', { schema: { hide: true } }, async () => {
      throw consoleErrors.console_not_built();
    });
  }
}
