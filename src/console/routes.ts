import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { defineErrors } from '../platform/errors.ts';
import { assetFolder, PrecompressedFile } from '../platform/http/compressed.ts';
import { contentSecurityPolicy, pageHeaders } from '../platform/http/headers.ts';
import type { TypedApp } from '../platform/http/types.ts';

/** Where `npm run build` writes the staff console; not committed. */
export const CONSOLE_DIR = join(import.meta.dirname, '..', '..', 'console', 'dist');
const CONSOLE_ASSETS_DIR = join(CONSOLE_DIR, 'assets');

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
 * data; everything it shows comes from the admin API with the staff member's token. Both are sent brotli or gzip
 * compressed when the browser accepts it, as the iframe app's.
 */
export function consoleRoutes(app: TypedApp): void {
  const page = new PrecompressedFile(join(CONSOLE_DIR, 'index.html'));
  const servePage = async (request: FastifyRequest, reply: FastifyReply) => {
    const html = await page.bodyFor(request, reply);
    if (html === null) throw consoleErrors.console_not_built();
    reply.headers(pageHeaders(CONSOLE_POLICY));
    reply.header('x-frame-options', 'DENY');
    reply.header('content-type', 'text/html; charset=utf-8');
    return html;
  };
  app.get('/admin', { schema: { hide: true } }, servePage);
  app.get('/admin/*', { schema: { hide: true } }, servePage);

  if (existsSync(CONSOLE_ASSETS_DIR)) {
    void app.register(fastifyStatic, { ...assetFolder(CONSOLE_ASSETS_DIR, '/admin/assets/'), decorateReply: false });
  } else {
    app.get('/admin/assets/*', { schema: { hide: true } }, async () => {
      throw consoleErrors.console_not_built();
    });
  }
}
