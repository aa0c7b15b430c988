import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { IntegrationService } from '../integration/service.ts';
import { AppError } from '../platform/errors.ts';
import { contentSecurityPolicy, inlineScriptHashes, pageHeaders } from '../platform/http/headers.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { DOCS_PATH, type DocumentSpec } from '../platform/http/openapi.ts';
import { VERSION } from '../platform/version.ts';
import { APP_ASSETS_DIR, APP_DIR, SDK_FILE } from './builds.ts';
import { assetFolder, PrecompressedFile } from '../platform/http/compressed.ts';
import { embedErrors } from './errors.ts';
import { SportsbookPageQuery } from './schemas.ts';

/** Contract: the SDK is cached an hour and revalidated in the background for a day; compatible fixes ship in place. */
const SDK_CACHE = 'public, max-age=3600, stale-while-revalidate=86400';

/**
 * What the browser side of the product is served from:
 * - `GET /?tenant=…`: the iframe sportsbook (the `launchUrl` casinos frame), with its frame policy;
 * - `GET /assets/*`: the app's hashed scripts and styles;
 * - `GET /embed/v1.js`: the SDK host pages load;
 * - `GET /` without a tenant: what this deployment serves, for a person (HTML) or a script (JSON).
 * The built files (the page, the assets, the SDK) are sent brotli or gzip compressed when the browser accepts it.
 */
export function embedRoutes(app: TypedApp, deps: { documents: DocumentSpec[]; integration: IntegrationService }): void {
  const page = new PrecompressedFile(join(APP_DIR, 'index.html'));
  const sdk = new PrecompressedFile(SDK_FILE);
  const links = {
    apiReference: DOCS_PATH,
    openapi: Object.fromEntries(deps.documents.map((document) => [document.title, document.url])),
    sdk: '/embed/v1.js',
    health: '/healthz',
    readiness: '/readyz',
  };

  app.get('/', { schema: { hide: true, querystring: SportsbookPageQuery } }, async (request, reply) => {
    // Launch URLs carry single-use tokens in their query: never let them leave in a Referer.
    reply.header('referrer-policy', 'no-referrer');
    const tenant = request.query.tenant;
    if (tenant !== undefined) {
      const text = await page.text();
      if (text === null) throw embedErrors.not_built();
      const policy = sportsbookPolicy(await embedOrigins(deps.integration, tenant), inlineScriptHashes(text));
      const html = await page.bodyFor(request, reply);
      if (html === null) throw embedErrors.not_built();
      reply.headers(pageHeaders(policy));
      reply.header('content-type', 'text/html; charset=utf-8');
      return html;
    }
    if (!request.headers.accept?.includes('text/html')) return { name: 'Bookmaker', version: VERSION, links };
    reply.headers(pageHeaders(HOME_POLICY));
    reply.header('content-type', 'text/html; charset=utf-8');
    return homePage(deps.documents);
  });

  app.get('/embed/v1.js', { schema: { hide: true } }, async (request, reply) => {
    const script = await sdk.bodyFor(request, reply);
    if (script === null) throw embedErrors.not_built();
    reply.header('cache-control', SDK_CACHE);
    reply.header('access-control-allow-origin', '*');
    reply.header('cross-origin-resource-policy', 'cross-origin');
    reply.header('x-content-type-options', 'nosniff');
    reply.header('content-type', 'text/javascript; charset=utf-8');
    return script;
  });

  if (existsSync(APP_ASSETS_DIR)) {
    void app.register(fastifyStatic, assetFolder(APP_ASSETS_DIR, '/assets/'));
  } else {
    app.get('/assets/*', { schema: { hide: true } }, async () => {
      throw embedErrors.not_built();
    });
  }
}

/** The origins allowed to frame a tenant's sportsbook; none (only our own) for a tenant that does not exist. */
async function embedOrigins(integration: IntegrationService, tenantId: string): Promise<string[]> {
  try {
    return (await integration.publicConfig(tenantId)).tenant.embedOrigins;
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') return [];
    throw error;
  }
}

/**
 * Contract: `frame-ancestors 'self'` followed by the tenant's embed origins. The rest keeps the page to its own
 * scripts and its own API: no inline script but the page's own (by hash), no third-party origin, no form posting.
 */
function sportsbookPolicy(origins: string[], scriptHashes: string[]): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "object-src 'none'",
    ["frame-ancestors 'self'", ...origins].join(' '),
  ].join('; ');
}

const HOME_STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
a{color:#0b57d0}code{background:#f2f2f2;padding:0 .25rem}`;

/** The home page is links and its one style element, allowed by its hash; nothing else loads, nobody frames it. */
const HOME_POLICY = contentSecurityPolicy({
  'style-src': [`'sha256-${createHash('sha256').update(HOME_STYLE).digest('base64')}'`],
});

function homePage(documents: DocumentSpec[]): string {
  const items = documents.map((document) => `<li><a href="${document.url}">${document.title}</a> (OpenAPI 3.1)</li>`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bookmaker</title>
<style>${HOME_STYLE}</style></head>
<body>
<h1>Bookmaker <small>${VERSION}</small></h1>
<p>The sportsbook casino platforms embed. This server answers the API.</p>
<ul>
<li><a href="${DOCS_PATH}">API reference</a>: every operation, its fields and error codes</li>
${items.join('\n')}
<li><a href="/readyz">Readiness</a></li>
</ul>
</body>
</html>
`;
}
