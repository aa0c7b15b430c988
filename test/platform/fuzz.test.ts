import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { maxHeaderSize } from 'node:http';
import { MAX_URL_LENGTH } from '../../src/platform/http/router-failures.ts';
import { createClientBody, newIdempotencyKey, setUpAggregator } from '../helpers/aggregator.ts';
import { startTestApp, type HttpResponse, type TestApp } from '../helpers/app.ts';
import { rawRequest } from '../helpers/raw-http.ts';
import { newRequestId, playerWithBalance, setUpSportsbook } from '../helpers/sportsbook.ts';
import { openSession } from '../helpers/tenant.ts';
import { startTestWallet, startWalletPair, type TestWallet, type WalletPair } from '../helpers/wallet.ts';

/**
 * Property-based fuzzing of every operation of both served OpenAPI documents. Each operation gets a request that
 * its schemas accept (real credentials and ids), then one thing is broken: a body field, a query, path or header
 * value (wrong type, a bound plus one, NUL, lone surrogates, huge text), an extra field, bad JSON, a wrong content
 * type. Whatever is sent, the answer is never a 5xx, an error is always the error shape with Cache-Control: no-store,
 * and its code is one the operation documents (TestApp.request checks that); a success is no-store too, but for the
 * public configuration and the catalog's reads, which may be kept (the catalog's revalidated by their ETag). Seeded and bounded: the same run every time.
 * Then every operation gets the URLs a router cannot read: a malformed %XX in a path parameter, in the path and in
 * the query string, a URL over the service's limit and one over Node's header limit.
 */
const SEED = 20_261_122;
const RUNS_PER_OPERATION = 30;

type Schema = Record<string, any>;
interface Operation {
  document: string;
  method: string;
  path: string;
  operationId: string;
  security: string[];
  parameters: Array<{ in: 'query' | 'path' | 'header'; name: string; required: boolean; schema: Schema }>;
  body: Schema | undefined;
}

type Mutation =
  | { kind: 'as generated' }
  | { kind: 'body field'; path: Array<string | number>; value: unknown }
  | { kind: 'extra field'; name: string; value: unknown }
  | { kind: 'parameter'; in: 'query' | 'path' | 'header'; name: string; value: string }
  | { kind: 'raw body'; body: string; contentType: string };

/** Operations that end the fixture's credentials or state run last, so the others keep their depth. */
const LAST = [
  'setAuthorization',
  'suspendClient',
  'revokeClientCredentials',
  'resumeClient',
  'updateTenant',
  'rotateIntegrationKey',
  'rotateWalletSecret',
  'setPlayerStatus',
  'logoutPlayer',
  'staffLogout',
];

let t: TestApp;
let wallets: WalletPair;
let wallet: TestWallet;
let credentials: Record<string, Record<string, string>>;
let ids: Record<string, string>;
let operations: Operation[];

before(async () => {
  // Every operation must reach its validation: the aggregator's request budget would answer 429 first.
  t = await startTestApp(
    {},
    { authLimits: { failedAttemptsPerMinute: 100_000, aggregatorRequestsPerMinute: 100_000 } },
  );
  wallets = await startWalletPair(t.clock);
  wallet = await startTestWallet(t.clock);
  const agg = await setUpAggregator(t, wallets);
  const client = await agg.call('POST', '/clients', createClientBody(wallets));
  const book = await setUpSportsbook(t, wallet);
  const token = await playerWithBalance(t, book, wallet, 'fuzz-player', 1_000_00);
  const session = await openSession(t, book.tenant, { externalPlayerId: 'fuzz-player' });
  const bet = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake: 100, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
  });
  const event = await t.request('GET', `/api/v1/catalog/events/${book.events[0]!.id}`);
  const producer = await t.request('POST', '/api/v1/admin/feed/producers', {
    token: book.admin,
    body: { id: 'fuzz', name: 'Fuzz feed' },
  });
  credentials = {
    staffToken: { authorization: `Bearer ${book.admin}` },
    aggregatorKey: { authorization: `Bearer ${agg.key}` },
    integrationKey: { 'x-api-key': book.tenant.apiKey },
    sessionToken: { authorization: `Bearer ${token}` },
    feedKey: { authorization: `Bearer ${producer.body.key}` },
  };
  ids = {
    clientId: client.body.id,
    aggregatorId: agg.aggregatorId,
    playerId: session.body.player.id,
    betId: bet.body.bet.id,
    tenantId: book.tenant.tenantId,
    launchToken: session.body.launchToken,
    sportId: 'soccer',
    competitionId: event.body.event.competition.id,
    eventId: book.events[0]!.id,
    marketId: book.events[0]!.marketId,
    selectionId: book.events[0]!.home,
  };
  operations = [
    ...(await readOperations('/api/v1/openapi.json')),
    ...(await readOperations('/api/v1/aggregator/openapi.json')),
  ].sort((a, b) => LAST.indexOf(a.operationId) - LAST.indexOf(b.operationId));
});
after(async () => {
  await t.close();
  await wallets.close();
  await wallet.close();
});

