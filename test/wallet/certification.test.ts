import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { systemClock } from '../../src/platform/clock.ts';
import { signatureHeaders } from '../../src/wallet/delivery/client.ts';
import { renderJunit, renderText, type CertificationReport } from '../../src/wallet/certification/report.ts';
import { certifyWallet, DestinationRefused, type CertificationOptions } from '../../src/wallet/certification/runner.ts';
import type { Fault } from '../../reference-wallet/faults.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../helpers/database.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

// The wallet's ledger: PGlite on the embedded run, a PostgreSQL database of its own on the PostgreSQL run, where
// concurrent deliveries really run concurrently.
let ledgerDatabase: string | undefined;
let w: TestWallet;
before(async () => {
  if (process.env.DATABASE_URL) ledgerDatabase = await createPostgresDatabase(process.env.DATABASE_URL);
  // Certification signs with the real clock, as it does on a partner's machine.
  w = await startTestWallet(systemClock, undefined, ledgerDatabase ? { databaseUrl: ledgerDatabase } : {});
});
after(async () => {
  await w.close();
  if (ledgerDatabase) await dropPostgresDatabase(ledgerDatabase);
});
beforeEach(() => {
  w.wallet.faults.length = 0;
});

const FUNDED = 50_000;
const BLOCKED = 3_000;
let n = 0;

interface Run {
  report: CertificationReport;
  funded: string;
  empty: string;
  blocked: string;
}

/** One certification run with players of its own, so runs never see each other's money. */
async function certify(options: Partial<CertificationOptions> = {}): Promise<Run> {
  n += 1;
  const funded = `funded-${n}`;
  const empty = `empty-${n}`;
  const blocked = `blocked-${n}`;
  await w.addPlayer(funded, FUNDED);
  await w.addPlayer(empty, 0);
  await w.addPlayer(blocked, BLOCKED, 'BRL', true);
  const report = await certifyWallet({
    walletUrl: w.url,
    secret: w.secret,
    currency: 'BRL',
    player: funded,
    emptyPlayer: empty,
    blockedPlayer: blocked,
    timeoutMs: 2_000,
    target: { environment: 'sandbox', verifiedBy: 'operator_assertion' },
    clock: systemClock,
    ...options,
  });
  return { report, funded, empty, blocked };
}

const failed = (report: CertificationReport) =>
  report.rules
    .filter((rule) => rule.status === 'fail')
    .map((rule) => rule.id)
    .sort();

async function assertLeftAsFound(run: Run) {
  assert.equal(await w.balanceOf(run.funded), FUNDED, 'the funded player ends where it started');
  assert.equal(await w.balanceOf(run.empty), 0, 'the empty player ends where it started');
  assert.equal(await w.balanceOf(run.blocked), BLOCKED, 'the blocked player ends where it started');
  const restored = run.report.rules.find((rule) => rule.id === 'balance.restored')!;
  assert.equal(restored.status, 'pass', restored.detail);
}

