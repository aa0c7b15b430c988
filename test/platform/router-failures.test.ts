import assert from 'node:assert/strict';
import { maxHeaderSize } from 'node:http';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { MAX_URL_LENGTH } from '../../src/platform/http/router-failures.ts';
import { newIdempotencyKey, setUpAggregator } from '../helpers/aggregator.ts';
import { loginAsStaff, startTestApp, type HttpResponse, type TestApp } from '../helpers/app.ts';
import { parseAnswer, rawExchange, rawRequest } from '../helpers/raw-http.ts';
import { createTenant, exchange, openSession } from '../helpers/tenant.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * Every failure below the routes, on every area of the service: the answer is the one error shape, JSON, with the
 * headers every answer carries (the request id it was sent with, no-store, nosniff, a policy that forbids framing).
 * URL failures are sent byte for byte with node:http (fetch would rewrite some of them).
 */

let t: TestApp;
let credentials: Record<string, Record<string, string>>;

before(async () => {
  t = await startTestApp();
  const admin = (await loginAsStaff(t, 'platform_admin')).token;
  const tenant = await createTenant(t, admin);
  // The authorization only names the wallet origins; nothing here calls them.
  const wallets = {
    production: { url: 'https://wallet.acme.example/api' },
    sandbox: { url: 'https://sandbox.acme.example/api' },
  } as unknown as { production: TestWallet; sandbox: TestWallet };
  const aggregator = await setUpAggregator(t, wallets, { adminToken: admin });
  const session = await openSession(t, tenant, { externalPlayerId: 'router-failures' });
  const launched = await exchange(t, tenant.tenantId, session.body.launchToken);
  assert.equal(launched.status, 200, launched.text);
  credentials = {
    aggregator: { authorization: `Bearer ${aggregator.key}`, 'idempotency-key': newIdempotencyKey() },
    integration: { 'x-tenant-id': tenant.tenantId, 'x-api-key': tenant.apiKey },
    admin: { authorization: `Bearer ${admin}` },
    player: { authorization: `Bearer ${launched.body.token}` },
  };
});
after(() => t.close());

interface Area {
  name: string;
  /** A path no route serves. */
  unknown: string;
  /** A path of the area with the given text as its last segment (a parameter or a file name). */
  segment: (text: string) => string;
  /** A path the area serves, a method it does not serve there, and the Allow header of that path. */
  known: { path: string; wrongMethod: string; allow: string };
  /** A route of the area that parses a JSON body, called with valid credentials. */
  body?: { method: string; path: string };
}

const AREAS: Area[] = [
  {
    name: 'aggregator',
    unknown: '/api/v1/aggregator/nowhere',
    segment: (text) => `/api/v1/aggregator/clients/${text}`,
    known: { path: '/api/v1/aggregator/clients', wrongMethod: 'DELETE', allow: 'GET, POST' },
    body: { method: 'POST', path: '/api/v1/aggregator/clients' },
  },
  {
    name: 'integration',
    unknown: '/api/v1/integration/nowhere',
    segment: (text) => `/api/v1/integration/${text}`,
    known: { path: '/api/v1/integration/sessions', wrongMethod: 'GET', allow: 'POST' },
    body: { method: 'POST', path: '/api/v1/integration/sessions' },
  },
  {
    name: 'admin',
    unknown: '/api/v1/admin/nowhere',
    segment: (text) => `/api/v1/admin/clients/${text}`,
    known: { path: '/api/v1/admin/me', wrongMethod: 'DELETE', allow: 'GET' },
    body: { method: 'POST', path: '/api/v1/admin/tenants' },
  },
  {
    name: 'player',
    unknown: '/api/v1/nowhere',
    segment: (text) => `/api/v1/bets/${text}`,
    known: { path: '/api/v1/session', wrongMethod: 'DELETE', allow: 'GET' },
    body: { method: 'POST', path: '/api/v1/bets' },
  },
  {
    name: 'catalog',
    unknown: '/api/v1/catalog/nowhere',
    segment: (text) => `/api/v1/catalog/events/${text}`,
    known: { path: '/api/v1/catalog/sports', wrongMethod: 'POST', allow: 'GET' },
  },
  {
    name: 'embed',
    unknown: '/embed/v2.js',
    segment: (text) => `/embed/${text}`,
    known: { path: '/embed/v1.js', wrongMethod: 'POST', allow: 'GET' },
  },
  {
    name: 'assets',
    unknown: '/assets',
    segment: (text) => `/assets/${text}`,
    known: { path: '/assets/app.js', wrongMethod: 'POST', allow: 'GET' },
  },
  {
    name: 'docs',
    unknown: '/docs/nowhere',
    segment: (text) => `/docs/${text}`,
    known: { path: '/docs/', wrongMethod: 'POST', allow: 'GET' },
  },
  {
    name: 'root',
    unknown: '/nowhere',
    segment: (text) => `/${text}`,
    known: { path: '/', wrongMethod: 'DELETE', allow: 'GET' },
  },
];

