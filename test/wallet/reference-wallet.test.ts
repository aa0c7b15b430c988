import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ManualClock } from '../../src/platform/clock.ts';
import { hmacSha256Hex } from '../../src/platform/crypto.ts';
import { request } from '../helpers/app.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../helpers/database.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

const clock = new ManualClock('2026-03-01T12:00:00Z');
let w: TestWallet;
let n = 0;
// The wallet's ledger: PGlite on the embedded run, a PostgreSQL database of its own on the PostgreSQL run, where
// deliveries really run concurrently.
let ledgerDatabase: string | undefined;
before(async () => {
  if (process.env.DATABASE_URL) ledgerDatabase = await createPostgresDatabase(process.env.DATABASE_URL);
  w = await startTestWallet(clock, undefined, ledgerDatabase ? { databaseUrl: ledgerDatabase } : {});
});
after(async () => {
  await w.close();
  if (ledgerDatabase) await dropPostgresDatabase(ledgerDatabase);
});

/** Each test uses its own player and txIds, so tests never see each other's money. */
let player: string;
beforeEach(async () => {
  n += 1;
  player = `player-${n}`;
  await w.addPlayer(player, 10_000);
  w.wallet.faults.length = 0;
});

const tx = (name: string) => `${name}:${n}`;
const stake = (amount = 1000, txId = tx('bet')) => ({
  txId,
  playerId: player,
  amount,
  currency: 'BRL',
  kind: 'bet',
  betId: `b${n}`,
});

describe('reference wallet: signature', () => {
  it('accepts a valid signature in lowercase and in uppercase hex', async () => {
    const raw = JSON.stringify(stake(100));
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    const signature = hmacSha256Hex(w.secret, `${timestamp}.${raw}`).toUpperCase();
    const response = await request(w.url, 'POST', '/debit', {
      rawBody: raw,
      headers: { 'content-type': 'application/json', 'x-timestamp': String(timestamp), 'x-signature': signature },
    });
    assert.equal(response.status, 200);
    assert.equal(await w.balanceOf(player), 9_900);
  });

  it('refuses a wrong secret with 401 invalid_signature and moves nothing', async () => {
    const response = await w.call('debit', stake(), { secret: 'not the secret' });
    assert.equal(response.status, 401);
    assert.equal(response.body.error.code, 'invalid_signature');
    assert.equal(await w.balanceOf(player), 10_000);
  });

  it('refuses a body changed after signing (verified on the raw bytes)', async () => {
    const signed = JSON.stringify(stake(1));
    const timestamp = Math.floor(clock.now().getTime() / 1000);
    const response = await request(w.url, 'POST', '/debit', {
      rawBody: JSON.stringify(stake(9_000)),
      headers: {
        'content-type': 'application/json',
        'x-timestamp': String(timestamp),
        'x-signature': hmacSha256Hex(w.secret, `${timestamp}.${signed}`),
      },
    });
    assert.equal(response.status, 401);
  });

  it('accepts a timestamp 300 s off and refuses 301 s, both ways', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    assert.equal(
      (
        await w.call(
          'balance',
          { txId: 'balance:x', playerId: player, amount: 0, currency: 'BRL', kind: 'balance' },
          { timestamp: now - 300 },
        )
      ).status,
      200,
    );
    assert.equal(
      (
        await w.call(
          'balance',
          { txId: 'balance:x', playerId: player, amount: 0, currency: 'BRL', kind: 'balance' },
          { timestamp: now + 300 },
        )
      ).status,
      200,
    );
    assert.equal((await w.call('debit', stake(), { timestamp: now - 301 })).status, 401);
    assert.equal((await w.call('debit', stake(), { timestamp: now + 301 })).status, 401);
  });
});

