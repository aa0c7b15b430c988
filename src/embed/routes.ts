import { platformErrors } from '../platform/errors.ts';
import type { TypedApp } from '../platform/http/types.ts';
import { DOCS_PATH, type DocumentSpec } from '../platform/http/openapi.ts';
import { VERSION } from '../platform/version.ts';

/**
 * `GET /`: what this deployment serves, for a person who opens it in a browser (HTML) or a script (JSON).
 * The iframe sportsbook will answer here for `?tenant=`; until it exists this page points to the API.
 */
export function homeRoutes(app: TypedApp, documents: DocumentSpec[]): void {
  const links = {
    apiReference: DOCS_PATH,
    openapi: Object.fromEntries(documents.map((document) => [document.title, document.url])),
    health: '/healthz',
    readiness: '/readyz',
  };
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    // Launch URLs carry single-use tokens in their query: never let them leave in a Referer.
    reply.header('referrer-policy', 'no-referrer');
    if ((request.query as Record<string, unknown>).tenant !== undefined) {
      throw platformErrors.not_found(undefined, 'The sportsbook app is not part of this build yet.');
    }
    if (!request.headers.accept?.includes('text/html')) return { name: 'Bookmaker', version: VERSION, links };
    reply.header('content-type', 'text/html; charset=utf-8');
    return homePage(documents);
  });
}

function homePage(documents: DocumentSpec[]): string {
  const items = documents.map((document) => `<li><a href="${document.url}">${document.title}</a> (OpenAPI 3.1)</li>`);
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bookmaker</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;color:#1b1b1b}
a{color:#0b57d0}code{background:#f2f2f2;padding:0 .25rem}</style></head>
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
