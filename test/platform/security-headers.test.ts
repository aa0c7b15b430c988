import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { rawRequest } from '../helpers/raw-http.ts';

/** The security headers of the pages (the API reference, the home page) and the defaults every answer carries. */

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

const get = (path: string) => fetch(`${t.url}${path}`, { headers: { accept: 'text/html' }, redirect: 'manual' });
const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The policy of everything under /docs; the page adds the hash of its one inline script to script-src. */
const docsPolicy = (scriptHashes: string[] = []) =>
  [
    "default-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    ["script-src 'self'", ...scriptHashes].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "frame-ancestors 'none'",
  ].join('; ');

const PAGE_EXTRAS = { 'x-content-type-options': 'nosniff', 'referrer-policy': 'no-referrer' };

function assertHeaders(response: Response, expected: Record<string, string>, what: string) {
  for (const [name, value] of Object.entries(expected))
    assert.equal(response.headers.get(name), value, `${what}: ${name}`);
}

describe('the API reference (/docs and everything under it)', () => {
  it('GET /docs/ is the page: its policy allows its own script, the one inline script by hash, no framing', async () => {
    const response = await get('/docs/');
    assert.equal(response.status, 200);
    const html = await response.text();
    const inline = [
      ...html.matchAll(/<script>([\s\S]*?)<\/script>|<script type="text\/javascript">([\s\S]*?)<\/script>/g),
    ];
    assert.equal(inline.length, 1, 'Scalar starts the reference from one inline script');
    const script = inline[0]![1] ?? inline[0]![2]!;
    assert.match(script, /Scalar\.createApiReference/);
    assertHeaders(response, { 'content-security-policy': docsPolicy([sha256(script)]), ...PAGE_EXTRAS }, '/docs/');
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
  });

  it('GET /docs redirects to /docs/ with the same headers', async () => {
    const response = await get('/docs');
    assert.equal(response.status, 301);
    assert.equal(response.headers.get('location'), '/docs/');
    assertHeaders(response, { 'content-security-policy': docsPolicy(), ...PAGE_EXTRAS }, '/docs');
  });

  it('the files under /docs (the script, the document) carry the same headers', async () => {
    for (const path of ['/docs/js/scalar.js', '/docs/openapi.json']) {
      const response = await get(path);
      assert.equal(response.status, 200, path);
      assertHeaders(response, { 'content-security-policy': docsPolicy(), ...PAGE_EXTRAS }, path);
      await response.arrayBuffer();
    }
  });

  it('an error of a /docs route keeps them, in the error shape', async () => {
    const response = await rawRequest(t.url, 'GET', '/docs/?q=%zz');
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'malformed_url');
    assertHeaders(
      response as unknown as Response,
      { 'content-security-policy': docsPolicy(), ...PAGE_EXTRAS },
      'error',
    );
  });
});

describe('the home page (GET / for a browser)', () => {
  it('allows its own style element by hash and nothing else, no framing, no sniffing, no Referer', async () => {
    const response = await get('/');
    const html = await response.text();
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)![1]!;
    const policy = `default-src 'none'; base-uri 'none'; form-action 'none'; style-src ${sha256(style)}; frame-ancestors 'none'`;
    assertHeaders(response, { 'content-security-policy': policy, ...PAGE_EXTRAS }, 'home');
  });
});

describe('every other answer', () => {
  it('carries nosniff and a policy that loads nothing and forbids framing, successes and errors alike', async () => {
    // The catalog's reads may be kept if revalidated (docs/api-conventions.md#caching); everything else, never.
    for (const [path, caching] of [
      ['/healthz', 'no-store'],
      ['/api/v1/catalog/sports', 'no-cache'],
      ['/api/v1/nowhere', 'no-store'],
      ['/api/v1/openapi.json', 'no-store'],
    ] as const) {
      const response = await fetch(`${t.url}${path}`);
      assertHeaders(
        response,
        {
          'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
          'x-content-type-options': 'nosniff',
          'cache-control': caching,
        },
        path,
      );
      await response.arrayBuffer();
    }
  });
});