describe('reference wallet: movements', () => {
  it('balance answers the integer minor-unit balance and currency', async () => {
    const response = await w.call('balance', {
      txId: 'balance:1',
      playerId: player,
      amount: 0,
      currency: 'BRL',
      kind: 'balance',
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { txId: 'balance:1', balance: 10_000, currency: 'BRL' });
  });

  it('a debit moves the money once and echoes the txId', async () => {
    const response = await w.call('debit', stake(2_500));
    assert.deepEqual(response.body, { txId: tx('bet'), balance: 7_500, currency: 'BRL' });
    assert.equal(await w.balanceOf(player), 7_500);
  });

  it('a repeated txId replays the stored outcome and moves no money', async () => {
    const first = await w.call('debit', stake(2_500));
    const second = await w.call('debit', stake(2_500));
    assert.deepEqual(second.body, first.body);
    assert.equal(await w.balanceOf(player), 7_500);
  });

  it('a known txId with other parameters is refused with 409 duplicate_tx', async () => {
    await w.call('debit', stake(2_500));
    for (const changed of [
      stake(2_600),
      { ...stake(2_500), playerId: 'someone-else' },
      { ...stake(2_500), betId: 'other' },
    ]) {
      const response = await w.call('debit', changed);
      assert.equal(response.status, 409);
      assert.equal(response.body.error.code, 'duplicate_tx');
    }
    const asCredit = await w.call('credit', { ...stake(2_500), kind: 'payout' });
    assert.equal(asCredit.body.error.code, 'duplicate_tx');
    assert.equal(await w.balanceOf(player), 7_500);
  });

  it('a stake above the balance is refused with 402 insufficient_funds', async () => {
    const response = await w.call('debit', stake(10_001));
    assert.equal(response.status, 402);
    assert.equal(response.body.error.code, 'insufficient_funds');
    assert.equal(await w.balanceOf(player), 10_000);
    assert.equal((await w.call('debit', stake(10_000, tx('all-in')))).body.balance, 0);
  });

  it('a correction debit is all or nothing, and its refusal is stored under the txId even after a deposit', async () => {
    const correction = {
      txId: tx('resettle'),
      playerId: player,
      amount: 12_000,
      currency: 'BRL',
      kind: 'resettle',
      betId: 'b',
      ref: 'payout:b:1',
    };
    const refused = await w.call('debit', correction);
    assert.equal(refused.status, 402);
    assert.equal(await w.balanceOf(player), 10_000);
    await w.addPlayer(player, 50_000);
    const again = await w.call('debit', correction);
    assert.equal(again.status, 402);
    assert.equal(again.body.error.code, 'insufficient_funds');
    assert.equal(await w.balanceOf(player), 50_000);
  });

  it('credits accept amount 0 and answer with the unchanged balance', async () => {
    const response = await w.call('credit', {
      txId: tx('payout'),
      playerId: player,
      amount: 0,
      currency: 'BRL',
      kind: 'payout',
      betId: 'b',
    });
    assert.deepEqual(response.body, { txId: tx('payout'), balance: 10_000, currency: 'BRL' });
  });

  it('rollback returns an applied stake once; a second rollback does nothing', async () => {
    await w.call('debit', stake(3_000));
    const rollback = {
      txId: tx('rollback'),
      playerId: player,
      amount: 3_000,
      currency: 'BRL',
      kind: 'rollback',
      betId: `b${n}`,
      ref: tx('bet'),
    };
    assert.equal((await w.call('rollback', rollback)).body.balance, 10_000);
    assert.equal((await w.call('rollback', { ...rollback, txId: tx('rollback-again') })).body.balance, 10_000);
    assert.equal(await w.balanceOf(player), 10_000);
  });

  it('rollback before the debit answers 2xx, and the late debit is refused with rolled_back', async () => {
    const rollback = {
      txId: tx('rollback'),
      playerId: player,
      amount: 3_000,
      currency: 'BRL',
      kind: 'rollback',
      ref: tx('bet'),
    };
    const early = await w.call('rollback', rollback);
    assert.equal(early.status, 200);
    assert.equal(early.body.balance, 10_000);
    const late = await w.call('debit', stake(3_000));
    assert.equal(late.status, 409);
    assert.equal(late.body.error.code, 'rolled_back');
    assert.equal(await w.balanceOf(player), 10_000);
  });

  it('unknown and blocked players are refused with their codes', async () => {
    const unknown = await w.call('debit', { ...stake(), playerId: 'nobody' });
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'player_not_found']);
    await w.addPlayer(player, 10_000, 'BRL', true);
    const blocked = await w.call('debit', stake(100, tx('blocked')));
    assert.deepEqual([blocked.status, blocked.body.error.code], [403, 'player_blocked']);
  });

  it('refuses a kind the endpoint does not carry', async () => {
    const response = await w.call('credit', { ...stake(), kind: 'bet' });
    assert.equal(response.status, 400);
    assert.equal(response.body.error.code, 'invalid_request');
  });

  it('concurrent deliveries of one txId move the money once', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, () => w.call('debit', stake(1_000))));
    assert.ok(results.every((r) => r.status === 200 && r.body.balance === 9_000));
    assert.equal(await w.balanceOf(player), 9_000);
  });
});

