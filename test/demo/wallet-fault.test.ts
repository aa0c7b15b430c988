import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { startWallet, type DemoWallet } from '../../demo/wallet.ts';

const SECRET = 'demo-wallet-secret';
let wallet: DemoWallet;
before(async () => {
  wallet = await startWallet(0, '127.0.0.1');
  await wallet.installSecret(SECRET);
  await wallet.setPlayer('casino-ana', 100_000, 'BRL');
});
after(async () => {
  await wallet?.close();
});

/** A movement as the service sends it: signed over the body's bytes. */
async function move(endpoint: 'debit' | 'credit', kind: string, txId: string, amount: number) {
  const body = JSON.stringify({ txId, playerId: 'casino-ana', amount, currency: 'BRL', kind, betId: 'bt_1' });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex');
  const response = await fetch(`${wallet.url}/${endpoint}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-timestamp': timestamp, 'x-signature': signature },
    body,
  });
  return { status: response.status, body: (await response.json()) as { error?: { code: string }; balance?: number } };
}

describe("the demo wallet's fault switch", () => {
  it('refuses the next credit once with 403 player_blocked, moving no money, then answers normally', async () => {
    assert.deepEqual(wallet.faultSwitch(), { armed: null, last: null });
    assert.equal(wallet.armFault('credit').armed, 'credit');
    // a debit passes: the switch waits for a credit
    assert.equal((await move('debit', 'bet', 'tx-stake-1', 1_000)).status, 200);
    const refused = await move('credit', 'payout', 'tx-payout-1', 2_500);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error?.code, 'player_blocked');
    assert.equal((await wallet.player('casino-ana'))?.balance, 99_000, 'no money moved');
    const state = wallet.faultSwitch();
    assert.equal(state.armed, null, 'one shot');
    assert.deepEqual(
      { ...state.last, at: undefined },
      {
        target: 'credit',
        kind: 'payout',
        txId: 'tx-payout-1',
        amount: 2_500,
        currency: 'BRL',
        status: 403,
        code: 'player_blocked',
        at: undefined,
      },
    );
    // the same movement sent again (a retry from the console) is applied
    const again = await move('credit', 'payout', 'tx-payout-1', 2_500);
    assert.equal(again.status, 200);
    assert.equal(again.body.balance, 101_500);
  });

  it('refuses the next debit with 402 insufficient_funds, and can be called off before it is used', async () => {
    wallet.armFault('debit');
    assert.equal(wallet.disarmFault().armed, null);
    assert.equal((await move('debit', 'bet', 'tx-stake-2', 1_000)).status, 200);
    wallet.armFault('debit');
    const refused = await move('debit', 'bet', 'tx-stake-3', 1_000);
    assert.equal(refused.status, 402);
    assert.equal(refused.body.error?.code, 'insufficient_funds');
    assert.equal((await wallet.player('casino-ana'))?.balance, 100_500);
  });
});
