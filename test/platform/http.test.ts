import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { isReady } from '../../src/platform/db/migrate.ts';
import { createTestDatabase } from '../helpers/database.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';

let t: TestApp;
// Every route's schemas compiled at start-up, as the server does (test apps compile them at first use): one that Ajv
// or fast-json-stringify cannot compile fails here.
before(async () => (t = await startTestApp({}, { compileSchemasOnFirstUse: false })));
after(() => t.close());
beforeEach(() => t.reset());

describe('the one error shape', () => {
  it('answers an unknown route with 404 not_found', async () => {
    const response = await t.request('GET', '/api/v1/nowhere');
    assert.equal(response.status, 404);
    assert.deepEqual(response.body, { error: { code: 'not_found', message: 'No such endpoint.' } });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const response = await t.request('DELETE', '/api/v1/admin/auth/login');
    assert.equal(response.status, 405);
    assert.equal(response.headers.get('allow'), 'POST');
    assert.deepEqual(response.body, {
      error: {
        code: 'method_not_allowed',
        message: 'DELETE is not allowed on this path.',
        details: { allowed: ['POST'] },
      },
    });
  });

  it('refuses an unknown body field with 400 validation naming it (not silently dropped)', async () => {
    const response = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'a@bookmaker.test', password: 'x', totp: '123456', role: 'platform_admin' },
    });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, {
      error: { code: 'validation', message: 'Unknown field "role".', details: { field: 'role', in: 'body' } },
    });
  });

  it('names a missing required field', async () => {
    const response = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'a@bookmaker.test', totp: '123456' },
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'validation');
    assert.equal(response.body.error.details.field, 'password');
  });

  it('does not coerce body types: a number where a string is due is refused', async () => {
    const response = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'a@bookmaker.test', password: 'x', totp: 123456 },
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.details.field, 'totp');
  });

  it('checks bounds: a password of 257 characters is refused, 256 is accepted for checking', async () => {
    const tooLong = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'a@bookmaker.test', password: 'x'.repeat(257), totp: '123456' },
    });
    assert.equal(tooLong.status, 400);
    assert.equal(tooLong.body.error.details.field, 'password');
    const atBound = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'a@bookmaker.test', password: 'x'.repeat(256), totp: '123456' },
    });
    assert.equal(atBound.status, 401);
  });

  it('answers malformed JSON with 400 bad_request', async () => {
    const response = await t.request('POST', '/api/v1/admin/auth/login', { rawBody: '{"email":' });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { error: { code: 'bad_request', message: 'The body is not valid JSON.' } });
  });

  it('answers a body over 64 KiB with 413 payload_too_large', async () => {
    const response = await t.request('POST', '/api/v1/admin/auth/login', {
      body: { email: 'a@bookmaker.test', password: 'x'.repeat(65 * 1024), totp: '123456' },
    });
    assert.equal(response.status, 413);
    assert.equal(response.body.error.code, 'payload_too_large');
  });

  it('answers a non-JSON content type with 415', async () => {
    const response = await t.request('POST', '/api/v1/admin/auth/login', {
      rawBody: 'email=a',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(response.status, 415);
    assert.equal(response.body.error.code, 'unsupported_media_type');
  });
});

describe('response defaults', () => {
  it('marks API answers Cache-Control: no-store, errors included', async () => {
    assert.equal((await t.request('GET', '/healthz')).headers.get('cache-control'), 'no-store');
    assert.equal((await t.request('GET', '/api/v1/nowhere')).headers.get('cache-control'), 'no-store');
  });

  it('echoes a well-formed X-Request-Id and generates one otherwise', async () => {
    const echoed = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'req-123.abc' } });
    assert.equal(echoed.headers.get('x-request-id'), 'req-123.abc');
    const generated = await t.request('GET', '/healthz', { headers: { 'x-request-id': 'bad id with spaces' } });
    assert.match(generated.headers.get('x-request-id')!, /^[0-9a-f-]{36}$/);
  });
});

describe('GET /', () => {
  it('tells a script what this deployment serves', async () => {
    const response = await t.request('GET', '/');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.links, {
      apiReference: '/docs',
      openapi: {
        'Bookmaker API': '/api/v1/openapi.json',
        'Bookmaker aggregator API': '/api/v1/aggregator/openapi.json',
      },
      sdk: '/embed/v1.js',
      health: '/healthz',
      readiness: '/readyz',
    });
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
  });

  it('gives a browser a page linking to the API reference', async () => {
    const response = await t.request('GET', '/', { headers: { accept: 'text/html' } });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^text\/html/);
    assert.match(response.text, /<a href="\/docs">API reference<\/a>/);
  });
});

describe('health', () => {
  it('GET /healthz says the process is alive', async () => {
    const response = await t.request('GET', '/healthz');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ok' });
  });

  it('GET /readyz says ready when the database answers and migrations are applied', async () => {
    const response = await t.request('GET', '/readyz');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { status: 'ready' });
  });

  it('readiness is false while migrations are pending', async () => {
    const fresh = await createTestDatabase({ migrate: false });
    try {
      assert.deepEqual(await isReady(fresh.db), { ready: false, reason: 'migrations_pending' });
    } finally {
      await fresh.close();
    }
  });
});

