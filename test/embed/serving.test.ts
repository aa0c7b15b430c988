import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { APP_DIR, BUILD_HINT, SDK_FILE } from '../../src/embed/builds.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, type TestTenant } from '../helpers/tenant.ts';

let t: TestApp;
let framed: TestTenant;
let unframed: TestTenant;
before(async () => {
  assert.ok(existsSync(APP_DIR) && existsSync(SDK_FILE), BUILD_HINT);
  t = await startTestApp();
  const admin = (await loginAsStaff(t, 'platform_admin')).token;
  framed = await createTenant(t, admin, { embedOrigins: ['https://www.sol.example', 'https://m.sol.example'] });
  unframed = await createTenant(t, admin, { name: 'Lua Casino', embedOrigins: [] });
});
after(() => t.close());

const get = (path: string) => fetch(`${t.url}${path}`, { headers: { accept: 'text/html' } });
const frameAncestors = (response: Response) =>
  /frame-ancestors ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1];

describe('the sportsbook page (GET /?tenant=)', () => {
  it("may be framed by 'self' and the tenant's embed origins only", async () => {
    const response = await get(`/?tenant=${framed.tenantId}`);
    assert.equal(response.status, 200);
    assert.equal(frameAncestors(response), "'self' https://www.sol.example https://m.sol.example");
  });

  it("is framed by 'self' alone when the tenant lists no embed origin, or does not exist", async () => {
    assert.equal(frameAncestors(await get(`/?tenant=${unframed.tenantId}`)), "'self'");
    assert.equal(frameAncestors(await get('/?tenant=tn_nobody')), "'self'");
  });

  it('follows a change of the embed origins at the next load', async () => {
    const admin = (await loginAsStaff(t, 'platform_admin')).token;
    const changed = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${unframed.tenantId}`, {
      token: admin,
      body: { embedOrigins: ['https://lua.example'] },
    });
    assert.equal(changed.status, 200, changed.text);
    assert.equal(frameAncestors(await get(`/?tenant=${unframed.tenantId}`)), "'self' https://lua.example");
  });

  it('carrying a launch token, is never cached and sends no Referer anywhere', async () => {
    const response = await get(`/?tenant=${framed.tenantId}&launch=lt_secret&path=%2Flive&locale=es&height=auto`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    const html = await response.text();
    assert.ok(!html.includes('lt_secret'), 'the token is never written into the page');
  });

  it('runs only its own scripts, the inline one by its hash, and talks only to its own API', async () => {
    const policy = (await get(`/?tenant=${framed.tenantId}`)).headers.get('content-security-policy') ?? '';
    const page = readFileSync(join(APP_DIR, 'index.html'), 'utf8');
    const inline = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
    assert.equal(inline.length, 1, 'the page has one inline script: its early reads');
    const hash = `'sha256-${createHash('sha256').update(inline[0]!, 'utf8').digest('base64')}'`;
    const directives = policy.split('; ');
    for (const directive of [
      `script-src 'self' ${hash}`,
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
    ]) {
      assert.ok(directives.includes(directive), `${directive} in ${policy}`);
    }
  });

  it('refuses a parameter out of bounds or not plain text with the error shape', async () => {
    for (const query of [
      'tenant=',
      'tenant=%00',
      `tenant=t&path=${'a'.repeat(301)}`,
      'tenant=t&launch=a%00b',
      `tenant=t&theme.primary=${'f'.repeat(41)}`,
      'tenant=t&header=%00',
    ]) {
      const response = await get(`/?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'validation');
    }
  });
});

describe('the app assets (GET /assets/*)', () => {
  it('are cached for a year as immutable: a new build has new names', async () => {
    const html = await (await get(`/?tenant=${framed.tenantId}`)).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'the page loads a hashed script');
    const response = await fetch(`${t.url}${script}`);
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(response.headers.get('content-type'), 'application/javascript; charset=utf-8');
  });

  it('answer 404 with the error shape for a file that is not there', async () => {
    const response = await fetch(`${t.url}/assets/nothing-here.js`);
    assert.equal(response.status, 404);
    const requestId = response.headers.get('x-request-id');
    assert.deepEqual(await response.json(), { error: { code: 'not_found', message: 'No such endpoint.', requestId } });
  });
});

describe('the SDK (GET /embed/v1.js)', () => {
  it("is served with the contract's cache rule, to any origin, without integrity pinning", async () => {
    const response = await fetch(`${t.url}/embed/v1.js`, { headers: { origin: 'https://www.sol.example' } });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('cache-control'), 'public, max-age=3600, stale-while-revalidate=86400');
    assert.equal(response.headers.get('access-control-allow-origin'), '*');
    assert.equal(response.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.match(await response.text(), /Bookmaker/);
  });

  it('is advertised by the public config at the URL it is served from', async () => {
    const config = await t.request('GET', `/api/v1/config?tenant=${framed.tenantId}`);
    assert.deepEqual(config.body.embed, { sdkUrl: '/embed/v1.js', protocolVersion: 1 });
  });
});

describe('GET / without a tenant', () => {
  it('describes the deployment, the API reference and the SDK', async () => {
    const response = await t.request('GET', '/');
    assert.equal(response.status, 200);
    assert.equal(response.body.links.sdk, '/embed/v1.js');
    assert.equal(response.body.links.apiReference, '/docs');
  });
});
