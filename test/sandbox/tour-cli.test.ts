import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { runCli } from '../helpers/process.ts';
import { sandboxPerTest, START_BALANCE, type SandboxFixture } from './fixture.ts';

/**
 * `bookmaker sandbox tour` (docs/sandbox-outcomes.md, "Worked example"): a casino's run of the worked example
 * against its sandbox, as a process of its own over HTTP, with the delivery engine running as in production.
 */
const fixture = sandboxPerTest({ deliveryLoop: true });
let f: SandboxFixture;
beforeEach(() => {
  f = fixture;
});

const tour = (args: string[], key: string | null = f.sandbox.apiKey) =>
  runCli(key === null ? {} : { BOOKMAKER_INTEGRATION_KEY: key }, [
    'sandbox',
    'tour',
    '--url',
    f.t.url,
    '--tenant',
    f.sandbox.tenantId,
    '--player',
    f.player,
    ...args,
  ]);

describe('bookmaker sandbox tour', () => {
  it('walks the player through every movement kind, each applied by the wallet, and exits 0', async () => {
    const run = await tour(['--json']);
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const summary = lines.pop()!;
    assert.deepEqual(summary, { movements: lines.length, missing: [], unapplied: 0 });
    const kinds = new Set(
      lines.map((line) => `${String(line.kind)} ${String(line.direction)}${line.amount === 0 ? ' 0' : ''}`),
    );
    for (const kind of [
      'bet debit',
      'cashout credit',
      'payout credit',
      'payout credit 0',
      'refund credit',
      'resettle debit',
      'resettle credit',
      'rollback credit',
      'adjustment credit',
      'adjustment debit',
    ]) {
      assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(', ')}`);
    }
    // What the tour printed is what the wallet applied, to the cent.
    const applied = await f.wallets.sandbox.wallet.store.transactions();
    for (const line of lines) {
      const row = applied.find((entry) => entry.tx_id === line.txId);
      assert.ok(row && Number(row.status) < 300, `${String(line.txId)} applied by the wallet`);
      assert.equal(Number(row.amount), line.amount);
    }
    // Four 10.00 stakes: A half cashed out for 4.75 then cancelled (the other 5.00 back), B lost, C void, D rolled
    // back; the adjustments net 0.
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE - 10_25);
    assert.match(run.stderr, /every kind of movement reached your wallet and was applied/);
  });

  it('says what is wrong with the command line, exit 2: no key, a production tenant, a plain-http remote URL', async () => {
    const noKey = await tour([], null);
    assert.deepEqual([noKey.code, /BOOKMAKER_INTEGRATION_KEY/.test(noKey.stderr)], [2, true]);
    const production = await runCli({ BOOKMAKER_INTEGRATION_KEY: f.production.apiKey }, [
      'sandbox',
      'tour',
      '--url',
      f.t.url,
      '--tenant',
      f.production.tenantId,
      '--player',
      f.player,
    ]);
    assert.deepEqual([production.code, /is not a sandbox environment/.test(production.stderr)], [2, true]);
    const remote = await runCli({ BOOKMAKER_INTEGRATION_KEY: f.sandbox.apiKey }, [
      'sandbox',
      'tour',
      '--url',
      'http://sportsbook.example.com',
      '--tenant',
      f.sandbox.tenantId,
      '--player',
      f.player,
    ]);
    assert.deepEqual([remote.code, /must be https/.test(remote.stderr)], [2, true]);
    for (const run of [noKey, production, remote]) {
      for (const key of [f.sandbox.apiKey, f.production.apiKey]) assert.ok(!(run.stderr + run.stdout).includes(key));
    }
  });

  it('a wrong key is refused by Bookmaker, said in one line with the answer: exit 1, nothing moved', async () => {
    const run = await tour([], 'bm_int_not-a-key');
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stderr, /tour_call_refused: POST \/api\/v1\/integration\/sessions answered 401/);
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE);
  });
});