describe('reference wallet: whose money', () => {
  it("refuses a rollback that names another player's debit, moving nothing", async () => {
    await w.call('debit', stake(4_000));
    await w.addPlayer(`mallory-${n}`, 0);
    const theft = await w.call('rollback', {
      txId: tx('rb-mallory'),
      playerId: `mallory-${n}`,
      amount: 4_000,
      currency: 'BRL',
      kind: 'rollback',
      ref: tx('bet'),
    });
    assert.equal(theft.status, 409);
    assert.equal(theft.body.error.code, 'ref_mismatch');
    assert.equal(await w.balanceOf(`mallory-${n}`), 0);
    const own = await w.call('rollback', {
      txId: tx('rb-own'),
      playerId: player,
      amount: 4_000,
      currency: 'BRL',
      kind: 'rollback',
      ref: tx('bet'),
    });
    assert.equal(own.body.balance, 10_000, 'the stake is still reversible by its owner');
  });

  it('an early rollback from another player does not block the real debit', async () => {
    await w.addPlayer(`other-${n}`, 0);
    await w.call('rollback', {
      txId: tx('rb-other'),
      playerId: `other-${n}`,
      amount: 1_000,
      currency: 'BRL',
      kind: 'rollback',
      ref: tx('bet'),
    });
    assert.equal((await w.call('debit', stake(1_000))).status, 200);
  });

  it('a blocked player cannot stake but still receives payouts and rollbacks', async () => {
    await w.call('debit', stake(2_000));
    await w.addPlayer(player, 8_000, 'BRL', true);
    assert.equal((await w.call('debit', stake(100, tx('bet-2')))).body.error.code, 'player_blocked');
    const rollback = await w.call('rollback', {
      txId: tx('rb'),
      playerId: player,
      amount: 2_000,
      currency: 'BRL',
      kind: 'rollback',
      ref: tx('bet'),
    });
    assert.equal(rollback.body.balance, 10_000);
    const payout = await w.call('credit', {
      txId: tx('payout'),
      playerId: player,
      amount: 500,
      currency: 'BRL',
      kind: 'payout',
      betId: 'b',
    });
    assert.equal(payout.body.balance, 10_500);
  });
});

describe('reference wallet: signature edge cases', () => {
  it('verifies the raw bytes, multi-byte characters included', async () => {
    const response = await w.call('credit', {
      txId: tx('payout-é'),
      playerId: player,
      amount: 1,
      currency: 'BRL',
      kind: 'payout',
      betId: 'bé',
    });
    assert.equal(response.status, 200);
  });

  it('refuses everything while no secret is installed', async () => {
    const previous = w.secret;
    w.setSecret('');
    try {
      const response = await w.call(
        'balance',
        { txId: 'balance:1', playerId: player, amount: 0, currency: 'BRL', kind: 'balance' },
        { secret: '' },
      );
      assert.equal(response.status, 401);
    } finally {
      w.setSecret(previous);
    }
  });
});

describe('reference wallet: controls', () => {
  it('require the control token', async () => {
    const response = await request(w.url, 'GET', `/_control/players/${player}`);
    assert.equal(response.status, 401);
    const ok = await request(w.url, 'GET', `/_control/players/${player}`, {
      headers: { 'x-control-token': w.controlToken },
    });
    assert.equal(ok.body.balance, 10_000);
  });

  it('a delay without apply times out the caller and moves nothing', async () => {
    w.fault({ mode: 'delay', endpoint: 'debit', delayMs: 50 });
    const response = await w.call('debit', stake(1_000));
    assert.equal(response.status, 503);
    assert.equal(await w.balanceOf(player), 10_000);
  });

  it('inject a fault for the next call only', async () => {
    w.fault({ mode: 'status_503', endpoint: 'debit' });
    assert.equal((await w.call('debit', stake())).status, 503);
    assert.equal((await w.call('debit', stake())).status, 200);
  });
});