describe('wallet certification against the reference wallet', () => {
  it('passes every rule, with the request, answer and latency of each call, and leaves the balances as found', async () => {
    const run = await certify();
    const { report } = run;
    assert.deepEqual(failed(report), []);
    assert.equal(report.result, 'certified');
    assert.deepEqual(
      report.rules.filter((rule) => rule.status !== 'pass').map((rule) => rule.id),
      [],
    );
    assert.equal(report.summary.passed, report.rules.length);
    assert.ok(report.rules.length >= 27);
    for (const id of [
      'signature.required',
      'signature.wrong',
      'signature.stale-timestamp',
      'signature.future-timestamp',
      'signature.hex-case',
      'signature.raw-body',
      'balance.shape',
      'answers.txid-echo',
      'movement.debit-then-credit',
      'movement.zero-credit',
      'debit.insufficient-stake',
      'debit.insufficient-correction',
      'debit.refusal-replayed-after-deposit',
      'idempotency.replay',
      'idempotency.duplicate-tx',
      'idempotency.concurrent',
      'rollback.applied-debit',
      'rollback.twice',
      'rollback.before-debit',
      'errors.unknown-player',
      'errors.blocked-player',
      'answers.within-timeout',
      'balance.restored',
    ]) {
      assert.ok(
        report.rules.some((rule) => rule.id === id),
        `rule ${id} is run`,
      );
    }
    const calls = report.rules.flatMap((rule) => rule.calls);
    assert.ok(calls.length > 60);
    for (const call of calls) {
      assert.ok(call.response, `${call.step} has its answer`);
      assert.equal(typeof call.latencyMs, 'number');
      assert.ok(call.request.body.length > 0);
    }
    assert.equal(report.latency.calls, calls.length);
    await assertLeftAsFound(run);
  });

  it('uses only txIds of its own run', async () => {
    const known = new Set((await w.wallet.store.transactions()).map((row) => row.tx_id));
    const { report } = await certify();
    const added = (await w.wallet.store.transactions()).map((row) => String(row.tx_id)).filter((id) => !known.has(id));
    assert.ok(added.length > 20);
    for (const txId of added) assert.ok(txId.startsWith(`cert:${report.runId}:`), txId);
  });

  it('without an empty player, skips the insufficient-funds rules: reported as skipped, not passed', async () => {
    const { report } = await certify({ emptyPlayer: undefined });
    const skipped = report.rules.filter((rule) => rule.status === 'skip');
    assert.deepEqual(
      skipped.map((rule) => rule.id),
      ['debit.insufficient-stake', 'debit.insufficient-correction', 'debit.refusal-replayed-after-deposit'],
    );
    assert.match(skipped[0]!.detail, /--player-empty/);
    assert.deepEqual(failed(report), []);
    assert.equal(report.result, 'incomplete');
    assert.equal(report.summary.skipped, 3);
  });

  it('without a blocked player, skips the blocked-player rule: reported as skipped, the result incomplete', async () => {
    const { report } = await certify({ blockedPlayer: undefined });
    const skipped = report.rules.filter((rule) => rule.status === 'skip');
    assert.deepEqual(
      skipped.map((rule) => rule.id),
      ['errors.blocked-player'],
    );
    assert.match(skipped[0]!.detail, /--player-blocked/);
    assert.equal(skipped[0]!.calls.length, 0, 'nothing is sent for a skipped rule');
    assert.deepEqual(failed(report), []);
    assert.equal(report.result, 'incomplete');
    assert.equal(report.wallet.blockedPlayer, null);
  });

  it('the blocked player: its stake refused with 403 player_blocked, its balance read before and after, unchanged', async () => {
    const run = await certify();
    const rule = run.report.rules.find((candidate) => candidate.id === 'errors.blocked-player')!;
    assert.equal(rule.status, 'pass', rule.detail);
    assert.equal(rule.detail, `refused with 403 player_blocked; the balance stayed at ${BLOCKED}`);
    assert.deepEqual(
      rule.calls.map((call) => [call.step, call.endpoint, call.outcome.outcome, call.outcome.status]),
      [
        ['balance before the rule', 'balance', 'applied', 200],
        ['stake of the blocked player', 'debit', 'refused', 403],
        ['balance after the refusal', 'balance', 'applied', 200],
        ['balance after the rule', 'balance', 'applied', 200],
      ],
    );
    assert.match(rule.calls[1]!.request.body, new RegExp(`"playerId":"${run.blocked}","amount":100,`));
    assert.equal(run.report.wallet.blockedPlayer, run.blocked);
    assert.match(run.report.rules.find((one) => one.id === 'balance.restored')!.detail, new RegExp(`${run.blocked}: `));
    await assertLeftAsFound(run);
  });

  it('a player the wallet does not block fails the rule; the stake it took is rolled back, the balance left as found', async () => {
    n += 1;
    const notBlocked = `not-blocked-${n}`;
    await w.addPlayer(notBlocked, BLOCKED);
    const run = await certify({ blockedPlayer: notBlocked });
    assert.deepEqual(failed(run.report), ['errors.blocked-player']);
    const rule = run.report.rules.find((candidate) => candidate.id === 'errors.blocked-player')!;
    assert.match(rule.detail, /^stake of the blocked player: expected it refused with 403 player_blocked, got applied/);
    assert.equal(rule.decidedBy, 'stake of the blocked player');
    assert.ok(rule.calls.some((call) => call.step === 'rollback of the stake the wallet took'));
    assert.deepEqual(rule.notes, [], 'the rollback put the balance back: no compensation needed');
    assert.equal(await w.balanceOf(notBlocked), BLOCKED);
  });

  it('a blocked player the wallet does not know fails the rule at its balance read, and nothing is sent after', async () => {
    const run = await certify({ blockedPlayer: 'nobody-at-all' });
    assert.deepEqual(failed(run.report), ['errors.blocked-player']);
    const rule = run.report.rules.find((candidate) => candidate.id === 'errors.blocked-player')!;
    assert.match(rule.detail, /^the balance before the rule could not be read: refused \(404 player_not_found\)/);
    assert.equal(rule.calls.length, 1);
  });

  it('an under-funded player fails its precondition and the rules needing it are skipped', async () => {
    n += 1;
    await w.addPlayer(`poor-${n}`, 150);
    const report = await certifyWallet({
      walletUrl: w.url,
      secret: w.secret,
      currency: 'BRL',
      player: `poor-${n}`,
      timeoutMs: 2_000,
      target: { environment: 'sandbox', verifiedBy: 'operator_assertion' },
      clock: systemClock,
    });
    assert.deepEqual(failed(report), ['setup.funded-player']);
    assert.equal(report.result, 'failed');
    const skipped = report.rules.filter((rule) => rule.status === 'skip').map((rule) => rule.id);
    assert.ok(skipped.includes('movement.debit-then-credit'));
    assert.ok(skipped.includes('idempotency.concurrent'));
    assert.equal(await w.balanceOf(`poor-${n}`), 150);
  });

  it('a wallet URL the transport refuses is not called at all', async () => {
    const before = w.wallet.received.length;
    await assert.rejects(
      certify({ walletUrl: 'https://wallet.example', resolver: async () => ['10.0.0.7'] }),
      DestinationRefused,
    );
    assert.equal(w.wallet.received.length, before);
  });
});

