import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  freshSportsbookPerTest,
  newRequestId,
  resultsOf,
  settleMarket,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import { AFTER_THE_DAY, getStatement, STATEMENT_DAY } from '../helpers/statements.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * A held debit resolved in part (issue 37, item 2): a player with 5.00 against a 21.00 correction debit. The operator
 * records what the casino collected; the rest is written off, and the money reports count the two apart.
 */
const fresh = freshSportsbookPerTest('recovery-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
let operator: string;
beforeEach(async () => {
  ({ t, wallet, book, token, player } = fresh);
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
});

const event = () => book.events[0]!;

/** A single won and paid 21.00, then resettled lost with 5.00 left: its correction debit held for insufficient funds. */
async function heldCorrection(): Promise<{ betId: string; id: string }> {
  const placed = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: event().home, odds: '2.10' }] },
  });
  assert.equal(placed.status, 201, placed.text);
  const betId: string = placed.body.bet.id;
  await settleMarket(t, book, event().marketId, resultsOf(event(), 'home'));
  await drainDeliveries(t);
  await wallet.addPlayer(player, 5_00);
  await settleMarket(t, book, event().marketId, resultsOf(event(), 'away'), 'resettle');
  await drainDeliveries(t);
  const row = await t.db
    .selectFrom('wallet_obligations')
    .select(['id', 'status', 'hold_reason'])
    .where('tx_id', '=', `resettle:${betId}:2:1`)
    .executeTakeFirstOrThrow();
  assert.deepEqual([row.status, row.hold_reason], ['held', 'correction_insufficient_funds']);
  return { betId, id: row.id };
}

const resolve = (id: string, body: Record<string, unknown>) =>
  t.request('POST', `/api/v1/admin/obligations/${id}/resolve`, { token: operator, body });
const obligation = async (betId: string, id: string) =>
  (await t.request('GET', `/api/v1/admin/obligations?bet=${betId}`, { token: operator })).body.obligations.find(
    (o: { id: string }) => o.id === id,
  );
const ggrTotals = async () => {
  const response = await t.request('GET', `/api/v1/admin/reports/ggr?from=${STATEMENT_DAY}&to=${STATEMENT_DAY}`, {
    token: operator,
  });
  assert.equal(response.status, 200, response.text);
  return response.body.totals;
};

