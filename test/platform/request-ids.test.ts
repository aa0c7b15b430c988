import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { installErrorHandling } from '../../src/platform/http/errors.ts';
import { installResponseDefaults } from '../../src/platform/http/headers.ts';
import { loggerOptions } from '../../src/platform/http/logging.ts';
import { LogCapture, startTestApp, type TestApp } from '../helpers/app.ts';
import { rawExchange } from '../helpers/raw-http.ts';

/**
 * One id names a request everywhere: the X-Request-Id of its answer, `error.requestId` in an error body, and the
 * `reqId` of every log line written while it was served. A partner quoting a refusal points at its lines.
 */

let t: TestApp;
before(async () => (t = await startTestApp()));
after(() => t.close());

interface Seen {
  status: number;
  header: string | null;
  body: { error: Record<string, unknown> };
}

/** The answer as sent: the test helpers take `requestId` out of error bodies once they have checked it. */
async function send(path: string, init: RequestInit = {}): Promise<Seen> {
  const response = await fetch(`${t.url}${path}`, init);
  return { status: response.status, header: response.headers.get('x-request-id'), body: await response.json() };
}

const linesOf = (requestId: string) =>
  t.logs.lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.reqId === requestId);

describe('every error answer carries its request id in the body and the X-Request-Id header', () => {
  it('a refusal of the router, of a schema, of the JSON parser, of a guard: requestId is the X-Request-Id', async () => {
    const json = { 'content-type': 'application/json' };
    const answers = {
      not_found: await send('/api/v1/nowhere'),
      validation: await send('/api/v1/admin/auth/login', { method: 'POST', headers: json, body: '{}' }),
      bad_request: await send('/api/v1/admin/auth/login', { method: 'POST', headers: json, body: '{' }),
      unauthorized: await send('/api/v1/admin/staff'),
    };
    for (const [code, answer] of Object.entries(answers)) {
      assert.equal(answer.body.error.code, code);
      assert.match(answer.header ?? '', /^[0-9a-f-]{36}$/, code);
      assert.equal(answer.body.error.requestId, answer.header, code);
    }
  });

  it('the id a client sends is the one answered and logged', async () => {
    const answer = await send('/api/v1/nowhere', { headers: { 'x-request-id': 'casino-7f3a:42' } });
    assert.equal(answer.header, 'casino-7f3a:42');
    assert.deepEqual(answer.body.error, {
      code: 'not_found',
      message: 'No such endpoint.',
      requestId: 'casino-7f3a:42',
    });
    assert.deepEqual(
      linesOf('casino-7f3a:42').map((line) => line.msg),
      ['incoming request', 'request completed'],
    );
  });

  it("an answer written below Fastify (Node's parser refused the request) carries it too, and so does its line", async () => {
    const answer = await rawExchange(t.url, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
    const requestId = answer.headers.get('x-request-id')!;
    assert.equal(answer.status, 400);
    assert.deepEqual(JSON.parse(answer.text), {
      error: { code: 'bad_request', message: 'The request is not valid HTTP/1.1.', requestId },
    });
    assert.deepEqual(
      linesOf(requestId).map((line) => line.msg),
      ['request refused by the HTTP parser'],
    );
  });
});

/** A JSON body sent in parts some time apart: its end arrives in a socket event of its own, as on a real network. */
function postSlowly(url: string, parts: string[]): Promise<IncomingMessage & { text: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve(Object.assign(response, { text })));
    });
    sent.on('error', reject);
    const next = (index: number) => {
      if (index === parts.length) return sent.end();
      sent.write(parts[index]);
      setTimeout(() => next(index + 1), 50);
    };
    next(0);
  });
}

describe('every log line of a request carries its id as reqId', () => {
  it('lines of the request logger and of the root logger (a service) alike, after the body was read, once', async () => {
    const logs = new LogCapture();
    const app = Fastify({ logger: loggerOptions('info', logs) });
    installErrorHandling(app);
    installResponseDefaults(app);
    app.post('/work', async (request) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      app.log.info('logged by a service');
      request.log.info('logged by the route');
      throw new Error('broken');
    });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const response = await postSlowly(`${url}/work`, ['{"some":', ' "body"}']);
      const requestId = response.headers['x-request-id'];
      assert.equal(response.statusCode, 500);
      assert.equal((JSON.parse(response.text) as { error: { requestId: string } }).error.requestId, requestId);
      const lines = logs.lines.filter((line) => line.includes('"reqId"'));
      assert.deepEqual(
        lines.map((line) => (JSON.parse(line) as { msg: string }).msg),
        ['incoming request', 'logged by a service', 'logged by the route', 'unhandled error', 'request completed'],
      );
      for (const line of lines) {
        assert.equal((JSON.parse(line) as { reqId: string }).reqId, requestId);
        assert.equal(line.split('"reqId"').length, 2, `reqId once: ${line}`);
      }
      app.log.info('between requests');
      assert.doesNotMatch(logs.lines.at(-1)!, /reqId/, 'a line outside any request has none');
    } finally {
      await app.close();
    }
  });
});