async function readOperations(url: string): Promise<Operation[]> {
  const response = await t.request('GET', url);
  assert.equal(response.status, 200);
  const document = response.body;
  const base = document.servers[0].url === '/' ? '' : document.servers[0].url;
  return Object.entries(document.paths as Record<string, Record<string, any>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      document: url,
      method: method.toUpperCase(),
      path: base + path,
      operationId: operation.operationId,
      security: (operation.security ?? []).flatMap((entry: object) => Object.keys(entry)),
      parameters: operation.parameters ?? [],
      body: operation.requestBody?.content?.['application/json']?.schema,
    })),
  );
}

// ---- a request the schemas accept ----

const SAMPLE_TEXT = ['abcdefgh', 'ABCD1234', 'BR', 'soccer', 'slip-fuzz-0001', '2.10', '/', 'ok'];

function validValue(schema: Schema, name = ''): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  const union = schema.anyOf ?? schema.oneOf;
  if (union) return validValue(union.find((s: Schema) => s.type !== 'null') ?? union[0], name);
  if (name in ids) return ids[name];
  if (name === 'selectionId') return ids.selectionId;
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {};
      for (const key of schema.required ?? []) value[key] = validValue(schema.properties[key], key);
      return value;
    }
    case 'array': {
      const count = Math.max(schema.minItems ?? 0, schema.minItems === undefined ? 0 : 1);
      return Array.from({ length: count }, () => validValue(schema.items, name));
    }
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'boolean':
      return true;
    default:
      return validString(schema);
  }
}

function validString(schema: Schema): string {
  if (schema.format === 'date-time') return new Date(t.clock.now().getTime() + 86_400_000).toISOString();
  if (schema.format === 'email') return 'fuzz@bookmaker.test';
  const fits = (text: string) =>
    text.length >= (schema.minLength ?? 0) &&
    text.length <= (schema.maxLength ?? Infinity) &&
    (!schema.pattern || new RegExp(schema.pattern, 'u').test(text));
  const sample = SAMPLE_TEXT.find(fits);
  if (sample) return sample;
  if (schema.pattern) return fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed: SEED, numRuns: 1 })[0]!;
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

function parameterValue(operation: Operation, name: string): string {
  if (name === 'idempotency-key') return newIdempotencyKey();
  if (name === 'x-tenant-id') return ids.tenantId!;
  if (name === 'id') {
    if (operation.path.includes('/aggregators/')) return ids.aggregatorId!;
    if (operation.path.includes('/players/')) return ids.playerId!;
    if (operation.path.includes('/bets/')) return ids.betId!;
    return ids.clientId!;
  }
  if (name === 'keyId') return 'ak_not_a_key';
  if (name === 'tenantId') return ids.tenantId!;
  if (name === 'player') return ids.playerId!;
  return ids[name] ?? 'abcdefgh';
}

// ---- what breaks it ----

const BAD_TEXT = ['ab\u0000cd', '\u0000', '\ud800', 'x\udfff', 'abc\ud83d', '', ' ', 'x'.repeat(70_000)];
const WRONG_TYPES = [null, true, 0, -1, 1.5, 2 ** 53, [], {}, '1'];

