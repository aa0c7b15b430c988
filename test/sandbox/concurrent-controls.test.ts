import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { Interleaving, ON_POSTGRES } from '../helpers/interleaving.ts';
import { control, place, postings, sandboxPerTest, single, START_BALANCE, type SandboxFixture } from './fixture.ts';

/**
 * A sandbox control deciding a bet's money while an operator decides one of its movements, on PostgreSQL: the control
 * is paused once it holds the bet and is about to read its obligations, the operator's cancel runs meanwhile
 * (helpers/interleaving.ts). The control takes the lock order (docs/ledger.md), so the cancel waits for it.
 */
const interleaving = new Interleaving();

describe('a sandbox control racing an operator', ON_POSTGRES, () => {
  const fixture = sandboxPerTest({ interleaving });
  let f: SandboxFixture;
  beforeEach(() => {
    f = fixture;
  });

  it("an operator's cancel during a sandbox resettlement to void leaves the exact correction: the stake back", async () => {
    const betId = await place(f, single(f.events[0]!.home, '2.10'));
    f.wallets.sandbox.fault({ mode: 'refuse', endpoint: 'credit' });
    const won = { results: [{ selectionId: f.events[0]!.home, result: 'won' }] };
    assert.equal((await control(f, betId, 'settle', won)).status, 200);
    await drainDeliveries(f.t);
    const payout = (await postings(f, betId))[1]!;
    assert.deepEqual(payout, [`payout:${betId}:1`, 'credit', 'payout', 21_00, 'held']);
    const operator = (await loginAsStaff(f.t, 'operator', { tenantId: f.sandbox.tenantId })).token;
    const { id } = await f.t.db
      .selectFrom('wallet_obligations')
      .select('id')
      .where('tx_id', '=', `payout:${betId}:1`)
      .executeTakeFirstOrThrow();
    const race = await interleaving.race(
      f.t.db,
      {
        name: 'the control holds the bet and is about to read its obligations',
        before: /from "wallet_obligations".*for update/s,
      },
      () => control(f, betId, 'resettle', { results: [{ selectionId: f.events[0]!.home, result: 'void' }] }),
      () =>
        f.t.request('POST', `/api/v1/admin/obligations/${id}/cancel`, {
          token: operator,
          body: { reason: 'the casino confirms it never arrived' },
        }),
    );
    assert.ok(race.paused.ok && race.meanwhile.ok);
    assert.equal(race.paused.value.status, 200, race.paused.value.text);
    assert.deepEqual(
      [race.meanwhile.value.status, race.meanwhile.value.body.error.code],
      [409, 'obligation_not_held'],
      'the control cancelled the refused payout by rule first',
    );
    await drainDeliveries(f.t);
    assert.equal(await f.wallets.sandbox.balanceOf(f.player), START_BALANCE, 'void: the stake back, nothing else');
    assert.equal(race.waited, true, 'the cancel waited for the bet the control had locked');
  });
});
