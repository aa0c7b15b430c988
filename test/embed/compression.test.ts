// The built files (the iframe app's page and assets, the SDK, the console's page and assets) are sent in the form
// the browser accepts: brotli, else gzip, else as built; written beside each file by `npm run build`. Read with
// node:http, which leaves the bytes as sent (fetch would decompress them).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONSOLE_DIR } from '../../src/console/routes.ts';
import { APP_ASSETS_DIR, APP_DIR, BUILD_HINT, SDK_FILE } from '../../src/embed/builds.ts';
import { PrecompressedFile } from '../../src/platform/http/compressed.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';

const ASSET_CACHE = 'public, max-age=31536000, immutable';

let t: TestApp;
/** The iframe app's main script as built, and its URL. */
let script: { url: string; file: string };
before(async () => {
  assert.ok(existsSync(APP_DIR) && existsSync(SDK_FILE) && existsSync(CONSOLE_DIR), BUILD_HINT);
  t = await startTestApp();
  const name = /src="\/assets\/([^"]+\.js)"/.exec(readFileSync(join(APP_DIR, 'index.html'), 'utf8'))?.[1];
  assert.ok(name, 'the page loads a hashed script');
  script = { url: `/assets/${name}`, file: join(APP_ASSETS_DIR, name) };
});
after(() => t.close());

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

const accepting = (acceptEncoding: string, path = script.url) => send(path, { 'accept-encoding': acceptEncoding });
const decoded = {
  br: (body: Buffer) => brotliDecompressSync(body),
  gzip: (body: Buffer) => gunzipSync(body),
  identity: (body: Buffer) => body,
};

/** The answer is `coding`, says so, says it varies by Accept-Encoding, and is the file as built once decoded. */
function assertForm(sent: Sent, coding: keyof typeof decoded, file: string): void {
  assert.equal(sent.status, 200);
  assert.equal(sent.headers['content-encoding'], coding === 'identity' ? undefined : coding);
  assert.equal(sent.headers.vary, 'Accept-Encoding');
  assert.equal(Number(sent.headers['content-length']), sent.body.length);
  assert.deepEqual(decoded[coding](sent.body), readFileSync(file));
}