describe('each fault of the reference wallet fails exactly its rules', () => {
  type Injected = Partial<Fault> & Pick<Fault, 'mode'>;
  const cases: Array<[string, Injected, string[], Partial<CertificationOptions>?]> = [
    ['a 500 on the first balance', { mode: 'status_500', endpoint: 'balance' }, ['balance.shape']],
    ['a malformed balance', { mode: 'malformed', endpoint: 'balance' }, ['answers.success-shape', 'balance.shape']],
    [
      'a balance in another currency',
      { mode: 'wrong_currency', endpoint: 'balance' },
      ['answers.currency', 'balance.shape'],
    ],
    ['a 500 on the first stake', { mode: 'status_500', endpoint: 'debit' }, ['movement.debit-then-credit']],
    [
      'a 500 after applying the stake',
      { mode: 'status_500', endpoint: 'debit', apply: true },
      ['movement.debit-then-credit'],
    ],
    ['a 503 on the first credit', { mode: 'status_503', endpoint: 'credit' }, ['movement.debit-then-credit']],
    ['a 408 on the first stake', { mode: 'status_408', endpoint: 'debit' }, ['movement.debit-then-credit']],
    ['a 429 on the first rollback', { mode: 'status_429', endpoint: 'rollback' }, ['rollback.applied-debit']],
    ['a reset connection on the first credit', { mode: 'reset', endpoint: 'credit' }, ['movement.debit-then-credit']],
    [
      'a stake answered after the timeout',
      { mode: 'delay', endpoint: 'debit', delayMs: 2_500 },
      ['answers.within-timeout', 'movement.debit-then-credit'],
      { timeoutMs: 1_500 },
    ],
    [
      'a credit applied after the timeout',
      { mode: 'delay', endpoint: 'credit', delayMs: 2_500, apply: true },
      ['answers.within-timeout', 'movement.debit-then-credit'],
      { timeoutMs: 1_500 },
    ],
    [
      'a malformed 2xx to an applied stake',
      { mode: 'malformed', endpoint: 'debit', apply: true },
      ['answers.success-shape', 'movement.debit-then-credit'],
    ],
    [
      'a 4xx with an empty body',
      { mode: 'empty_4xx', endpoint: 'debit' },
      ['answers.error-envelope', 'movement.debit-then-credit'],
    ],
    [
      'another txId echoed',
      { mode: 'wrong_tx_id', endpoint: 'credit', apply: true },
      ['answers.txid-echo', 'movement.debit-then-credit'],
    ],
    [
      'another currency answered',
      { mode: 'wrong_currency', endpoint: 'debit', apply: true },
      ['answers.currency', 'movement.debit-then-credit'],
    ],
    ['a refused payout', { mode: 'refuse', endpoint: 'credit' }, ['movement.debit-then-credit']],
    ['a refused rollback', { mode: 'refuse', endpoint: 'rollback' }, ['rollback.applied-debit']],
  ];
  for (const [name, fault, expected, options] of cases) {
    it(`${name} (${fault.mode}${fault.apply ? ', applied' : ''}): ${expected.join(', ')}`, async () => {
      w.fault(fault);
      const run = await certify(options);
      assert.deepEqual(
        failed(run.report),
        expected,
        JSON.stringify(run.report.rules.filter((r) => r.status === 'fail').map((r) => r.detail)),
      );
      assert.equal(run.report.result, 'failed');
      const rule = run.report.rules.find((candidate) => candidate.id === expected.at(-1))!;
      assert.ok(rule.decidedBy, 'the failure names the call that decided it');
      assert.ok(rule.calls.some((call) => call.step === rule.decidedBy));
      await assertLeftAsFound(run);
    });
  }

  it('an unknown outcome is resolved as the service resolves it: a stake rolled back, a credit sent again', async () => {
    w.fault({ mode: 'status_500', endpoint: 'debit', apply: true });
    const first = await certify();
    const stakeRule = first.report.rules.find((rule) => rule.id === 'movement.debit-then-credit')!;
    assert.equal(stakeRule.notes.length, 1);
    assert.match(
      stakeRule.notes[0]!,
      /:stake had an unknown outcome; recovery: roll back the unconfirmed stake: applied/,
    );
    const rollbackTx = `cert:${first.report.runId}:movement.debit-then-credit:stake:rollback`;
    assert.ok((await w.wallet.store.transactions()).some((row) => row.tx_id === rollbackTx));
    await assertLeftAsFound(first);

    w.fault({ mode: 'reset', endpoint: 'credit' });
    const second = await certify();
    const creditRule = second.report.rules.find((rule) => rule.id === 'movement.debit-then-credit')!;
    assert.match(creditRule.detail, /^payout: expected it applied, got unknown outcome \(no answer: connection_error/);
    assert.deepEqual(
      creditRule.notes.map((note) => note.replace(/^\S+/, 'txId')),
      [
        'txId had an unknown outcome; recovery: credit sent again with the same txId and body: applied (200, balance 50000 BRL)',
      ],
    );
    await assertLeftAsFound(second);
  });

  it('money a refusal left moved is put back with an adjustment, and the rule says so', async () => {
    w.fault({ mode: 'refuse', endpoint: 'credit' });
    const run = await certify();
    const rule = run.report.rules.find((candidate) => candidate.id === 'movement.debit-then-credit')!;
    assert.deepEqual(rule.notes, [
      'the rule left the balance at 49900 instead of 50000; compensation: applied (200, balance 50000 BRL)',
    ]);
    assert.equal(rule.calls.at(-1)!.step, 'compensation: put the balance back');
    assert.match(rule.calls.at(-1)!.request.body, /"amount":100,"currency":"BRL","kind":"adjustment"/);
    await assertLeftAsFound(run);
  });

  it('a slow wallet fails the timeout rule on every call it is late for', async () => {
    w.setLatency(600);
    try {
      const { report } = await certify({ timeoutMs: 300, emptyPlayer: undefined });
      const timeout = report.rules.find((rule) => rule.id === 'answers.within-timeout')!;
      assert.equal(timeout.status, 'fail');
      assert.match(timeout.detail, /calls did not/);
      assert.ok(timeout.calls.every((call) => call.outcome.outcome === 'unknown' && call.outcome.reason === 'timeout'));
    } finally {
      w.setLatency(0);
      // The late movements are processed after the run; let them land before other tests read balances.
      await new Promise((resolve) => setTimeout(resolve, 800));
    }
  });
});

/** A wallet that breaks one signature or idempotency rule: the reference wallet behind a proxy that bends it. */
type Bend = (request: {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}) =>
  | { forward: { headers: Record<string, string>; body: string }; answerMap?: (text: string) => string }
  | { answer: string; status?: number };

const header = (headers: IncomingHttpHeaders, name: string) => {
  const value = headers[name];
  return typeof value === 'string' ? value : '';
};
const unchanged = (headers: IncomingHttpHeaders) => ({
  'content-type': 'application/json',
  ...(headers['x-timestamp'] ? { 'x-timestamp': header(headers, 'x-timestamp') } : {}),
  ...(headers['x-signature'] ? { 'x-signature': header(headers, 'x-signature') } : {}),
});
const nowSeconds = () => Math.floor(Date.now() / 1000);
/** The HMAC over `timestamp.body`, compared in either case, ignoring the clock window. */
function hmacMatches(headers: IncomingHttpHeaders, body: string): boolean {
  const signature = header(headers, 'x-signature');
  if (!/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', w.secret)
    .update(`${header(headers, 'x-timestamp')}.${body}`)
    .digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
const INVALID_SIGNATURE = JSON.stringify({ error: { code: 'invalid_signature', message: 'Bad signature.' } });
const PLAYER_BLOCKED = JSON.stringify({ error: { code: 'player_blocked', message: 'The player is blocked.' } });
/** A call for one of the runs' blocked players. */
const forBlocked = (path: string, body: string, endpoint: string) =>
  path === `/${endpoint}` && /"playerId":"blocked-\d+"/.test(body);
/** A refusal whose code and message carry control characters and markup: for the report's escaping. */
const MARKUP_ANSWER = '{"error":{"code":"bad\\u0007<sig>&\'","message":"<b>refused</b> ]]> \\u001b[31m"}}';

async function startBentWallet(bend: Bend): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const decision = bend({
        path: req.url ?? '/',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      if ('answer' in decision) {
        res.writeHead(decision.status ?? 401, { 'content-type': 'application/json' }).end(decision.answer);
        return;
      }
      fetch(`${w.url}${req.url}`, { method: 'POST', headers: decision.forward.headers, body: decision.forward.body })
        .then(async (answer) => {
          const text = await answer.text();
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(decision.answerMap?.(text) ?? text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('wallets that bend the contract fail exactly the rules they bend', () => {
  const resigned = (body: string) => ({ headers: signatureHeaders(w.secret, nowSeconds(), body), body });
  const renamed = new Map<string, number>();
  const cases: Array<[string, Bend, string[]]> = [
    [
      'a wallet that checks no signature',
      ({ body }) => ({ forward: resigned(body) }),
      ['signature.future-timestamp', 'signature.required', 'signature.stale-timestamp', 'signature.wrong'],
    ],
    [
      'a wallet without the clock window',
      ({ headers, body }) => ({
        forward: hmacMatches(headers, body) ? resigned(body) : { headers: unchanged(headers), body },
      }),
      ['signature.future-timestamp', 'signature.stale-timestamp'],
    ],
    [
      'a wallet that accepts lower-case hex only',
      ({ headers, body }) =>
        /[A-F]/.test(header(headers, 'x-signature'))
          ? { answer: INVALID_SIGNATURE }
          : { forward: { headers: unchanged(headers), body } },
      ['signature.hex-case'],
    ],
    [
      'a wallet that verifies a re-serialised body',
      ({ headers, body }) => {
        let canonical = body;
        try {
          canonical = JSON.stringify(JSON.parse(body));
        } catch {
          // not JSON: verified as it is
        }
        return hmacMatches(headers, canonical)
          ? { forward: { headers: unchanged(headers), body } }
          : { answer: INVALID_SIGNATURE };
      },
      ['signature.raw-body'],
    ],
    [
      'a wallet that refuses a blocked player with 400, not 403',
      ({ path, headers, body }) =>
        forBlocked(path, body, 'debit')
          ? { answer: PLAYER_BLOCKED, status: 400 }
          : { forward: { headers: unchanged(headers), body } },
      ['errors.blocked-player'],
    ],
    [
      'a wallet that refuses a blocked player with another code',
      ({ path, headers, body }) =>
        forBlocked(path, body, 'debit')
          ? { answer: JSON.stringify({ error: { code: 'forbidden', message: 'No.' } }), status: 403 }
          : { forward: { headers: unchanged(headers), body } },
      ['errors.blocked-player'],
    ],
    [
      'a wallet that applies a repeated txId again',
      ({ path, headers, body }) => {
        if (path === '/balance') return { forward: { headers: unchanged(headers), body } };
        const movement = JSON.parse(body);
        const seen = renamed.get(movement.txId) ?? 0;
        renamed.set(movement.txId, seen + 1);
        if (seen === 0) return { forward: { headers: unchanged(headers), body } };
        const fresh = `${movement.txId}~${seen}`;
        return {
          forward: resigned(JSON.stringify({ ...movement, txId: fresh })),
          answerMap: (text) => text.replace(fresh, movement.txId),
        };
      },
      [
        'debit.refusal-replayed-after-deposit',
        'idempotency.concurrent',
        'idempotency.duplicate-tx',
        'idempotency.replay',
      ],
    ],
  ];
  for (const [name, bend, expected] of cases) {
    it(`${name}: ${expected.join(', ')}`, async () => {
      const bent = await startBentWallet(bend);
      try {
        const run = await certify({ walletUrl: bent.url });
        assert.deepEqual(
          failed(run.report),
          expected,
          JSON.stringify(run.report.rules.filter((r) => r.status === 'fail').map((r) => r.detail)),
        );
        await assertLeftAsFound(run);
      } finally {
        await bent.close();
      }
    });
  }
});

describe('a wallet that refuses a blocked player its balance reads too', () => {
  it('passes the blocked-player rule on the answers alone, and says so', async () => {
    const bent = await startBentWallet(({ path, headers, body }) =>
      forBlocked(path, body, 'balance')
        ? { answer: PLAYER_BLOCKED, status: 403 }
        : { forward: { headers: unchanged(headers), body } },
    );
    try {
      const run = await certify({ walletUrl: bent.url });
      assert.deepEqual(failed(run.report), []);
      assert.equal(run.report.result, 'certified');
      const rule = run.report.rules.find((candidate) => candidate.id === 'errors.blocked-player')!;
      assert.match(rule.detail, /^refused with 403 player_blocked \(the wallet refuses the blocked player's balance/);
      assert.deepEqual(rule.notes, [
        'the wallet refuses balance reads of the blocked player (player_blocked): only the answers show that no money moved',
      ]);
      assert.deepEqual(
        rule.calls.map((call) => call.step),
        ['balance before the rule', 'stake of the blocked player'],
      );
      await assertLeftAsFound(run);
    } finally {
      await bent.close();
    }
  });
});

/** A small XML 1.0 well-formedness check: one root, nested tags, quoted attributes, only the five entities. */
function assertWellFormedXml(text: string): { tags: string[] } {
  assert.match(text, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n/);
  // eslint-disable-next-line no-control-regex
  assert.doesNotMatch(text, /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/, 'no control character XML cannot hold');
  const body = text.replace(/^<\?xml[^>]*\?>/, '').trim();
  const entity = /&(?!(amp|lt|gt|quot|apos);)/;
  const stack: string[] = [];
  const tags: string[] = [];
  let roots = 0;
  const token = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w.-]+="[^"<]*")*)\s*(\/?)>|([^<]+)|(<)/g;
  for (const match of body.matchAll(token)) {
    const [, closing, name, attributes, selfClosing, textPart, stray] = match;
    assert.equal(stray, undefined, `a stray < at ${match.index}`);
    if (textPart !== undefined) {
      assert.ok(stack.length > 0 || textPart.trim() === '', 'text outside the root');
      assert.doesNotMatch(textPart, entity, 'an unescaped &');
      continue;
    }
    assert.doesNotMatch(attributes ?? '', entity, 'an unescaped & in an attribute');
    if (closing) {
      assert.equal(stack.pop(), name, `</${name}> closes what it opened`);
      continue;
    }
    if (stack.length === 0) roots += 1;
    tags.push(name!);
    if (!selfClosing) stack.push(name!);
  }
  assert.deepEqual(stack, [], 'every tag is closed');
  assert.equal(roots, 1, 'one root element');
  return { tags };
}

describe('the report', () => {
  let passing: CertificationReport;
  let failing: CertificationReport;
  before(async () => {
    passing = (await certify()).report;
    const bent = await startBentWallet(({ headers, body }) =>
      /[A-F]/.test(header(headers, 'x-signature'))
        ? { answer: MARKUP_ANSWER }
        : { forward: { headers: unchanged(headers), body } },
    );
    try {
      failing = (await certify({ walletUrl: bent.url, emptyPlayer: undefined })).report;
    } finally {
      await bent.close();
    }
  });

  it('as JSON: the run, the wallet, the target, the result and every rule with its calls', () => {
    const json = JSON.parse(JSON.stringify(failing));
    assert.deepEqual(Object.keys(json), [
      'tool',
      'version',
      'runId',
      'startedAt',
      'finishedAt',
      'wallet',
      'target',
      'result',
      'summary',
      'latency',
      'rules',
    ]);
    assert.equal(json.result, 'failed');
    assert.deepEqual(json.summary, { rules: json.rules.length, passed: json.rules.length - 4, failed: 1, skipped: 3 });
    assert.deepEqual(json.target, { environment: 'sandbox', verifiedBy: 'operator_assertion' });
    const hexCase = json.rules.find((rule: any) => rule.id === 'signature.hex-case');
    assert.deepEqual(Object.keys(hexCase), [
      'id',
      'title',
      'contract',
      'status',
      'detail',
      'decidedBy',
      'notes',
      'durationMs',
      'calls',
    ]);
    assert.match(hexCase.contract, /Signature/);
    const [call] = hexCase.calls;
    assert.deepEqual(Object.keys(call), ['step', 'endpoint', 'request', 'response', 'outcome', 'latencyMs']);
    assert.match(call.request.headers['x-signature'], /^[0-9A-F]{64}$/);
    assert.deepEqual(call.response, { status: 401, body: MARKUP_ANSWER });
    assert.deepEqual(call.outcome, {
      outcome: 'refused',
      status: 401,
      code: "bad\u0007<sig>&'",
      message: '<b>refused</b> ]]> \u001b[31m',
    });
  });

  it('as JUnit XML: well formed, one test case per rule, failures and skips marked', () => {
    for (const report of [passing, failing]) {
      const xml = renderJunit(report);
      const { tags } = assertWellFormedXml(xml);
      assert.equal(tags.filter((tag) => tag === 'testcase').length, report.rules.length);
      assert.equal(tags.filter((tag) => tag === 'failure').length, report.summary.failed);
      assert.equal(tags.filter((tag) => tag === 'skipped').length, report.summary.skipped);
    }
    const xml = renderJunit(failing);
    assert.match(xml, /<testsuites name="bookmaker wallet certify" tests="\d+" failures="1" errors="0" skipped="3"/);
    assert.match(
      xml,
      /<testcase classname="wallet\.signature" name="signature\.hex-case: [^"]+" time="\d+\.\d{3}">\n {6}<failure /,
    );
    assert.match(
      xml,
      /<failure message="[^"]*got refused \(401 bad\uFFFD&lt;sig&gt;&amp;&apos;\)" type="rule_failed">/,
    );
  });

  it('as text: a verdict per rule with its calls, control characters escaped', () => {
    const text = renderText(failing);
    assert.match(text, /^FAIL {2}signature\.hex-case: /m);
    assert.match(text, /^PASS {2}signature\.raw-body: /m);
    assert.match(text, /^SKIP {2}debit\.insufficient-stake: /m);
    assert.ok(text.includes("got refused (401 bad\\u0007<sig>&')"), 'the control character shown as an escape');
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f]/, 'no control character but line ends reaches a terminal');
    assert.match(text, /^Result: {2}FAILED: \d+ of \d+ rules passed, 1 failed, 3 skipped$/m);
    assert.match(renderText(passing), /^Result: {2}CERTIFIED: /m);
  });

  it('never contains the wallet secret', () => {
    for (const report of [passing, failing]) {
      for (const output of [JSON.stringify(report), renderText(report), renderJunit(report)]) {
        assert.ok(!output.includes(w.secret));
      }
    }
  });
});
