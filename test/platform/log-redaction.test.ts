import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type pino from 'pino';
import { createLogger } from '../../src/platform/http/logging.ts';
import { LogCapture, startTestApp, type TestApp } from '../helpers/app.ts';

function logged(write: (log: pino.Logger) => void): Array<Record<string, unknown>> {
  const capture = new LogCapture();
  write(createLogger('info', capture));
  return capture.lines.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('log lines never carry a credential', () => {
  it('a property named like one is redacted at any depth, in objects and arrays, and nothing else changes', () => {
    const [line] = logged((log) =>
      log.info(
        {
          token: 'tok-0',
          tenant: { id: 'tn_1', walletSecret: 'ws-1' },
          deep: { a: { b: { password: 'pw-3', kept: 3 } } },
          calls: [{ apiKey: 'key-1', endpoint: 'debit' }],
          headers: { 'x-api-key': 'xk', cookie: 'c=1', accept: 'json' },
        },
        'something happened',
      ),
    );
    assert.deepEqual(
      { ...line, time: 0, pid: 0, hostname: '' },
      {
        level: 30,
        time: 0,
        pid: 0,
        hostname: '',
        token: '[REDACTED]',
        tenant: { id: 'tn_1', walletSecret: '[REDACTED]' },
        deep: { a: { b: { password: '[REDACTED]', kept: 3 } } },
        calls: [{ apiKey: '[REDACTED]', endpoint: 'debit' }],
        headers: { 'x-api-key': '[REDACTED]', cookie: '[REDACTED]', accept: 'json' },
        msg: 'something happened',
      },
    );
  });

  it("an error's own properties are redacted, its message and type kept", () => {
    const error = Object.assign(new Error('the wallet refused'), { secret: 's3cr3t', status: 401 });
    const [line] = logged((log) => log.error({ err: error }, 'wallet call failed'));
    const err = line!.err as Record<string, unknown>;
    assert.equal(err.secret, '[REDACTED]');
    assert.equal(err.status, 401);
    assert.equal(err.message, 'the wallet refused');
    assert.equal(err.type, 'Error');
    assert.ok(!JSON.stringify(line).includes('s3cr3t'));
  });

  it('a line naming no credential is written as pino wrote it (a "token": inside a string is text)', () => {
    const capture = new LogCapture();
    createLogger('info', capture).info({ betId: 'bt_1', note: 'the "token": is text' }, 'bet placed');
    assert.match(
      capture.lines[0]!,
      /^\{"level":30,"time":\d+,"pid":\d+,"hostname":"[^"]*","betId":"bt_1","note":"the \\"token\\": is text","msg":"bet placed"\}$/,
    );
  });
});

describe("an API request's log lines", () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  it('never carry its credentials, in headers or in the address', async () => {
    await t.request('GET', '/api/v1/wallet/balance?token=launch-in-url-1234', {
      headers: { authorization: 'Bearer bearer-secret-5678', 'x-api-key': 'api-key-secret-9012' },
    });
    assert.ok(t.logs.lines.length > 0);
    for (const secret of ['launch-in-url-1234', 'bearer-secret-5678', 'api-key-secret-9012']) {
      assert.ok(!t.logs.text.includes(secret), `logged: ${secret}`);
    }
  });
});