describe('OpenAPI', () => {
  it('serves an OpenAPI 3.1 document generated from the route schemas', async () => {
    const response = await t.request('GET', '/api/v1/openapi.json');
    assert.equal(response.status, 200);
    assert.equal(response.body.openapi, '3.1.0');
    const login = response.body.paths['/api/v1/admin/auth/login'].post;
    assert.deepEqual(login.requestBody.content['application/json'].schema.required, ['email', 'password']);
    assert.equal(login.requestBody.content['application/json'].schema.additionalProperties, false);
    assert.ok(response.body.paths['/api/v1/admin/me'].get.responses['401']);
    assert.ok(response.body.paths['/readyz']);
  });
});

describe('OpenAPI completeness', () => {
  const ENDPOINTS = [
    'GET /healthz',
    'GET /readyz',
    'POST /api/v1/admin/auth/login',
    'POST /api/v1/admin/auth/enrol',
    'POST /api/v1/admin/auth/logout',
    'GET /api/v1/admin/me',
    'GET /api/v1/admin/staff',
    'POST /api/v1/admin/staff',
    'POST /api/v1/admin/staff/{id}/reset-totp',
    'POST /api/v1/admin/staff/{id}/disable',
    'POST /api/v1/admin/staff/{id}/enable',
    'GET /api/v1/admin/audit',
    'POST /api/v1/admin/aggregators',
    'GET /api/v1/admin/aggregators',
    'GET /api/v1/admin/aggregators/{id}',
    'PUT /api/v1/admin/aggregators/{id}/authorization',
    'POST /api/v1/admin/aggregators/{id}/keys',
    'GET /api/v1/admin/aggregators/{id}/keys',
    'DELETE /api/v1/admin/aggregators/{id}/keys/{keyId}',
    'POST /api/v1/admin/aggregators/{id}/disable',
    'POST /api/v1/admin/aggregators/{id}/enable',
    'GET /api/v1/admin/clients',
    'GET /api/v1/admin/clients/{id}',
    'POST /api/v1/admin/clients/{id}/suspend',
    'POST /api/v1/admin/clients/{id}/resume',
    'POST /api/v1/admin/clients/{id}/revoke-credentials',
    'POST /api/v1/aggregator/clients',
    'GET /api/v1/aggregator/clients',
    'GET /api/v1/aggregator/clients/{id}',
    'POST /api/v1/aggregator/clients/{id}/activate',
    'POST /api/v1/aggregator/clients/{id}/credentials/rotate',
    'POST /api/v1/admin/tenants',
    'GET /api/v1/admin/tenant',
    'PUT /api/v1/admin/tenant',
    'POST /api/v1/admin/integration/api-key',
    'POST /api/v1/admin/integration/wallet-secret',
    'POST /api/v1/integration/sessions',
    'POST /api/v1/integration/launch',
    'GET /api/v1/config',
    'GET /api/v1/session',
    'POST /api/v1/session/logout',
    'PUT /api/v1/admin/players/{id}/status',
    'POST /api/v1/integration/sandbox/bets/{id}/settle',
    'POST /api/v1/integration/sandbox/bets/{id}/resettle',
    'POST /api/v1/integration/sandbox/bets/{id}/reopen',
    'POST /api/v1/integration/sandbox/bets/{id}/cancel',
    'GET /api/v1/integration/sandbox/bets/{id}',
    'POST /api/v1/integration/sandbox/adjustments',
    'PUT /api/v1/integration/sandbox/players/{externalPlayerId}/status',
    'GET /api/v1/integration/obligations',
    'POST /api/v1/integration/obligations/{id}/redeliver',
    'GET /api/v1/integration/transactions/{txId}',
    'GET /api/v1/integration/statements/{day}',
    'GET /api/v1/integration/statement-keys',
    'GET /api/v1/catalog/sports',
    'GET /api/v1/catalog/live',
    'GET /api/v1/catalog/sports/{sportId}',
    'GET /api/v1/catalog/competitions/{competitionId}',
    'GET /api/v1/catalog/events/{eventId}',
    'GET /api/v1/catalog/search',
    'POST /api/v1/admin/trading/sports',
    'POST /api/v1/admin/trading/competitions',
    'POST /api/v1/admin/trading/events',
    'PATCH /api/v1/admin/trading/events/{eventId}',
    'POST /api/v1/admin/trading/events/{eventId}/markets',
    'PATCH /api/v1/admin/trading/markets/{marketId}',
    'PUT /api/v1/admin/trading/selections/{selectionId}/odds',
    'GET /api/v1/admin/trading/sports',
    'GET /api/v1/admin/trading/competitions',
    'GET /api/v1/admin/trading/events',
    'GET /api/v1/admin/trading/events/{eventId}',
    'GET /api/v1/wallet/balance',
    'POST /api/v1/bets',
    'GET /api/v1/bets',
    'GET /api/v1/bets/{id}',
    'GET /api/v1/favourites',
    'PUT /api/v1/favourites/events/{eventId}',
    'DELETE /api/v1/favourites/events/{eventId}',
    'PUT /api/v1/favourites/competitions/{competitionId}',
    'DELETE /api/v1/favourites/competitions/{competitionId}',
    'GET /api/v1/settings',
    'PATCH /api/v1/settings',
    'GET /api/v1/bets/{id}/cashout',
    'POST /api/v1/bets/{id}/cashout',
    'GET /api/v1/admin/bets',
    'POST /api/v1/admin/trading/markets/{marketId}/settle',
    'POST /api/v1/admin/trading/markets/{marketId}/resettle',
    'POST /api/v1/admin/trading/markets/{marketId}/settle/preview',
    'POST /api/v1/admin/trading/markets/{marketId}/resettle/preview',
    'POST /api/v1/admin/trading/events/{eventId}/result/preview',
    'POST /api/v1/admin/trading/events/{eventId}/result',
    'GET /api/v1/admin/obligations',
    'GET /api/v1/admin/obligations/counts',
    'POST /api/v1/admin/obligations/{id}/retry',
    'POST /api/v1/admin/obligations/{id}/resolve',
    'POST /api/v1/admin/obligations/{id}/cancel',
    'POST /api/v1/admin/adjustments',
    'GET /api/v1/admin/adjustments',
    'POST /api/v1/admin/adjustments/{id}/approve',
    'POST /api/v1/admin/adjustments/{id}/reject',
    'GET /api/v1/admin/reports/ggr',
    'GET /api/v1/admin/dashboard',
    'GET /api/v1/stream',
    'PUT /api/v1/stream/{streamId}/topics',
    'PUT /api/v1/admin/trading/markets/{marketId}/control',
    'PATCH /api/v1/admin/trading/sports/{sportId}',
    'PUT /api/v1/admin/players/{id}/stake-factor',
    'GET /api/v1/admin/trading/events/{eventId}/risk',
    'POST /api/v1/feed/messages',
    'POST /api/v1/admin/feed/producers',
    'GET /api/v1/admin/feed/producers',
    'POST /api/v1/admin/feed/producers/{producerId}/key',
    'GET /api/v1/feed/events',
  ];

  it('documents every endpoint with its summary and response schemas', async () => {
    const { paths } = (await t.request('GET', '/api/v1/openapi.json')).body;
    for (const endpoint of ENDPOINTS) {
      const [method, path] = endpoint.split(' ') as [string, string];
      const operation = paths[path]?.[method.toLowerCase()];
      assert.ok(operation, `${endpoint} is missing`);
      assert.ok(operation.summary, `${endpoint} has no summary`);
      const success = Object.entries(operation.responses).find(([status]) => status.startsWith('2'));
      assert.ok(success, `${endpoint} documents no success response`);
    }
    const documented = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const undocumentedInTest = documented.filter(
      (endpoint) => !ENDPOINTS.includes(endpoint) && !/\/api\/v1\/(auth|kyc|wallet\/(deposit|withdraw))/.test(endpoint),
    );
    assert.deepEqual(undocumentedInTest, [], 'every documented endpoint is listed here');
  });

  it('documents request bodies that refuse unknown fields', async () => {
    const { paths } = (await t.request('GET', '/api/v1/openapi.json')).body;
    for (const [path, method] of [
      ['/api/v1/bets', 'post'],
      ['/api/v1/integration/sessions', 'post'],
      ['/api/v1/aggregator/clients', 'post'],
    ] as const) {
      const schema = paths[path][method].requestBody.content['application/json'].schema;
      assert.equal(schema.additionalProperties, false, path);
    }
  });
});

describe('logs', () => {
  it('never contain credentials from headers or query strings', async () => {
    const staff = await loginAsStaff(t);
    await t.request('GET', '/api/v1/admin/me', { token: staff.token });
    await t.request('GET', `/api/v1/nowhere?token=${staff.token}&launch=bm_launch_secretvalue&limit=2`, {
      headers: { 'x-api-key': 'bm_int_secretkeyvalue1234', cookie: 'session=cookievalue' },
    });
    const logs = t.logs.text;
    assert.ok(logs.includes('limit=2'), 'an allow-listed query parameter stays readable');
    for (const secret of [
      staff.token,
      staff.password,
      staff.totpSecret,
      'bm_launch_secretvalue',
      'bm_int_secretkeyvalue1234',
      'cookievalue',
    ]) {
      assert.ok(!logs.includes(secret), `log contains ${secret.slice(0, 12)}…`);
    }
  });
});

describe('audit log', () => {
  it('is append-only: the database refuses UPDATE and DELETE', async () => {
    await loginAsStaff(t);
    await assert.rejects(sql`update audit_log set outcome = 'success'`.execute(t.db), /append-only/);
    await assert.rejects(sql`delete from audit_log`.execute(t.db), /append-only/);
  });
});
