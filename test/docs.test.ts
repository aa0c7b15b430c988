import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DOCUMENTS } from '../src/api-documents.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

/** The project's documentation stands alone: every relative link points at a file (and heading) of this repository. */
const ROOT = join(import.meta.dirname, '..');
const PAGES = [
  'README.md',
  'ARCHITECTURE.md',
  ...['reference-wallet', 'sdk', 'web', 'demo'].map((folder) => `${folder}/README.md`),
  ...docs(),
];

/** Every page under docs/: a new page is checked without being listed. */
function docs(): string[] {
  return readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens; plus explicit <a id> anchors. */
function anchors(markdown: string): Set<string> {
  const headings = [...markdown.matchAll(/^#+ (.+)$/gm)].map((match) =>
    match[1]!
      .toLowerCase()
      .replace(/[^\p{L}\p{N} -]/gu, '')
      .replace(/ /g, '-'),
  );
  const explicit = [...markdown.matchAll(/<a id="([^"]+)">/g)].map((match) => match[1]!);
  return new Set([...headings, ...explicit]);
}

describe('documentation', () => {
  it('every page exists and every relative link in it resolves, anchors included', () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      const file = join(ROOT, page);
      assert.ok(existsSync(file), `${page} is missing`);
      const text = readFileSync(file, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const resolved = path === '' ? file : join(dirname(file), path);
        if (!resolved.startsWith(ROOT) || !existsSync(resolved)) {
          broken.push(`${page}: ${target} (${relative(ROOT, resolved)} does not exist)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
          broken.push(`${page}: ${target} (no such heading)`);
        }
      }
    }
    assert.deepEqual(broken, []);
  });
});

/**
 * Routes this service serves but leaves out of both OpenAPI documents (`schema: { hide: true }`, or Scalar's own
 * routes): pages, files and the documents themselves. Each is checked to be served, so the list cannot rot.
 */
const HIDDEN_ROUTES: Record<string, string> = {
  'GET /': 'the home page and the iframe app (src/embed/routes.ts): a page, not an API operation',
  'GET /docs': "the API reference page, Scalar's route",
  'GET /admin': 'the staff console page (src/console/routes.ts)',
  'GET /embed/v1.js': 'the embedding SDK script (src/embed/routes.ts)',
  'GET /api/v1/openapi.json': 'a document does not list itself (src/platform/http/openapi.ts)',
  'GET /api/v1/aggregator/openapi.json': 'a document does not list itself (src/platform/http/openapi.ts)',
  'POST /api/v1/auth/register':
    'answers 403 operator_managed: the casino keeps the accounts (src/integration/routes.ts)',
  'POST /api/v1/wallet/deposit': 'answers 403 operator_managed: the casino keeps the money (src/integration/routes.ts)',
};

/** Paths of other services that the docs name with a method: the casino's wallet, the reference wallet's controls. */
const OTHER_SERVICES: Record<string, string> = {
  'POST /credit': "the casino wallet's endpoint (wallet contract), called by this service",
  'POST /rollback': "the casino wallet's endpoint (wallet contract), called by this service",
  'POST /_control/faults': "the reference wallet's test controls (reference-wallet/README.md)",
};

/** The pages whose `METHOD /path` mentions a partner calls: the README and every page under docs/. */
const PATH_PAGES = ['README.md', ...docs()];

interface DocumentedPath {
  where: string;
  /** `METHOD /path` as the page means it: `…` resolved, query string dropped. */
  endpoint: string;
}

/**
 * Every backticked `METHOD /path` of a page. `…/rest` continues the nearest earlier path written in full in the same
 * section (a heading starts a new one): `GET /api/v1/admin/aggregators`, then `GET …/{id}`, is
 * `GET /api/v1/admin/aggregators/{id}`.
 */
function documentedPaths(page: string): DocumentedPath[] {
  const found: DocumentedPath[] = [];
  let fullPath: string | undefined;
  let inCode = false;
  readFileSync(join(ROOT, page), 'utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.startsWith('```')) inCode = !inCode;
      if (!inCode && /^#+ /.test(line)) fullPath = undefined;
      for (const [, method, written] of line.matchAll(/`(GET|POST|PUT|PATCH|DELETE) ([/…][^`\s]*)`/g)) {
        // An optional query string is written `[?sport=]`, a required one `?tenant=`.
        const path = written!.split(/\[?\?/)[0]!;
        let resolved: string;
        if (!path.startsWith('…')) resolved = fullPath = path;
        else if (fullPath !== undefined) resolved = fullPath + path.slice(1);
        else resolved = `${path} (no full path before it in its section)`;
        found.push({ where: `${page}:${index + 1}`, endpoint: `${method} ${resolved}` });
      }
    });
  return found;
}

/** `GET /api/v1/bets/{id}` from the documents, as a pattern any `{param}` or value of that segment matches. */
function operationPattern(method: string, template: string): RegExp {
  const escaped = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}/]+\}/g, '[^/]+');
  return new RegExp(`^${method.toUpperCase()} ${escaped}$`);
}

describe('documented paths', () => {
  let t: TestApp;
  let operations: RegExp[];
  before(async () => {
    t = await startTestApp();
    operations = [];
    for (const document of DOCUMENTS) {
      const { servers, paths } = (await t.request('GET', document.url)).body;
      const base = servers[0].url === '/' ? '' : servers[0].url;
      for (const [path, item] of Object.entries(paths as Record<string, object>)) {
        for (const method of Object.keys(item)) operations.push(operationPattern(method, base + path));
      }
    }
  });
  after(() => t.close());

  it('every METHOD /path in the README and docs/ is an operation of an OpenAPI document, or listed with a reason', () => {
    const unknown = PATH_PAGES.flatMap(documentedPaths)
      .filter(({ endpoint }) => !(endpoint in HIDDEN_ROUTES) && !(endpoint in OTHER_SERVICES))
      .filter(({ endpoint }) => !operations.some((operation) => operation.test(endpoint)))
      .map(({ where, endpoint }) => `${where}: ${endpoint}`);
    assert.deepEqual(unknown, []);
  });

  it('every route listed as hidden from the documents is served', () => {
    const missing = Object.keys(HIDDEN_ROUTES).filter((endpoint) => {
      const [method, url] = endpoint.split(' ') as [string, string];
      return !t.app.http.hasRoute({ method, url });
    });
    assert.deepEqual(missing, []);
  });
});
