// The catalog's anonymous reads may be kept and must be revalidated: a strong ETag (the SHA-256 of the JSON as sent),
// `Cache-Control: no-cache`, and 304 Not Modified with no body for an If-None-Match that names it; a big answer goes
// out brotli or gzip as the request accepts. Read with node:http, which leaves the bytes as sent (fetch would
// decompress them and handle the 304 itself).
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { createTenant, openSession } from '../helpers/tenant.ts';

let t: TestApp;
let trader: string;
/** An event page of several markets (well over 1 KiB), and one of its selections. */
let event: { id: string; selectionId: string };
let competitionId: string;

const STRONG_ETAG = /^"[A-Za-z0-9_-]{43}"$/;

before(async () => {
  t = await startTestApp();
  trader = (await loginAsStaff(t, 'trader')).token;
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  competitionId = (await trade('POST', '/competitions', { sportId: 'soccer', name: 'Série A', country: 'Brazil' }))
    .competition.id;
  const created = (
    await trade('POST', '/events', {
      competitionId,
      home: 'Flamengo',
      away: 'Palmeiras',
      startsAt: '2026-03-02T19:00:00Z',
    })
  ).event;
  const markets = [
    { type: 'match_result', selections: three('home', 'draw', 'away') },
    { type: 'double_chance', selections: three('home_draw', 'home_away', 'draw_away') },
    { type: 'both_teams_to_score', selections: two('yes', 'no') },
    ...['1.5', '2.5', '3.5'].map((line) => ({ type: 'totals', line, selections: two('over', 'under') })),
    ...['-1.5', '1.5'].map((line) => ({ type: 'handicap', line, selections: two('home', 'away') })),
  ];
  let selectionId = '';
  for (const market of markets) {
    const made = (await trade('POST', `/events/${created.id}/markets`, market)).market;
    selectionId ||= made.selections[0].id;
  }
  event = { id: created.id, selectionId };
});
after(() => t.close());

const three = (...outcomes: string[]) =>
  outcomes.map((outcome, i) => ({ name: outcome, outcome, odds: `${2 + i}.10` }));
const two = (...outcomes: string[]) => outcomes.map((outcome) => ({ name: outcome, outcome, odds: '1.90' }));