function badValue(schema: Schema | undefined): fc.Arbitrary<unknown> {
  const bounds: unknown[] = [];
  if (schema?.maxLength !== undefined) bounds.push('x'.repeat(schema.maxLength + 1));
  if (schema?.minLength) bounds.push('x'.repeat(schema.minLength - 1));
  if (schema?.maximum !== undefined) bounds.push(schema.maximum + 1);
  if (schema?.minimum !== undefined) bounds.push(schema.minimum - 1);
  if (schema?.maxItems !== undefined && schema.items) {
    bounds.push(Array.from({ length: schema.maxItems + 1 }, () => validValue(schema.items)));
  }
  return fc.oneof(
    fc.constantFrom(...BAD_TEXT, ...WRONG_TYPES, ...bounds),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer(),
    fc.double(),
  );
}

const BAD_PARAMETERS = [
  '%00',
  'a%00b',
  '%ED%A0%80',
  '%FF%FE',
  '%C0%80',
  '-1',
  '0',
  '99999999999999999999',
  '1.5',
  'true',
  '',
  'x'.repeat(3_000),
];

function badParameter(location: 'query' | 'path' | 'header'): fc.Arbitrary<string> {
  if (location === 'header') {
    return fc.oneof(
      fc.constantFrom('', 'x'.repeat(129), 'short', '../../etc', '"quoted"', 'a b c'),
      fc.string({ unit: 'grapheme-ascii', maxLength: 40 }),
    );
  }
  return fc.oneof(fc.constantFrom(...BAD_PARAMETERS), fc.string({ unit: 'binary', maxLength: 20 }).map(percentEncode));
}

function percentEncode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80'; // a lone surrogate, as the bytes a client would send
  }
}

const RAW_BODIES: Array<{ body: string; contentType: string }> = [
  { body: '{"a":', contentType: 'application/json' },
  { body: '', contentType: 'application/json' },
  { body: '[]', contentType: 'application/json' },
  { body: '"text"', contentType: 'application/json' },
  { body: 'null', contentType: 'application/json' },
  { body: '{"a":"\\u0000"}', contentType: 'application/json' },
  { body: '{"a":"\\ud800"}', contentType: 'application/json' },
  { body: 'a=b', contentType: 'application/x-www-form-urlencoded' },
  { body: 'hello', contentType: 'text/plain' },
  { body: JSON.stringify({ filler: 'x'.repeat(70 * 1024) }), contentType: 'application/json' },
];

function leafPaths(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [path, ...value.flatMap((item, index) => leafPaths(item, [...path, index]))];
  if (value && typeof value === 'object') {
    return [path, ...Object.entries(value).flatMap(([key, item]) => leafPaths(item, [...path, key]))];
  }
  return [path];
}

function schemaAt(schema: Schema | undefined, path: Array<string | number>): Schema | undefined {
  let current = schema;
  for (const step of path) current = typeof step === 'number' ? current?.items : current?.properties?.[step];
  return current;
}

