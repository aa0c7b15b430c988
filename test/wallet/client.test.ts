import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { WalletClient } from '../../src/wallet/delivery/client.ts';
import { movementBody } from '../../src/wallet/ledger/movement.ts';
import { classifyAnswer } from '../../src/wallet/delivery/answers.ts';
import {
  IDLE_CONNECTION_MS,
  TransportRefused,
  TransportTimeout,
  WalletTransport,
  type TransportPolicy,
} from '../../src/wallet/delivery/transport.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

const clock = new ManualClock('2026-03-01T12:00:00Z');
const DEVELOPMENT: TransportPolicy = { allowLoopback: true, requireHttps443: false, timeoutMs: 5_000 };
const STAGING: TransportPolicy = { allowLoopback: false, requireHttps443: true, timeoutMs: 5_000 };

let w: TestWallet;
let client: WalletClient;
let n = 0;
before(async () => {
  w = await startTestWallet(clock);
  client = new WalletClient(new WalletTransport({ ...DEVELOPMENT, timeoutMs: 300 }), clock);
});
after(() => w.close());
beforeEach(async () => {
  n += 1;
  w.wallet.faults.length = 0;
  await w.addPlayer(`p${n}`, 10_000);
});

function debit(amount = 1_000) {
  const txId = `bet:b${n}`;
  const body = movementBody({ txId, playerId: `p${n}`, amount, currency: 'BRL', kind: 'bet', betId: `b${n}` });
  return client.send({ walletUrl: w.url, secret: w.secret }, 'debit', body, { txId, currency: 'BRL' });
}

