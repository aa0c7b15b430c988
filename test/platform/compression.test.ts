// JSON answers of 1 KiB or more go out brotli or gzip as the request accepts (src/platform/http/compressed.ts); nothing
// else is compressed as it is sent: not an event stream (never held back either), not a body that already has a
// content coding (a built file), not other text. On the service's own HTTP plumbing (createHttp), with routes of the
// test's own; read with node:http, which leaves the bytes as sent.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createHttp } from '../../src/app-http.ts';
import { platformErrors } from '../../src/platform/errors.ts';
import type { TypedApp } from '../../src/platform/http/types.ts';
import { LogCapture, testConfig } from '../helpers/app.ts';

let http: TypedApp;
let url: string;
/** The event stream of the test under way; its first event is written at once, the rest when the test says. */
let stream: PassThrough;

/** `{"pad":"xxx…"}` of exactly `bytes` bytes. */
const jsonOf = (bytes: number) => ({ pad: 'x'.repeat(bytes - '{"pad":""}'.length) });
const EVENT = `data: ${'{"odds":"2.10"}'.repeat(100)}\n\n`;

before(async () => {
  http = createHttp(testConfig(), new LogCapture(), { onFirstUse: false });
  http.get('/json/:bytes', async (request) => jsonOf(Number((request.params as { bytes: string }).bytes)));
  http.get('/vary', async (_request, reply) => reply.header('vary', 'X-Tenant-ID').send(jsonOf(4096)));
  http.get('/error', async () => {
    throw platformErrors.validation({ field: 'q', in: 'query', why: 'y'.repeat(2048) });
  });
  http.get('/built', async (_request, reply) =>
    reply
      .type('application/json; charset=utf-8')
      .header('content-encoding', 'br')
      .send(brotliCompressSync(JSON.stringify(jsonOf(4096)))),
  );
  http.get('/csv', async (_request, reply) => reply.type('text/csv; charset=utf-8').send('a,b\n'.repeat(1024)));
  http.get('/stream', async (_request, reply) => {
    stream = new PassThrough();
    stream.write(EVENT);
    return reply.type('text/event-stream').send(stream);
  });
  url = await http.listen({ port: 0, host: '127.0.0.1' });
});
after(() => http.close());

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** One request; the answer's bytes exactly as they came over the connection. */
function send(path: string, acceptEncoding: string): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${url}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
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

describe('JSON answers', () => {
  it('are compressed from 1 KiB (1,024 bytes) up, not below', async () => {
    const below = await send('/json/1023', 'br, gzip');
    assert.equal(below.headers['content-encoding'], undefined);
    assert.equal(below.headers.vary, undefined);
    assert.equal(below.body.length, 1023);

    const at = await send('/json/1024', 'br, gzip');
    assert.equal(at.headers['content-encoding'], 'br');
    assert.equal(at.headers.vary, 'Accept-Encoding');
    assert.equal(brotliDecompressSync(at.body).length, 1024);
  });

  it('over 64 KiB too (compressed off the event loop), brotli and gzip alike', async () => {
    const plain = await send('/json/300000', 'identity');
    assert.equal(plain.body.length, 300_000);
    const br = await send('/json/300000', 'br');
    assert.equal(br.headers['content-encoding'], 'br');
    assert.deepEqual(brotliDecompressSync(br.body), plain.body);
    const gzip = await send('/json/300000', 'gzip');
    assert.equal(gzip.headers['content-encoding'], 'gzip');
    assert.equal(Number(gzip.headers['content-length']), gzip.body.length);
    assert.deepEqual(gunzipSync(gzip.body), plain.body);
  });

  it("keep the route's Vary and add Accept-Encoding to it", async () => {
    const sent = await send('/vary', 'gzip');
    assert.equal(sent.headers['content-encoding'], 'gzip');
    assert.equal(sent.headers.vary, 'X-Tenant-ID, Accept-Encoding');
  });

  it('an error among them: compressed, in the one error shape, with no-store', async () => {
    const sent = await send('/error', 'br');
    assert.equal(sent.status, 400);
    assert.equal(sent.headers['content-encoding'], 'br');
    assert.equal(sent.headers['cache-control'], 'no-store');
    const body = JSON.parse(brotliDecompressSync(sent.body).toString());
    assert.equal(body.error.code, 'validation');
    assert.equal(body.error.requestId, sent.headers['x-request-id']);
  });
});

describe('what is never compressed as it is sent', () => {
  it('a body that already has a content coding (a built file): sent as it is, once', async () => {
    const sent = await send('/built', 'br, gzip');
    assert.equal(sent.headers['content-encoding'], 'br');
    assert.equal(JSON.parse(brotliDecompressSync(sent.body).toString()).pad.length, 4096 - 10);
  });

  it('text that is not JSON', async () => {
    const sent = await send('/csv', 'br, gzip');
    assert.equal(sent.headers['content-encoding'], undefined);
    assert.equal(sent.body.toString(), 'a,b\n'.repeat(1024));
  });

  it('an event stream: neither compressed nor held back, each event arrives as it is written', async () => {
    const received: Buffer[] = [];
    const answer = await new Promise<{ headers: Record<string, string | string[] | undefined>; ended: Promise<void> }>(
      (resolve, reject) => {
        const request = httpRequest(`${url}/stream`, { headers: { 'accept-encoding': 'br, gzip' } }, (response) => {
          const ended = new Promise<void>((end) => response.on('end', end));
          response.on('data', (chunk: Buffer) => {
            received.push(chunk);
            resolve({ headers: response.headers, ended });
          });
        });
        request.on('error', reject);
        request.end();
      },
    );
    // The first event came while the stream is still open, as written.
    assert.equal(answer.headers['content-type'], 'text/event-stream');
    assert.equal(answer.headers['content-encoding'], undefined);
    assert.equal(Buffer.concat(received).toString(), EVENT);
    stream.end(EVENT);
    await answer.ended;
    assert.equal(Buffer.concat(received).toString(), EVENT + EVENT);
  });
});