function mutations(operation: Operation, body: unknown): fc.Arbitrary<Mutation> {
  const choices: Array<fc.Arbitrary<Mutation>> = [fc.constant({ kind: 'as generated' as const })];
  if (operation.body) {
    const paths = leafPaths(body).filter((path) => path.length > 0);
    if (paths.length > 0) {
      choices.push(
        fc
          .constantFrom(...paths)
          .chain((path) =>
            badValue(schemaAt(operation.body, path)).map((value) => ({ kind: 'body field' as const, path, value })),
          ),
      );
    }
    choices.push(
      fc
        .tuple(fc.constantFrom('boost', 'role', 'admin', '__proto__', 'x\u0000y', 'z\ud800'), badValue(undefined))
        .map(([name, value]) => ({ kind: 'extra field' as const, name, value })),
    );
  }
  if (['POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method)) {
    choices.push(fc.constantFrom(...RAW_BODIES).map((raw) => ({ kind: 'raw body' as const, ...raw })));
  }
  const parameters = [
    ...operation.parameters,
    { in: 'query' as const, name: 'unexpected', required: false, schema: {} },
  ];
  choices.push(
    fc.constantFrom(...parameters).chain((parameter) =>
      badParameter(parameter.in).map((value) => ({
        kind: 'parameter' as const,
        in: parameter.in,
        name: parameter.name,
        value,
      })),
    ),
  );
  return fc.oneof(...choices);
}

// ---- sending it ----

async function send(operation: Operation, mutation: Mutation): Promise<HttpResponse> {
  const { url, headers } = requestOf(operation, mutation);
  if (operation.operationId === 'openStream') {
    // A stream that opens never ends: its status and headers are what is checked, then it is left.
    const controller = new AbortController();
    const response = await fetch(`${t.url}${url}`, { headers, signal: controller.signal });
    if (response.headers.get('content-type')?.startsWith('text/event-stream')) {
      controller.abort();
      return { status: response.status, headers: response.headers, text: '', body: undefined };
    }
    await response.body?.cancel();
  }
  if (mutation.kind === 'raw body') {
    return t.request(operation.method, url, {
      rawBody: mutation.body,
      headers: { ...headers, 'content-type': mutation.contentType },
    });
  }
  if (!operation.body) return t.request(operation.method, url, { headers });
  const body = structuredClone(validValue(operation.body)) as Record<string, unknown>;
  if (mutation.kind === 'body field') setAt(body, mutation.path, mutation.value);
  if (mutation.kind === 'extra field') body[mutation.name] = mutation.value;
  return t.request(operation.method, url, { body, headers });
}

/** The URL (path and query, a mutated parameter as given) and the headers (credentials) of a request. */
function requestOf(operation: Operation, mutation: Mutation): { url: string; headers: Record<string, string> } {
  const values = new Map<string, string>();
  for (const parameter of operation.parameters) {
    if (parameter.required || parameter.in === 'path') {
      values.set(
        `${parameter.in}:${parameter.name}`,
        encodeIfText(parameter.in, parameterValue(operation, parameter.name)),
      );
    }
  }
  if (mutation.kind === 'parameter') values.set(`${mutation.in}:${mutation.name}`, mutation.value);
  const headers: Record<string, string> = {};
  for (const scheme of operation.security) Object.assign(headers, credentials[scheme]);
  if (operation.security.includes('integrationKey')) headers['x-tenant-id'] = ids.tenantId!;
  let path = operation.path;
  const query: string[] = [];
  for (const [key, value] of values) {
    const [location, name] = key.split(':') as ['query' | 'path' | 'header', string];
    if (location === 'path') path = path.replace(`{${name}}`, value);
    else if (location === 'query') query.push(`${name}=${value}`);
    else headers[name] = value;
  }
  return { url: query.length > 0 ? `${path}?${query.join('&')}` : path, headers };
}

function encodeIfText(location: string, value: string): string {
  return location === 'header' ? value : encodeURIComponent(value);
}

function setAt(target: Record<string, unknown>, path: Array<string | number>, value: unknown) {
  let current: any = target;
  for (const step of path.slice(0, -1)) current = current[step];
  current[path.at(-1)!] = value;
}

/** The catalog's anonymous reads: a 200 may be kept if revalidated (its ETag), src/platform/http/revalidation.ts. */
const REVALIDATED = new Set([
  'listSports',
  'listLiveEvents',
  'getSport',
  'getCompetition',
  'searchCatalog',
  'getEvent',
]);

function checkAnswer(operation: Operation, mutation: Mutation, response: HttpResponse) {
  const what = `${operation.method} ${operation.path} with ${JSON.stringify(mutation).slice(0, 200)}`;
  assert.ok(response.status < 500, `${what} answered ${response.status}: ${response.text.slice(0, 300)}`);
  if (response.status >= 400) {
    const error = response.body?.error;
    assert.ok(
      error && typeof error.code === 'string' && typeof error.message === 'string',
      `${what}: ${response.text}`,
    );
    assert.deepEqual(
      Object.keys(response.body).concat(
        Object.keys(error).filter((key) => !['code', 'message', 'details'].includes(key)),
      ),
      ['error'],
      `${what}: not the error shape`,
    );
  }
  if (operation.operationId === 'openStream' && response.status === 200) {
    assert.equal(response.headers.get('cache-control'), 'no-store, no-transform', what);
    return;
  }
  const publicConfig = operation.operationId === 'getPublicConfig' && response.status === 200;
  const revalidated = REVALIDATED.has(operation.operationId) && response.status === 200;
  if (revalidated) {
    assert.equal(response.headers.get('cache-control'), 'no-cache', what);
    assert.match(response.headers.get('etag') ?? '', /^"[\w-]{43}"$/, what);
  } else if (!publicConfig) {
    assert.equal(response.headers.get('cache-control'), 'no-store', what);
  }
}

describe('fuzzing every operation of both documents', () => {
  it('never answers 5xx, always the error shape with Cache-Control: no-store and a documented code', async () => {
    assert.ok(operations.length >= 50, `${operations.length} operations`);
    const shallow: string[] = [];
    for (const operation of operations) {
      const body = operation.body ? validValue(operation.body) : undefined;
      const statuses = new Set<number>();
      await fc.assert(
        fc.asyncProperty(mutations(operation, body), async (mutation) => {
          const response = await send(operation, mutation);
          statuses.add(response.status);
          checkAnswer(operation, mutation, response);
        }),
        { seed: SEED, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      );
      // Past authentication: some answer came from the operation itself (its validation or its work).
      if ([...statuses].every((status) => status === 401 || status === 429)) {
        shallow.push(`${operation.method} ${operation.path}`);
      }
    }
    assert.deepEqual(shallow, [], 'operations the fuzz never got past authentication on');
  });

  it('answers unreadable and over-long URLs on every operation in the error shape, with a documented code', async () => {
    for (const operation of operations) {
      for (const { mutation, url, expected } of unreadableUrls(operation)) {
        const { headers } = requestOf(operation, mutation);
        // Through the test client, which keeps a malformed %XX as it is and checks the code is documented.
        const response = await t.request(operation.method, url, { headers });
        checkAnswer(operation, mutation, response);
        const what = `${operation.method} ${url.slice(0, 120)}`;
        assert.equal(response.status, expected.status, `${what}: ${response.text}`);
        assert.equal(response.body.error.code, expected.code, what);
        assert.deepEqual(response.body.error.details, expected.details, what);
        assert.equal(response.headers.get('content-type'), 'application/json; charset=utf-8', what);
      }
      // Over Node's header limit no request exists yet, so no operation can list the answer: it is checked here.
      const { url, headers } = requestOf(operation, { kind: 'as generated' });
      const huge = await rawRequest(t.url, operation.method, withQuery(url, `pad=${'x'.repeat(maxHeaderSize)}`), {
        headers,
      });
      checkAnswer(operation, { kind: 'parameter', in: 'query', name: 'pad', value: 'x…' }, huge);
      assert.equal(huge.status, 431, `${operation.method} ${operation.path}: ${huge.text}`);
      assert.equal(huge.body.error.code, 'headers_too_large');
    }
  });
});

const UNREADABLE_ESCAPES = ['%E0%A4%A', '%', '%zz'];

interface UnreadableUrl {
  mutation: Mutation;
  url: string;
  expected: { status: number; code: string; details: Record<string, unknown> };
}

/** Each operation's URL broken the ways a router cannot read, and the answer each must get. */
function unreadableUrls(operation: Operation): UnreadableUrl[] {
  const inPath = { status: 400, code: 'malformed_url', details: { in: 'path' } };
  const inQuery = { status: 400, code: 'malformed_url', details: { in: 'querystring' } };
  const query = operation.parameters.find((parameter) => parameter.in === 'query')?.name ?? 'unexpected';
  const asGenerated = requestOf(operation, { kind: 'as generated' }).url;
  const [path, search] = asGenerated.split('?') as [string, string | undefined];
  const urls: UnreadableUrl[] = UNREADABLE_ESCAPES.flatMap((value) => [
    ...operation.parameters
      .filter((parameter) => parameter.in === 'path')
      .map((parameter): UnreadableUrl => {
        const mutation: Mutation = { kind: 'parameter', in: 'path', name: parameter.name, value };
        return { mutation, url: requestOf(operation, mutation).url, expected: inPath };
      }),
    {
      mutation: { kind: 'parameter', in: 'path', name: '(last segment)', value },
      url: `${path}${value}${search === undefined ? '' : `?${search}`}`,
      expected: inPath,
    },
    (() => {
      const mutation: Mutation = { kind: 'parameter', in: 'query', name: query, value };
      return { mutation, url: requestOf(operation, mutation).url, expected: inQuery };
    })(),
  ]);
  const padding = 'x'.repeat(MAX_URL_LENGTH);
  urls.push({
    mutation: { kind: 'parameter', in: 'query', name: 'pad', value: `${MAX_URL_LENGTH} characters` },
    url: withQuery(asGenerated, `pad=${padding}`),
    expected: { status: 414, code: 'url_too_long', details: { maxLength: MAX_URL_LENGTH } },
  });
  return urls;
}

function withQuery(url: string, parameter: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${parameter}`;
}