describe('the app assets (GET /assets/*), compressed', () => {
  it('are sent brotli to a browser accepting it, and decode to the file as built', async () => {
    const sent = await accepting('gzip, deflate, br, zstd');
    assertForm(sent, 'br', script.file);
    assert.deepEqual(sent.body, readFileSync(`${script.file}.br`));
    assert.equal(sent.headers['content-type'], 'application/javascript; charset=utf-8');
  });

  it('are sent gzip to a browser accepting gzip only', async () => {
    assertForm(await accepting('gzip'), 'gzip', script.file);
  });

  it('honour quality values: q=0 refuses a coding, the higher quality wins', async () => {
    assertForm(await accepting('br;q=0, gzip'), 'gzip', script.file);
    assertForm(await accepting('br;q=0.5, gzip;q=1'), 'gzip', script.file);
    assertForm(await accepting('br;q=0, gzip;q=0'), 'identity', script.file);
  });

  it('are sent as built when nothing acceptable is offered', async () => {
    for (const acceptEncoding of [undefined, 'identity', 'deflate', 'zstd']) {
      const sent = await send(script.url, acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding });
      assertForm(sent, 'identity', script.file);
      assert.equal(sent.headers['content-type'], 'application/javascript; charset=utf-8');
    }
  });

  it('keep their immutable caching in every form', async () => {
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const sent = await accepting(acceptEncoding);
      assert.equal(sent.headers['cache-control'], ASSET_CACHE, acceptEncoding);
      assert.equal(sent.headers['x-content-type-options'], 'nosniff');
    }
  });

  it('answer HEAD with the headers of the GET, and no body', async () => {
    for (const acceptEncoding of ['br', 'gzip', 'identity']) {
      const head = await send(script.url, { 'accept-encoding': acceptEncoding }, 'HEAD');
      const get = await accepting(acceptEncoding);
      assert.equal(head.status, 200);
      assert.equal(head.body.length, 0);
      assert.equal(Number(head.headers['content-length']), get.body.length);
      for (const name of ['content-encoding', 'content-type', 'vary', 'cache-control', 'etag']) {
        assert.equal(head.headers[name], get.headers[name], `${acceptEncoding}: ${name}`);
      }
    }
  });

  it('give each form its own ETag, and a 304 only for the form the browser holds', async () => {
    const etags = await Promise.all(
      ['br', 'gzip', 'identity'].map(async (coding) => (await accepting(coding)).headers.etag),
    );
    assert.equal(new Set(etags).size, 3, `${etags.join(', ')}`);
    const [brotli] = etags as string[];
    assert.equal((await send(script.url, { 'accept-encoding': 'br', 'if-none-match': brotli! })).status, 304);
    assertForm(await send(script.url, { 'accept-encoding': 'gzip', 'if-none-match': brotli! }), 'gzip', script.file);
  });

  it('serve a Range out of the form sent', async () => {
    const sent = await send(script.url, { 'accept-encoding': 'br', range: 'bytes=0-99' });
    const brotli = readFileSync(`${script.file}.br`);
    assert.equal(sent.status, 206);
    assert.equal(sent.headers['content-encoding'], 'br');
    assert.equal(sent.headers['content-range'], `bytes 0-99/${brotli.length}`);
    assert.equal(Number(sent.headers['content-length']), 100);
    assert.deepEqual(sent.body, brotli.subarray(0, 100));
  });

  it('never answer a compressed file by its own name', async () => {
    for (const path of [`${script.url}.br`, `${script.url}.gz`, `${script.url}.BR`]) {
      for (const acceptEncoding of ['br', 'gzip', 'identity']) {
        const sent = await accepting(acceptEncoding, path);
        assert.equal(sent.status, 404, `${path} (${acceptEncoding})`);
        assert.deepEqual(JSON.parse(sent.body.toString()), {
          error: { code: 'not_found', message: 'No such endpoint.', requestId: sent.headers['x-request-id'] },
        });
      }
    }
  });

  it('are all written compressed by the build, each form smaller than the one it replaces', () => {
    for (const name of readdirSync(APP_ASSETS_DIR).filter((file) => /\.(?:js|css)$/.test(file))) {
      const file = join(APP_ASSETS_DIR, name);
      const [identity, gzip, brotli] = [file, `${file}.gz`, `${file}.br`].map((path) => readFileSync(path).length);
      assert.ok(brotli! < gzip! && gzip! < identity!, `${name}: ${brotli} < ${gzip} < ${identity}`);
    }
  });
});

describe('the sportsbook page (GET /?tenant=), compressed', () => {
  const page = join(APP_DIR, 'index.html');

  it('is sent brotli or gzip as accepted, never cached, with its frame policy', async () => {
    for (const coding of ['br', 'gzip', 'identity'] as const) {
      const sent = await accepting(coding, '/?tenant=tn_nobody');
      assertForm(sent, coding, page);
      assert.equal(sent.headers['cache-control'], 'no-store');
      assert.equal(sent.headers['content-type'], 'text/html; charset=utf-8');
      assert.match(String(sent.headers['content-security-policy']), /frame-ancestors 'self'/);
    }
    assertForm(await accepting('br;q=0, gzip', '/?tenant=tn_nobody'), 'gzip', page);
  });

  it('answers HEAD with the headers of the GET, and no body', async () => {
    const head = await send('/?tenant=tn_nobody', { 'accept-encoding': 'br' }, 'HEAD');
    const get = await accepting('br', '/?tenant=tn_nobody');
    assert.equal(head.status, 200);
    assert.equal(head.body.length, 0);
    assert.equal(Number(head.headers['content-length']), get.body.length);
    for (const name of ['content-encoding', 'content-type', 'vary', 'cache-control']) {
      assert.equal(head.headers[name], get.headers[name], name);
    }
  });
});