describe('wallet client: the delivery table over real HTTP', () => {
  it('2xx with matching txId, currency and integer balance is applied', async () => {
    const attempt = await debit();
    assert.equal(attempt.outcome, 'applied');
    assert.deepEqual(
      { ...attempt, durationMs: 0 },
      { outcome: 'applied', status: 200, balance: 9_000, currency: 'BRL', durationMs: 0 },
    );
  });

  it('a 4xx with a valid envelope is refused, with the operator code', async () => {
    const attempt = await debit(10_001);
    assert.equal(attempt.outcome, 'refused');
    assert.equal(attempt.outcome === 'refused' && attempt.code, 'insufficient_funds');
    assert.equal(attempt.status, 402);
  });

  const unknownCases: Array<[string, Parameters<TestWallet['fault']>[0], string]> = [
    ['408', { mode: 'status_408' }, 'status_408'],
    ['429', { mode: 'status_429' }, 'status_429'],
    ['500', { mode: 'status_500' }, 'status_5xx'],
    ['503', { mode: 'status_503' }, 'status_5xx'],
    ['a malformed 2xx body', { mode: 'malformed', apply: true }, 'malformed_body'],
    ['a 4xx with an empty body', { mode: 'empty_4xx' }, 'malformed_body'],
    ['a mismatching txId', { mode: 'wrong_tx_id', apply: true }, 'txid_mismatch'],
    ['a mismatching currency', { mode: 'wrong_currency', apply: true }, 'currency_mismatch'],
    ['no answer before the timeout', { mode: 'delay', delayMs: 600 }, 'timeout'],
  ];
  for (const [name, fault, reason] of unknownCases) {
    it(`${name} is unknown (${reason})`, async () => {
      w.fault(fault);
      const attempt = await debit();
      assert.equal(attempt.outcome, 'unknown');
      assert.equal(attempt.outcome === 'unknown' && attempt.reason, reason);
    });
  }

  it('a connection error is unknown', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const body = movementBody({ txId: 'bet:x', playerId: 'p', amount: 1, currency: 'BRL', kind: 'bet' });
    const attempt = await client.send({ walletUrl: `http://127.0.0.1:${port}`, secret: 's' }, 'debit', body, {
      txId: 'bet:x',
      currency: 'BRL',
    });
    assert.equal(attempt.outcome === 'unknown' && attempt.reason, 'connection_error');
  });

  it('balance needs no txId echo but does need the currency and an integer balance', () => {
    const expected = { endpoint: 'balance' as const, txId: 'balance:1', currency: 'BRL' };
    assert.equal(classifyAnswer(200, '{"balance":5,"currency":"BRL"}', expected).outcome, 'applied');
    assert.equal(classifyAnswer(200, '{"balance":5.5,"currency":"BRL"}', expected).outcome, 'unknown');
    assert.equal(classifyAnswer(200, '{"balance":"5","currency":"BRL"}', expected).outcome, 'unknown');
    assert.equal(classifyAnswer(200, '{"balance":5,"currency":"USD"}', expected).outcome, 'unknown');
  });

  it('a movement 2xx without the txId echo is unknown', () => {
    const expected = { endpoint: 'credit' as const, txId: 'payout:b:1', currency: 'BRL' };
    assert.deepEqual(classifyAnswer(200, '{"balance":5,"currency":"BRL"}', expected), {
      outcome: 'unknown',
      status: 200,
      reason: 'txid_mismatch',
      detail: 'got null',
    });
  });

  it('an error envelope needs a nonempty code and a message', () => {
    const expected = { endpoint: 'debit' as const, txId: 't', currency: 'BRL' };
    assert.equal(
      classifyAnswer(403, '{"error":{"code":"player_blocked","message":"no"}}', expected).outcome,
      'refused',
    );
    assert.equal(classifyAnswer(403, '{"error":{"code":"","message":"no"}}', expected).outcome, 'unknown');
    assert.equal(classifyAnswer(403, '{"error":{"code":"x"}}', expected).outcome, 'unknown');
    assert.equal(classifyAnswer(302, '', expected).outcome, 'unknown');
  });

  it("the wallet's code and message are kept as well-formed text: a lone surrogate or a NUL becomes U+FFFD", () => {
    const expected = { endpoint: 'debit' as const, txId: 't', currency: 'BRL' };
    const answer = '{"error":{"code":"blocked_\\ud800","message":"no\\u0000 way"}}';
    assert.deepEqual(classifyAnswer(403, answer, expected), {
      outcome: 'refused',
      status: 403,
      code: 'blocked_\uFFFD',
      message: 'no\uFFFD way',
    });
  });

  it('signs each attempt with a fresh timestamp over the same body bytes', async () => {
    const body = movementBody({
      txId: `payout:b${n}:1`,
      playerId: `p${n}`,
      amount: 5,
      currency: 'BRL',
      kind: 'payout',
      betId: `b${n}`,
    });
    const target = { walletUrl: w.url, secret: w.secret };
    const expected = { txId: `payout:b${n}:1`, currency: 'BRL' };
    assert.equal((await client.send(target, 'credit', body, expected)).outcome, 'applied');
    clock.advance(400_000);
    const retry = await client.send(target, 'credit', body, expected);
    assert.equal(retry.outcome, 'applied');
    assert.equal(retry.outcome === 'applied' && retry.balance, 10_005);
    clock.set('2026-03-01T12:00:00Z');
  });
});

/** A loopback listener that must see no connection when an address is refused. */
async function countingListener(): Promise<{
  server: Server;
  port: number;
  connections: () => number;
  hosts: string[];
}> {
  let connections = 0;
  const hosts: string[] = [];
  const server = createServer((req, res) => {
    hosts.push(req.headers.host ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"balance":1,"currency":"BRL"}');
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '::', resolve));
  return { server, port: (server.address() as AddressInfo).port, connections: () => connections, hosts };
}