describe('a held debit resolved in part', () => {
  it('says why a retry is not offered: the wallet answers every repeat of the txId with its refusal', async () => {
    const { betId, id } = await heldCorrection();
    const held = await obligation(betId, id);
    assert.deepEqual(held.actions, ['resolve', 'cancel']);
    assert.equal(held.withheld.length, 1);
    assert.deepEqual([held.withheld[0].action, held.withheld[0].reason], ['retry', 'correction_insufficient_funds']);
    assert.match(held.withheld[0].message, /answers every repeat/);
    assert.equal(held.writtenOff, null);
  });

  it('counts what was collected and writes off the rest: the obligation, its audit, the GGR report', async () => {
    const { betId, id } = await heldCorrection();
    const before = await ggrTotals();
    const response = await resolve(id, { reason: 'the casino collected the 5.00 the player had', collected: 5_00 });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(
      [response.body.obligation.status, response.body.obligation.amount, response.body.obligation.writtenOff],
      ['resolved', 21_00, 16_00],
    );
    assert.deepEqual(response.body.obligation.actions, []);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['details'])
      .where('action', '=', 'obligation.resolve')
      .executeTakeFirstOrThrow();
    assert.equal((audit.details as { writtenOff?: number }).writtenOff, 16_00);
    const after = await ggrTotals();
    // The correction debit counts for the 5.00 collected; the 16.00 not collected is reported apart.
    assert.equal(after.corrections, before.corrections - 5_00);
    assert.equal(after.ggr, before.ggr + 5_00);
    assert.equal(after.writtenOff, 16_00);
    // Nothing more is owed: writing off ends the debt, so the bet owes no new correction.
    await drainDeliveries(t);
    const owed = await t.db
      .selectFrom('wallet_obligations')
      .select('tx_id')
      .where('bet_id', '=', betId)
      .where('status', 'in', ['pending', 'held'])
      .execute();
    assert.deepEqual(owed, []);
  });

  it('is in the daily statement for what was collected', async () => {
    const { id } = await heldCorrection();
    assert.equal((await resolve(id, { reason: 'collected in part', collected: 5_00 })).status, 200);
    t.clock.set(AFTER_THE_DAY);
    const statement = await getStatement(t, book.tenant);
    assert.equal(statement.status, 200, statement.text);
    const movement = statement.body.movements.find((m: { kind: string; endpoint: string }) => m.kind === 'resettle');
    assert.deepEqual([movement.status, movement.amount], ['resolved', 5_00]);
  });

  it('collected 0 writes off all of it', async () => {
    const first = await heldCorrection();
    const none = await resolve(first.id, { reason: 'nothing could be collected', collected: 0 });
    assert.equal(none.status, 200, none.text);
    assert.equal(none.body.obligation.writtenOff, 21_00);
    assert.equal((await ggrTotals()).writtenOff, 21_00);
  });

  it('collected equal to the amount writes nothing off', async () => {
    const { id } = await heldCorrection();
    const whole = await resolve(id, { reason: 'all of it collected', collected: 21_00 });
    assert.equal(whole.status, 200, whole.text);
    assert.equal(whole.body.obligation.writtenOff, null);
    assert.equal((await ggrTotals()).writtenOff, 0);
  });

  it('a later resettlement owes against the money that moved: won again pays back only what was collected', async () => {
    const { betId, id } = await heldCorrection();
    assert.equal((await resolve(id, { reason: 'collected in part', collected: 5_00 })).status, 200);
    await drainDeliveries(t);
    const balance = (await wallet.balanceOf(player))!;
    const corrected = await settleMarket(t, book, event().marketId, resultsOf(event(), 'home'), 'resettle');
    assert.equal(corrected.status, 200, corrected.text);
    // Won at 2.10 the player is owed 21.00 in all; 21.00 was paid and 5.00 collected back: 5.00 is owed, not 21.00.
    assert.deepEqual(corrected.body.owed, [{ currency: 'BRL', credits: 5_00, debits: 0, movements: 1 }]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), balance + 5_00);
    // And lost once more: the 5.00 is owed back, the write-off of the earlier result no longer counting.
    const lostAgain = await settleMarket(t, book, event().marketId, resultsOf(event(), 'away'), 'resettle');
    assert.deepEqual(lostAgain.body.owed, [{ currency: 'BRL', credits: 0, debits: 21_00, movements: 1 }]);
    const owed = await t.db
      .selectFrom('wallet_obligations')
      .select(['tx_id', 'amount'])
      .where('bet_id', '=', betId)
      .where('status', '=', 'pending')
      .execute();
    assert.deepEqual(owed, [{ tx_id: `resettle:${betId}:4:3`, amount: 21_00 }]);
  });

  it('refuses more than the amount, a negative, a fraction or text, and changes nothing', async () => {
    const { betId, id } = await heldCorrection();
    for (const [collected, message] of [
      [21_01, /at most the movement's amount, 2100/],
      [-1, /collected/],
      [1.5, /collected/],
      ['5', /collected/],
    ] as const) {
      const refused = await resolve(id, { reason: 'a try', collected });
      assert.equal(refused.status, 400, `${collected}: ${refused.text}`);
      assert.deepEqual([refused.body.error.code, refused.body.error.details.field], ['validation', 'collected']);
      assert.match(refused.body.error.message, message);
    }
    const still = await obligation(betId, id);
    assert.deepEqual([still.status, still.writtenOff], ['held', null]);
  });

  it('is refused on a credit: a held payout is resolved whole or cancelled', async () => {
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: event().home, odds: '2.10' }] },
    });
    wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    await settleMarket(t, book, event().marketId, resultsOf(event(), 'home'));
    await drainDeliveries(t);
    const payout = await t.db
      .selectFrom('wallet_obligations')
      .select(['id', 'status'])
      .where('tx_id', '=', `payout:${placed.body.bet.id}:1`)
      .executeTakeFirstOrThrow();
    assert.equal(payout.status, 'held');
    const refused = await resolve(payout.id, { reason: 'paid in part', collected: 10_00 });
    assert.equal(refused.status, 400, refused.text);
    assert.equal(refused.body.error.details.field, 'collected');
    assert.match(refused.body.error.message, /Only a debit can be resolved in part/);
  });
});