async function trade(method: string, path: string, body: unknown) {
  const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: trader, body });
  assert.ok(response.status < 300, `${method} ${path}: ${response.text}`);
  return response.body;
}

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request; the answer's bytes exactly as they came over the connection. */
function send(path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${t.url}${path}`, { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
      );
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end();
  });
}

const eventPage = () => `/api/v1/catalog/events/${event.id}`;
const sha256Tag = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url')}"`;

describe('catalog reads: ETag and 304', () => {
  it('answer 200 with a strong ETag, the hash of the JSON as sent, and Cache-Control: no-cache', async () => {
    for (const path of [
      '/api/v1/catalog/sports',
      '/api/v1/catalog/live',
      '/api/v1/catalog/sports/soccer',
      `/api/v1/catalog/competitions/${competitionId}`,
      '/api/v1/catalog/search?q=flamengo',
      eventPage(),
    ]) {
      const sent = await send(path);
      assert.equal(sent.status, 200, path);
      assert.match(String(sent.headers.etag), STRONG_ETAG, path);
      assert.equal(sent.headers.etag, sha256Tag(sent.body), path);
      assert.equal(sent.headers['cache-control'], 'no-cache', path);
      assert.equal(sent.headers['content-type'], 'application/json; charset=utf-8', path);
      assert.equal(sent.headers['x-content-type-options'], 'nosniff', path);
    }
  });

  it('answer 304 with no body to an If-None-Match naming the ETag, with the ETag and the caching', async () => {
    const first = await send(eventPage());
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"another", ${etag}`, '*']) {
      for (const acceptEncoding of ['br', 'gzip', 'identity']) {
        const again = await send(eventPage(), { 'if-none-match': ifNoneMatch, 'accept-encoding': acceptEncoding });
        assert.equal(again.status, 304, ifNoneMatch);
        assert.equal(again.body.length, 0);
        assert.equal(again.headers.etag, etag);
        assert.equal(again.headers['cache-control'], 'no-cache');
        assert.equal(again.headers['content-type'], undefined);
        assert.equal(again.headers['content-length'], undefined);
        assert.equal(again.headers['content-encoding'], undefined);
        assert.ok(again.headers['x-request-id']);
      }
    }
  });

  it('answer 200 to an If-None-Match that names another tag', async () => {
    const first = await send(eventPage());
    for (const ifNoneMatch of ['"another"', `${String(first.headers.etag).slice(0, -2)}"`, 'W/"another"']) {
      const again = await send(eventPage(), { 'if-none-match': ifNoneMatch });
      assert.equal(again.status, 200, ifNoneMatch);
      assert.deepEqual(again.body, first.body);
      assert.equal(again.headers.etag, first.headers.etag);
    }
  });

  it('change their ETag when a trader changes the odds: the old tag gets 200 and the new page', async () => {
    const before = await send(eventPage());
    const old = String(before.headers.etag);
    assert.equal((await send(eventPage(), { 'if-none-match': old })).status, 304);
    const compressedBefore = await send(eventPage(), { 'accept-encoding': 'br' });

    await trade('PUT', `/selections/${event.selectionId}/odds`, { odds: '2.35' });

    const after = await send(eventPage(), { 'if-none-match': old });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.etag, old);
    assert.equal(after.headers.etag, sha256Tag(after.body));
    const selections = JSON.parse(after.body.toString()).event.markets.flatMap(
      (market: { selections: unknown[] }) => market.selections,
    );
    assert.equal(selections.find((selection: { id: string }) => selection.id === event.selectionId).odds, '2.35');
    assert.equal((await send(eventPage(), { 'if-none-match': String(after.headers.etag) })).status, 304);
    // Its compressed form is the new page's, not the one compressed (and kept) before the change.
    const compressedAfter = await send(eventPage(), { 'if-none-match': old, 'accept-encoding': 'br' });
    assert.equal(compressedAfter.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(compressedAfter.body), after.body);
    assert.deepEqual(brotliDecompressSync(compressedBefore.body), before.body);
  });

  it('answer HEAD with the headers of the GET and no body, and 304 to its If-None-Match', async () => {
    const get = await send(eventPage(), { 'accept-encoding': 'br' });
    const head = await send(eventPage(), { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    for (const name of ['etag', 'cache-control', 'content-encoding', 'content-length', 'vary']) {
      assert.equal(head.headers[name], get.headers[name], name);
    }
    const revalidated = await send(eventPage(), { 'if-none-match': String(get.headers.etag) }, 'HEAD');
    assert.equal(revalidated.status, 304);
    assert.equal(revalidated.headers.etag, get.headers.etag);
    assert.equal(revalidated.headers['content-length'], undefined);
    assert.equal(revalidated.headers['content-type'], undefined);
  });

  it('keep no-store and no ETag on their errors, whatever If-None-Match says', async () => {
    for (const path of ['/api/v1/catalog/events/00000000-0000-4000-8000-000000000000', '/api/v1/catalog/search?q=x']) {
      const sent = await send(path, { 'if-none-match': '*' });
      assert.ok(sent.status === 404 || sent.status === 400, `${path}: ${sent.status}`);
      assert.equal(sent.headers['cache-control'], 'no-store');
      assert.equal(sent.headers.etag, undefined);
      assert.ok(JSON.parse(sent.body.toString()).error.code);
    }
  });
});

describe('JSON answers over 1 KiB, compressed', () => {
  it('leave a small answer as it is, whatever the client accepts', async () => {
    const sent = await send('/api/v1/catalog/sports', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    assert.ok(sent.body.length < 1024, `${sent.body.length} bytes`);
    assert.equal(sent.headers['content-encoding'], undefined);
    assert.equal(sent.headers.vary, undefined);
    assert.equal(JSON.parse(sent.body.toString()).sports[0].id, 'soccer');
  });

  it('send an event page brotli or gzip as accepted, decoding to the same JSON, with the same ETag', async () => {
    const plain = await send(eventPage(), { 'accept-encoding': 'identity' });
    assert.ok(plain.body.length > 2048, `the event page is ${plain.body.length} bytes`);
    assert.equal(plain.headers['content-encoding'], undefined);
    assert.equal(plain.headers.vary, 'Accept-Encoding');
    assert.equal(Number(plain.headers['content-length']), plain.body.length);
    const cases = [
      ['gzip, deflate, br, zstd', 'br', brotliDecompressSync],
      ['br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0.5, gzip', 'gzip', gunzipSync],
    ] as const;
    for (const [acceptEncoding, coding, decode] of cases) {
      const sent = await send(eventPage(), { 'accept-encoding': acceptEncoding });
      assert.equal(sent.status, 200);
      assert.equal(sent.headers['content-encoding'], coding, acceptEncoding);
      assert.equal(sent.headers.vary, 'Accept-Encoding');
      assert.equal(Number(sent.headers['content-length']), sent.body.length);
      assert.ok(sent.body.length < plain.body.length / 2, `${coding}: ${sent.body.length} of ${plain.body.length}`);
      assert.deepEqual(decode(sent.body), plain.body);
      assert.equal(sent.headers.etag, plain.headers.etag);
      assert.equal(sent.headers['cache-control'], 'no-cache');
    }
  });

  it('send plain to a client that accepts no coding of ours, or says nothing', async () => {
    const plain = await send(eventPage(), { 'accept-encoding': 'identity' });
    const offers: Array<Record<string, string>> = [
      {},
      { 'accept-encoding': 'deflate, zstd' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
    ];
    for (const headers of offers) {
      const sent = await send(eventPage(), headers);
      assert.equal(sent.headers['content-encoding'], undefined, JSON.stringify(headers));
      assert.deepEqual(sent.body, plain.body);
    }
  });
});

describe("answers that are not the catalog's", () => {
  it('keep no-store and no ETag: a player read, a trader read', async () => {
    const admin = (await loginAsStaff(t, 'platform_admin')).token;
    const tenant = await createTenant(t, admin);
    const session = await openSession(t, tenant, { externalPlayerId: 'caching-player' });
    assert.equal(session.status, 200, session.text);
    const player = { authorization: `Bearer ${session.body.token}` };
    const favourite = await t.request('PUT', `/api/v1/favourites/events/${event.id}`, { token: session.body.token });
    assert.ok(favourite.status < 300, favourite.text);

    const reads = [
      ['/api/v1/favourites', player],
      ['/api/v1/settings', player],
      ['/api/v1/bets', player],
      [`/api/v1/admin/trading/events/${event.id}`, { authorization: `Bearer ${trader}` }],
    ] as const;
    for (const [path, headers] of reads) {
      const sent = await send(path, { ...headers, 'if-none-match': '*', 'accept-encoding': 'identity' });
      assert.equal(sent.status, 200, `${path}: ${sent.body.toString()}`);
      assert.equal(sent.headers['cache-control'], 'no-store', path);
      assert.equal(sent.headers.etag, undefined, path);
    }
    // A big one is compressed all the same.
    const staffPage = await send(`/api/v1/admin/trading/events/${event.id}`, {
      authorization: `Bearer ${trader}`,
      'accept-encoding': 'br',
    });
    assert.equal(staffPage.headers['content-encoding'], 'br');
    assert.equal(staffPage.headers['cache-control'], 'no-store');
    assert.equal(JSON.parse(brotliDecompressSync(staffPage.body).toString()).event.id, event.id);
  });
});