describe('wallet transport: SSRF rules', () => {
  let listener: Awaited<ReturnType<typeof countingListener>>;
  before(async () => (listener = await countingListener()));
  after(() => new Promise((resolve) => listener.server.close(resolve)));

  const loopbackForms = (port: number) => [
    `http://127.0.0.1:${port}`,
    `https://127.0.0.1:${port}`,
    `http://[::1]:${port}`,
    `http://[::ffff:7f00:1]:${port}`,
    `http://[::ffff:127.0.0.1]:${port}`,
    `http://2130706433:${port}`,
    `http://0x7f.0.0.1:${port}`,
    `http://127.1:${port}`,
  ];

  it('outside development, every loopback form is refused before any connection', async () => {
    const transport = new WalletTransport({ ...STAGING, requireHttps443: false });
    for (const url of loopbackForms(listener.port)) {
      await assert.rejects(transport.post(`${url}/balance`, '{}', {}), TransportRefused, url);
    }
    assert.equal(listener.connections(), 0);
  });

  it('a name resolving to loopback is refused outside development, without a connection', async () => {
    const transport = new WalletTransport({ ...STAGING, requireHttps443: false }, async () => ['127.0.0.1']);
    await assert.rejects(transport.post(`https://wallet.example:${listener.port}/balance`, '{}', {}), {
      reason: 'address',
    });
    assert.equal(listener.connections(), 0);
  });

  it('refuses private, link-local, metadata, CGNAT, multicast, unspecified, unique-local and mapped addresses', async () => {
    const transport = new WalletTransport({ ...STAGING, requireHttps443: false });
    const refused = [
      '10.0.0.1',
      '172.16.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '100.100.100.200',
      '224.0.0.1',
      '0.0.0.0',
      '255.255.255.255',
      '[fe80::1]',
      '[fc00::1]',
      '[fd00:ec2::254]',
      '[::ffff:a00:1]',
      '[::]',
      '198.18.0.1',
      '[::7f00:1]',
      '[::a00:1]',
    ];
    for (const host of refused) {
      await assert.rejects(transport.checkedAddress(new URL(`https://${host}/`)), { reason: 'address' }, host);
    }
  });

  it('refuses a name whose answers mix public and private addresses', async () => {
    const transport = new WalletTransport(STAGING, async () => ['93.184.216.34', '10.0.0.5']);
    await assert.rejects(transport.checkedAddress(new URL('https://wallet.example/')), { reason: 'address' });
  });

  it('accepts a public https address on port 443 outside development', async () => {
    const transport = new WalletTransport(STAGING, async () => ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']);
    assert.equal(await transport.checkedAddress(new URL('https://wallet.example/')), '93.184.216.34');
    assert.equal(await transport.checkedAddress(new URL('https://wallet.example:443/')), '93.184.216.34');
  });

  it('outside development requires https and port 443', async () => {
    const transport = new WalletTransport(STAGING, async () => ['93.184.216.34']);
    await assert.rejects(transport.checkedAddress(new URL('http://wallet.example/')), { reason: 'scheme' });
    await assert.rejects(transport.checkedAddress(new URL('https://wallet.example:8443/')), { reason: 'port' });
  });

  it('in development plain http is allowed to loopback only', async () => {
    const transport = new WalletTransport(DEVELOPMENT, async () => ['93.184.216.34']);
    await assert.rejects(transport.checkedAddress(new URL('http://wallet.example/')), { reason: 'scheme' });
    await assert.rejects(transport.checkedAddress(new URL('http://10.0.0.1/')), { reason: 'address' });
    assert.equal(await transport.checkedAddress(new URL('http://127.0.0.1:9/')), '127.0.0.1');
  });

  it('resolves once and connects to the checked address, sending the original Host', async () => {
    let lookups = 0;
    const transport = new WalletTransport(DEVELOPMENT, async () => {
      lookups += 1;
      return ['127.0.0.1'];
    });
    const before = listener.connections();
    const answer = await transport.post(`http://wallet.test:${listener.port}/balance`, '{}', {});
    assert.equal(answer.status, 200);
    assert.equal(lookups, 1);
    assert.equal(listener.connections(), before + 1);
    assert.equal(listener.hosts.at(-1), `wallet.test:${listener.port}`);
  });

  it('ignores proxy environment variables, even with NODE_USE_ENV_PROXY', async () => {
    const proxy = await countingListener();
    const proxyUrl = `http://127.0.0.1:${proxy.port}`;
    // Node reads proxy settings at start-up, so the call runs in a process started with them.
    const script = `
      import { WalletTransport } from ${JSON.stringify(new URL('../../src/wallet/delivery/transport.ts', import.meta.url).href)};
      const answer = await new WalletTransport({ allowLoopback: true, requireHttps443: false, timeoutMs: 5000 })
        .post('http://127.0.0.1:${listener.port}/balance', '{}', {});
      process.stdout.write(String(answer.status));`;
    try {
      const status = await new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
          env: {
            ...process.env,
            NODE_USE_ENV_PROXY: '1',
            HTTP_PROXY: proxyUrl,
            http_proxy: proxyUrl,
            HTTPS_PROXY: proxyUrl,
          },
        });
        let out = '';
        child.stdout.on('data', (chunk) => (out += chunk));
        child.stderr.on('data', (chunk) => (out += chunk));
        child.on('error', reject);
        child.on('close', () => resolve(out));
      });
      assert.equal(status, '200');
      assert.equal(proxy.connections(), 0);
    } finally {
      await new Promise((resolve) => proxy.server.close(resolve));
    }
  });

  it('counts name resolution against the timeout', async () => {
    const slowDns = new WalletTransport(
      { ...DEVELOPMENT, timeoutMs: 200 },
      () => new Promise((resolve) => setTimeout(() => resolve(['127.0.0.1']), 2_000)),
    );
    const started = Date.now();
    await assert.rejects(slowDns.post(`http://wallet.test:${listener.port}/balance`, '{}', {}), TransportTimeout);
    assert.ok(Date.now() - started < 1_500);
  });

  it('follows no redirect', async () => {
    const target = await countingListener();
    const redirecting = createServer((_req, res) =>
      res.writeHead(307, { location: `http://127.0.0.1:${target.port}/balance` }).end(),
    );
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirecting.address() as AddressInfo).port;
      const body = movementBody({ txId: 'balance:r', playerId: 'p', amount: 0, currency: 'BRL', kind: 'balance' });
      const attempt = await new WalletClient(new WalletTransport(DEVELOPMENT), clock).send(
        { walletUrl: `http://127.0.0.1:${port}`, secret: 's' },
        'balance',
        body,
        { txId: 'balance:r', currency: 'BRL' },
      );
      assert.equal(attempt.outcome === 'unknown' && attempt.reason, 'unexpected_status');
      assert.equal(target.connections(), 0);
    } finally {
      await new Promise((resolve) => redirecting.close(resolve));
      await new Promise((resolve) => target.server.close(resolve));
    }
  });
});