describe('the SDK (GET /embed/v1.js), compressed', () => {
  it("is sent brotli or gzip as accepted, with the contract's cache rule", async () => {
    for (const coding of ['br', 'gzip', 'identity'] as const) {
      const sent = await accepting(coding, '/embed/v1.js');
      assertForm(sent, coding, SDK_FILE);
      assert.equal(sent.headers['cache-control'], 'public, max-age=3600, stale-while-revalidate=86400');
      assert.equal(sent.headers['content-type'], 'text/javascript; charset=utf-8');
    }
  });
});

describe('the staff console (GET /admin, /admin/assets/*), compressed', () => {
  it('is sent brotli or gzip as accepted: the page never cached, the assets immutable', async () => {
    const page = join(CONSOLE_DIR, 'index.html');
    const name = /src="\/admin\/assets\/([^"]+\.js)"/.exec(readFileSync(page, 'utf8'))?.[1];
    for (const coding of ['br', 'gzip', 'identity'] as const) {
      const html = await accepting(coding, '/admin/bets');
      assertForm(html, coding, page);
      assert.equal(html.headers['cache-control'], 'no-store');
      const asset = await accepting(coding, `/admin/assets/${name}`);
      assertForm(asset, coding, join(CONSOLE_DIR, 'assets', name!));
      assert.equal(asset.headers['cache-control'], ASSET_CACHE);
    }
    assert.equal((await accepting('br', `/admin/assets/${name}.br`)).status, 404);
  });
});

describe('a built file with a route of its own', () => {
  /** A file and its two forms, written in that order, as the build writes them. */
  function built(text: string): string {
    const file = join(mkdtempSync(join(tmpdir(), 'bookmaker-built-')), 'v1.js');
    writeFileSync(file, text);
    writeFileSync(`${file}.gz`, gzipSync(text));
    writeFileSync(`${file}.br`, brotliCompressSync(text));
    return file;
  }
  async function answer(file: PrecompressedFile, acceptEncoding: string) {
    const headers: Record<string, string> = {};
    const request = { headers: { 'accept-encoding': acceptEncoding } } as unknown as FastifyRequest;
    const reply = { header: (name: string, value: string) => (headers[name] = value) } as unknown as FastifyReply;
    const body = await file.bodyFor(request, reply);
    return { body, encoding: headers['content-encoding'] };
  }

  it('is sent in the form the quality values prefer: br before gzip at equal quality, * for the codings not named', async () => {
    const file = new PrecompressedFile(built('window.Bookmaker = {};'));
    const cases: Array<[string, string | undefined]> = [
      ['gzip, deflate, br', 'br'],
      ['gzip;q=1, br;q=0.8', 'gzip'],
      ['br;q=0, gzip', 'gzip'],
      ['BR', 'br'],
      ['*', 'br'],
      ['*;q=0.5, gzip', 'gzip'],
      ['gzip;q=0, *', 'br'],
      ['*;q=0', undefined],
      ['gzip;q=abc', undefined],
      ['identity', undefined],
      ['', undefined],
    ];
    for (const [acceptEncoding, expected] of cases) {
      assert.equal((await answer(file, acceptEncoding)).encoding, expected, acceptEncoding);
    }
  });

  it('is sent as it is when a form is older than the file: that form is left from an earlier build', async () => {
    const path = built('window.Bookmaker = { version: 1 };');
    const past = new Date(Date.UTC(2020, 0, 1));
    utimesSync(`${path}.br`, past, past);
    const file = new PrecompressedFile(path);
    assert.deepEqual(await answer(file, 'br'), { body: readFileSync(path), encoding: undefined });
    assert.deepEqual(await answer(file, 'br, gzip'), { body: readFileSync(`${path}.gz`), encoding: 'gzip' });
  });

  it('is null while it is not built', async () => {
    const file = new PrecompressedFile(join(tmpdir(), 'bookmaker-nothing-here', 'v1.js'));
    assert.equal((await answer(file, 'br')).body, null);
  });
});
