import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../src/platform/clock.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { request } from '../helpers/app.ts';
import { deploymentEnv, restartServe, runCli, startServe, until } from '../helpers/process.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

/**
 * A real crash: the API process is killed (SIGKILL) after it committed a pending bet and sent the stake debit, but
 * before the wallet answered. The wallet applies the debit anyway. On restart the bet must be refused and the stake
 * rolled back: nothing lost, nothing taken twice.
 */
let env: Record<string, string>;
let dispose: () => Promise<void>;
let wallet: TestWallet;
before(async () => {
  ({ env, dispose } = await deploymentEnv({ migrated: true }));
  wallet = await startTestWallet(systemClock);
});
after(async () => {
  await wallet.close();
  await dispose();
});

describe('a crash between the stake commit and the wallet answer', () => {
  it('is found at start-up, treated as unknown, and rolled back exactly once', async () => {
    const admin = JSON.parse(
      (
        await runCli(env, [
          'staff',
          'create',
          '--email',
          'admin@crash.test',
          '--password',
          'a long enough password',
          '--role',
          'platform_admin',
          '--enrol-now',
        ])
      ).stdout,
    );
    assert.equal((await runCli(env, ['demo', 'seed'])).code, 0);

    const first = await startServe(env);
    const login = await request(first.url, 'POST', '/api/v1/admin/auth/login', {
      body: { email: admin.email, password: 'a long enough password', totp: totpCode(admin.totpSecret, new Date()) },
    });
    const tenant = await request(first.url, 'POST', '/api/v1/admin/tenants', {
      token: login.body.token,
      body: { name: 'Crash Casino', currency: 'BRL', locale: 'pt-BR', jurisdiction: 'BR', walletUrl: wallet.url },
    });
    assert.equal(tenant.status, 201, tenant.text);
    wallet.setSecret(tenant.body.walletSecret);
    await wallet.addPlayer('crash-player', 50_00);
    const session = await request(first.url, 'POST', '/api/v1/integration/sessions', {
      body: { externalPlayerId: 'crash-player' },
      headers: { 'x-tenant-id': tenant.body.tenant.id, 'x-api-key': tenant.body.integrationApiKey },
    });
    const event = await request(first.url, 'GET', '/api/v1/catalog/events/ev-br-serie-a-2');
    const selection = event.body.event.markets[0].selections[0];

    wallet.fault({ mode: 'delay', endpoint: 'debit', delayMs: 2_000, apply: true });
    void request(first.url, 'POST', '/api/v1/bets', {
      token: session.body.token,
      body: { requestId: 'crash-slip-1', stake: 20_00, legs: [{ selectionId: selection.id, odds: selection.odds }] },
    }).catch(() => undefined);
    await until('the stake debit to reach the wallet', async () =>
      wallet.wallet.received.some((r) => r.endpoint === 'debit') ? true : undefined,
    );
    first.child.kill('SIGKILL');
    await first.exited;
    await until('the wallet to apply the late debit', async () =>
      (await wallet.balanceOf('crash-player')) === 30_00 ? true : undefined,
    );

    const second = await restartServe(env);
    try {
      await until('the rollback to return the stake', async () =>
        (await wallet.balanceOf('crash-player')) === 50_00 ? true : undefined,
      );
      const transactions = await wallet.wallet.store.transactions();
      assert.deepEqual(
        transactions.map((tx) => [tx.endpoint, tx.status]),
        [
          ['debit', 200],
          ['rollback', 200],
        ],
      );
      const betId = String(transactions[0]!.bet_id);
      const bet = await request(second.url, 'GET', `/api/v1/bets/${betId}`, { token: session.body.token });
      assert.equal(bet.body.bet.status, 'refused');
      assert.equal(bet.body.bet.refusal.code, 'wallet_unavailable');
      assert.match(second.output(), /pending bets from before a restart were refused and rolled back/);
      const open = await request(second.url, 'GET', '/api/v1/bets?status=open', { token: session.body.token });
      assert.deepEqual(open.body.bets, []);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  });
});