describe('wallet transport: kept-alive connections', () => {
  let listener: Awaited<ReturnType<typeof countingListener>>;
  before(async () => (listener = await countingListener()));
  after(() => new Promise((resolve) => listener.server.close(resolve)));

  it('reuses a connection for the next call to the same checked address, host and port', async () => {
    const transport = new WalletTransport(DEVELOPMENT);
    const before = listener.connections();
    for (let i = 0; i < 3; i++) await transport.post(`http://127.0.0.1:${listener.port}/balance`, '{}', {});
    assert.equal(listener.connections() - before, 1);
    transport.close();
  });

  it('closes an idle connection itself, before the wallet would', async () => {
    const server = createServer((_req, res) => res.end('{}'));
    server.keepAliveTimeout = 30_000;
    let closedAfter: number | undefined;
    server.on('connection', (socket) => socket.on('close', () => (closedAfter = Date.now() - answeredAt)));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const transport = new WalletTransport(DEVELOPMENT);
    await transport.post(`http://127.0.0.1:${(server.address() as AddressInfo).port}/balance`, '{}', {});
    const answeredAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, IDLE_CONNECTION_MS + 500));
    assert.ok(closedAfter !== undefined && closedAfter < IDLE_CONNECTION_MS + 500, `closed after ${closedAfter} ms`);
    transport.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('never shares a connection between two hosts, even at the same address', async () => {
    const transport = new WalletTransport(DEVELOPMENT, async () => ['127.0.0.1']);
    const before = listener.connections();
    await transport.post(`http://wallet-a.test:${listener.port}/balance`, '{}', {});
    await transport.post(`http://wallet-b.test:${listener.port}/balance`, '{}', {});
    await transport.post(`http://wallet-a.test:${listener.port}/balance`, '{}', {});
    assert.equal(listener.connections() - before, 2);
    assert.deepEqual(listener.hosts.slice(-3), [
      `wallet-a.test:${listener.port}`,
      `wallet-b.test:${listener.port}`,
      `wallet-a.test:${listener.port}`,
    ]);
    transport.close();
  });

  it('checks the name again on every call: a pooled connection never skips the address rules', async () => {
    let answer = '127.0.0.1';
    const transport = new WalletTransport({ ...DEVELOPMENT, allowLoopback: true }, async () => [answer]);
    await transport.post(`http://wallet.test:${listener.port}/balance`, '{}', {});
    answer = '10.0.0.1';
    await assert.rejects(transport.post(`http://wallet.test:${listener.port}/balance`, '{}', {}), {
      reason: 'address',
    });
    transport.close();
  });
});