const BAD_ESCAPES = ['%E0%A4%A', '%', '%zz', '%E0%A4%41'];

let requestCounter = 0;
const newRequestId = () => `router-failure-${(requestCounter += 1)}`;

/** A request through the whole pipeline: it carries a request id, which the answer must echo. */
async function send(
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string } = {},
): Promise<HttpResponse & { requestId: string }> {
  const requestId = newRequestId();
  const response = await rawRequest(t.url, method, path, {
    ...options,
    headers: { 'x-request-id': requestId, ...options.headers },
  });
  return { ...response, requestId };
}

interface Expected {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The one error shape with the headers of every answer; `requestId` is the one sent, or null for a new one. */
function assertRefused(response: HttpResponse, expected: Expected, requestId: string | null, what: string) {
  assert.equal(response.status, expected.status, `${what}: ${response.text}`);
  const error = {
    code: expected.code,
    message: expected.message,
    ...(expected.details && { details: expected.details }),
  };
  assert.deepEqual(response.body, { error }, what);
  assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8', what);
  assert.equal(response.headers.get('cache-control'), 'no-store', what);
  assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(response.headers.get('content-security-policy'), "default-src 'none'; frame-ancestors 'none'", what);
  if (requestId) assert.equal(response.headers.get('x-request-id'), requestId, what);
  else assert.match(response.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/, what);
}

const malformed = (where: 'path' | 'querystring'): Expected => ({
  status: 400,
  code: 'malformed_url',
  message: `The URL's ${where === 'path' ? 'path' : 'query string'} has a malformed percent-encoding (%XX).`,
  details: { in: where },
});

describe('router failures, on every area', () => {
  for (const area of AREAS) {
    describe(`${area.name} (${area.known.path})`, () => {
      it('answers an unknown route with 404 not_found', async () => {
        const response = await send('GET', area.unknown);
        assertRefused(
          response,
          { status: 404, code: 'not_found', message: 'No such endpoint.' },
          response.requestId,
          area.unknown,
        );
      });

      it('answers a method the path does not serve with 405 and its Allow header', async () => {
        const { path, wrongMethod, allow } = area.known;
        const response = await send(wrongMethod, path);
        const allowed = allow.split(', ');
        assertRefused(
          response,
          {
            status: 405,
            code: 'method_not_allowed',
            message: `${wrongMethod} is not allowed on this path.`,
            details: { allowed },
          },
          response.requestId,
          `${wrongMethod} ${path}`,
        );
        assert.equal(response.headers.get('allow'), allow);
      });

      it('answers a malformed percent-encoding in the path with 400 malformed_url', async () => {
        for (const escape of BAD_ESCAPES) {
          const path = area.segment(escape);
          const response = await send('GET', path);
          assertRefused(response, malformed('path'), response.requestId, path);
        }
      });

      it('answers a malformed percent-encoding in the query string with 400 malformed_url', async () => {
        for (const query of BAD_ESCAPES.flatMap((escape) => [`q=${escape}`, `${escape}=1`])) {
          const path = `${area.unknown}?${query}`;
          const response = await send('GET', path);
          assertRefused(response, malformed('querystring'), response.requestId, path);
        }
      });

      it(`answers a URL over ${MAX_URL_LENGTH} characters with 414 url_too_long`, async () => {
        const path = `${area.unknown}?pad=`.padEnd(MAX_URL_LENGTH + 1, 'x');
        const response = await send('GET', path);
        const expected = {
          status: 414,
          code: 'url_too_long',
          message: 'The URL is longer than the service reads (details.maxLength).',
          details: { maxLength: MAX_URL_LENGTH },
        };
        assertRefused(response, expected, response.requestId, `${path.length} characters`);
        const atLimit = await send('GET', `${area.unknown}?pad=`.padEnd(MAX_URL_LENGTH, 'x'));
        assert.notEqual(atLimit.status, 414, 'a URL of exactly the limit is read');
      });

      it("answers a request line and headers over Node's limit with 431 headers_too_large", async () => {
        const path = `${area.unknown}?pad=${'x'.repeat(maxHeaderSize)}`;
        const response = await rawRequest(t.url, 'GET', path);
        // Node refuses it before a request exists: the answer is written in the same shape, with a new request id.
        assertRefused(
          response,
          {
            status: 431,
            code: 'headers_too_large',
            message: 'The request line and headers together are larger than the service reads (details.maxBytes).',
            details: { maxBytes: maxHeaderSize },
          },
          null,
          'a huge URL',
        );
        assert.equal(response.headers.get('connection'), 'close');
      });

      const body = area.body;
      if (!body) return;
      const bodyFailures: Array<{ what: string; contentType: string; body: string; expected: Expected }> = [
        {
          what: 'a body over 64 KiB',
          contentType: 'application/json',
          body: JSON.stringify({ filler: 'x'.repeat(65 * 1024) }),
          expected: { status: 413, code: 'payload_too_large', message: 'The request body is too large.' },
        },
        {
          what: 'a body that is not JSON',
          contentType: 'text/plain',
          body: 'hello',
          expected: { status: 415, code: 'unsupported_media_type', message: 'Send the body as application/json.' },
        },
        {
          what: 'malformed JSON',
          contentType: 'application/json',
          body: '{"a":',
          expected: { status: 400, code: 'bad_request', message: 'The body is not valid JSON.' },
        },
        {
          what: 'an empty body sent as JSON',
          contentType: 'application/json',
          body: '',
          expected: { status: 400, code: 'bad_request', message: 'The body is empty: send JSON, or no Content-Type.' },
        },
      ];
      for (const failure of bodyFailures) {
        it(`answers ${failure.what} on ${body.method} ${body.path} with ${failure.expected.status}`, async () => {
          const requestId = newRequestId();
          // Through the test client: the code must also be one the operation documents.
          const response = await t.request(body.method, body.path, {
            rawBody: failure.body,
            headers: {
              ...credentials[area.name],
              'content-type': failure.contentType,
              'x-request-id': requestId,
            },
          });
          assertRefused(response, failure.expected, requestId, failure.what);
        });
      }
    });
  }
});

describe('URL failures are refused before the route and its guards', () => {
  it('a malformed path parameter of an authenticated route gets 400, not 401', async () => {
    const response = await send('GET', '/api/v1/aggregator/clients/%E0%A4%A/activate');
    assertRefused(response, malformed('path'), response.requestId, 'no key, bad URL');
  });

  it('a long path parameter (the router used to stop at 100 characters) reaches its schema', async () => {
    const response = await send('GET', `/api/v1/admin/clients/${'x'.repeat(300)}`, { headers: credentials.admin });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body.error.details, { field: 'id', in: 'params' });
  });

  it('an absolute-form request line with a malformed path is refused the same way', async () => {
    const response = await send('GET', `http://127.0.0.1/api/v1/aggregator/clients/%zz`);
    assertRefused(response, malformed('path'), response.requestId, 'absolute form');
  });
});

describe('what Node itself would answer', () => {
  it('refuses a request that is not HTTP with 400 bad_request, in the shape', async () => {
    for (const request of [
      'FOO /healthz HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api v1 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /healthz HTTP/9.9\r\nHost: x\r\n\r\n',
      'POST /api/v1/bets HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    ]) {
      const response = await rawExchange(t.url, request);
      const expected = { status: 400, code: 'bad_request', message: 'The request is not valid HTTP/1.1.' };
      assertRefused(response, expected, null, JSON.stringify(request));
      assert.ok(response.closed, 'the connection is closed');
    }
  });

  it('refuses an HTTP/1.1 request without Host with 400 validation naming the header', async () => {
    const response = await rawExchange(t.url, 'GET /healthz HTTP/1.1\r\nX-Request-Id: no-host-1\r\n\r\n', {
      waitMs: 1_000,
    });
    const expected = {
      status: 400,
      code: 'validation',
      message: 'The Host header is required (HTTP/1.1).',
      details: { field: 'host', in: 'headers' },
    };
    assertRefused(response, expected, 'no-host-1', 'no Host');
  });

  it('serves a request with an Expect it does not know (Node would answer a bare 417)', async () => {
    const response = await rawExchange(t.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: x-unknown\r\n\r\n', {
      waitMs: 1_000,
    });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, { status: 'ok' });
  });

  it('refuses CONNECT with 405 in the shape (Node would close without a word)', async () => {
    const response = await rawExchange(t.url, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const expected = {
      status: 405,
      code: 'method_not_allowed',
      message: 'This server is not a proxy: no CONNECT.',
      details: { allowed: [] },
    };
    assertRefused(response, expected, null, 'CONNECT');
    assert.equal(response.headers.get('allow'), '');
  });

  it('refuses a request not received in time with 408 request_timeout, in the shape', async () => {
    assert.equal(t.app.http.server.requestTimeout, 30_000, 'a request must arrive within 30 s');
    // Node's timer checks connections every 30 s; the answer to its timeout is what is tested, so the timeout it
    // reports is raised here on a real connection that has sent half a request.
    const accepted = new Promise<Socket>((resolve) => t.app.http.server.once('connection', resolve));
    const { hostname, port } = new URL(t.url);
    const client = connect(Number(port), hostname);
    const received: Buffer[] = [];
    client.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise((resolve) => client.on('close', resolve));
    client.write('POST /api/v1/integration/launch HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{');
    const serverSide = await accepted;
    const timeout = Object.assign(new Error('Request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' });
    t.app.http.server.emit('clientError', timeout, serverSide);
    await closed;
    const response = parseAnswer(Buffer.concat(received).toString('latin1'));
    const expected = { status: 408, code: 'request_timeout', message: 'The request was not received in time.' };
    assertRefused(response, expected, null, 'timeout');
  });
});

describe('shutting down', () => {
  it('answers a request that arrives while the server closes with 503 shutting_down, in the shape', async () => {
    const closing = await startTestApp();
    const { hostname, port } = new URL(closing.url);
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const closed = new Promise((resolve) => socket.on('close', resolve));
    // A request begun before the close keeps its connection open; it is finished while the server closes.
    socket.write('GET /api/v1/aggregator/clients HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = closing.close();
    for (let waited = 0; closing.app.http.server.listening; waited += 10) {
      assert.ok(waited < 5_000, 'the server stops listening once it closes');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    socket.write('X-Request-Id: closing-1\r\n\r\n');
    await closed;
    await stopped;
    const response = parseAnswer(Buffer.concat(received).toString('latin1'));
    const expected = {
      status: 503,
      code: 'shutting_down',
      message: 'The service is shutting down; send the request again.',
    };
    assertRefused(response, expected, 'closing-1', 'during close');
    assert.equal(response.headers.get('connection'), 'close');
  });
});
