import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { Interleaving, ON_POSTGRES } from '../helpers/interleaving.ts';
import {
  freshSportsbookPerTest,
  newRequestId,
  resultsOf,
  settleMarket,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * Two actors deciding about one bet's money at the same time, on PostgreSQL: an operator or the casino acting on a
 * held movement while a resettlement runs. Each test pauses one of them at the point where it has read and is about
 * to write, lets the other run until it commits or waits for a lock, then lets the first go (helpers/interleaving.ts).
 * Every decision takes the bet's lock first, then its obligations (docs/ledger.md, "The lock order"), so the other
 * waits, and the money is what the rules say whichever runs first.
 */
const interleaving = new Interleaving();
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
let operator: string;

/** Statements of the ledger: an obligation's guarded move, and the read that locks a bet's obligations. */
const MOVES_AN_OBLIGATION = /update "wallet_obligations"/;
const LOCKS_OBLIGATIONS = /from "wallet_obligations".*for update/s;

/** A 10.00 single on the first event's home win at 2.10, settled won, its 21.00 payout refused by the wallet. */
async function refusedPayout(): Promise<{ betId: string; id: string }> {
  const placed = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
  });
  assert.equal(placed.status, 201, placed.text);
  const betId = placed.body.bet.id;
  wallet.fault({ mode: 'refuse', endpoint: 'credit' });
  assert.equal((await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'))).status, 200);
  await drainDeliveries(t);
  const payout = await obligation(`payout:${betId}:1`);
  assert.deepEqual([payout.status, payout.hold_reason], ['held', 'refused']);
  return { betId, id: payout.id };
}

const obligation = (txId: string) =>
  t.db.selectFrom('wallet_obligations').selectAll().where('tx_id', '=', txId).executeTakeFirstOrThrow();

const resettle = (outcome: 'away' | 'void') => () =>
  settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, outcome), 'resettle');

const operatorDecides = (id: string, action: 'retry' | 'cancel', reason: string) => () =>
  t.request('POST', `/api/v1/admin/obligations/${id}/${action}`, { token: operator, body: { reason } });

const casinoRedelivers = (id: string) => () =>
  t.request('POST', `/api/v1/integration/obligations/${id}/redeliver`, {
    headers: { 'x-tenant-id': book.tenant.tenantId, 'x-api-key': book.tenant.apiKey },
    body: {},
  });

/** The answers of both actors, which must be answers (not failures of the test's own). */
function answered<T>(settled: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

describe('a decision on a held movement racing a resettlement', ON_POSTGRES, () => {
  const fresh = freshSportsbookPerTest('race-player', 100_00, { interleaving });
  beforeEach(async () => {
    ({ t, wallet, book, token, player } = fresh);
    operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  });

  it("an operator's retry of a refused payout while a resettlement makes the bet lost pays nothing", async () => {
    const { betId, id } = await refusedPayout();
    const race = await interleaving.race(
      t.db,
      { name: 'the retry has read the held payout and is about to move it', before: MOVES_AN_OBLIGATION },
      operatorDecides(id, 'retry', 'the casino unblocked the player'),
      resettle('away'),
    );
    assert.equal(answered(race.paused).status, 200, answered(race.paused).text);
    assert.equal(answered(race.meanwhile).status, 200, answered(race.meanwhile).text);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 90_00, 'the stake lost, and no payout on a lost bet');
    assert.equal(race.waited, true, 'the resettlement waited for the bet the retry had locked');
    const payout = await obligation(`payout:${betId}:1`);
    assert.deepEqual(
      [payout.status, payout.superseded_by],
      ['cancelled', `result:${book.events[0]!.marketId}:2`],
      'retried first, then superseded: its one answer was a refusal the wallet keeps, so the rules cancel it',
    );
    const bet = (await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet;
    assert.deepEqual([bet.status, bet.settledReturn], ['lost', 0]);
  });

  it("a casino's redelivery of a failed payout while a resettlement makes the bet lost pays nothing", async () => {
    const { betId, id } = await refusedPayout();
    const race = await interleaving.race(
      t.db,
      { name: 'the redelivery has read the failed payout and is about to move it', before: MOVES_AN_OBLIGATION },
      casinoRedelivers(id),
      resettle('away'),
    );
    assert.equal(answered(race.paused).status, 202, answered(race.paused).text);
    assert.equal(answered(race.meanwhile).status, 200, answered(race.meanwhile).text);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 90_00, 'the stake lost, and no payout on a lost bet');
    assert.equal(race.waited, true, 'the resettlement waited for the bet the redelivery had locked');
    assert.equal((await obligation(`payout:${betId}:1`)).status, 'cancelled');
  });

  it("an operator's cancel during a resettlement to void leaves the exact correction: the stake back", async () => {
    const { betId, id } = await refusedPayout();
    const race = await interleaving.race(
      t.db,
      { name: "the resettlement has read the bet's account and is about to supersede", before: LOCKS_OBLIGATIONS },
      resettle('void'),
      operatorDecides(id, 'cancel', 'the casino confirms the payout never arrived'),
    );
    assert.equal(answered(race.paused).status, 200, answered(race.paused).text);
    const cancel = answered(race.meanwhile);
    assert.deepEqual(
      [cancel.status, cancel.body.error.code, cancel.body.error.details],
      [409, 'obligation_not_held', { status: 'cancelled' }],
      'the resettlement cancelled the refused payout by rule first; the operator is told',
    );
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 100_00, 'void: the stake comes back, nothing else');
    assert.equal(race.waited, true, 'the cancel waited for the bet the resettlement had locked');
    const correction = await t.db
      .selectFrom('wallet_obligations')
      .select(['endpoint', 'amount', 'status'])
      .where('bet_id', '=', betId)
      .where('kind', '=', 'resettle')
      .execute();
    assert.deepEqual(correction, [{ endpoint: 'credit', amount: 10_00, status: 'applied' }]);
  });
});

describe('a debit resolved in part racing a resettlement', ON_POSTGRES, () => {
  const fresh = freshSportsbookPerTest('write-off-player', 100_00, { interleaving });
  beforeEach(async () => {
    ({ t, wallet, book, token, player } = fresh);
    operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  });

  /** Won and paid 21.00, then resettled lost with 5.00 left in the wallet: the 21.00 correction debit held. */
  async function heldCorrection(): Promise<{ betId: string; id: string }> {
    const { betId } = await wonAndPaid();
    await wallet.addPlayer(player, 5_00);
    assert.equal((await resettle('away')()).status, 200);
    await drainDeliveries(t);
    const correction = await obligation(`resettle:${betId}:2:1`);
    assert.deepEqual([correction.status, correction.hold_reason], ['held', 'correction_insufficient_funds']);
    return { betId, id: correction.id };
  }

  /** A won single whose payout was delivered. */
  async function wonAndPaid(): Promise<{ betId: string }> {
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
    });
    assert.equal(placed.status, 201, placed.text);
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
    await drainDeliveries(t);
    return { betId: placed.body.bet.id };
  }

  const writeOff = (id: string) => () =>
    t.request('POST', `/api/v1/admin/obligations/${id}/resolve`, {
      token: operator,
      body: { reason: 'the casino collected 5.00', collected: 5_00 },
    });
  const resettleWon = () =>
    settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'), 'resettle');

  it('written off first, then won again: the bet is owed only the 5.00 collected', async () => {
    const { betId, id } = await heldCorrection();
    const race = await interleaving.race(
      t.db,
      { name: 'the resolve has read the held correction and is about to move it', before: MOVES_AN_OBLIGATION },
      writeOff(id),
      resettleWon,
    );
    assert.equal(answered(race.paused).status, 200, answered(race.paused).text);
    assert.equal(answered(race.meanwhile).status, 200, answered(race.meanwhile).text);
    assert.equal(race.waited, true, 'the resettlement waited for the bet the resolve had locked');
    assert.deepEqual(answered(race.meanwhile).body.owed, [{ currency: 'BRL', credits: 5_00, debits: 0, movements: 1 }]);
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 10_00, 'the 5.00 left, and the 5.00 collected given back');
    const correction = await obligation(`resettle:${betId}:2:1`);
    assert.deepEqual([correction.status, correction.written_off], ['resolved', 16_00]);
  });

  it('won again first: the held correction is cancelled by rule, and the late write-off is refused', async () => {
    const { betId, id } = await heldCorrection();
    const race = await interleaving.race(
      t.db,
      { name: "the resettlement has read the bet's account and is about to supersede", before: LOCKS_OBLIGATIONS },
      resettleWon,
      writeOff(id),
    );
    assert.equal(answered(race.paused).status, 200, answered(race.paused).text);
    assert.deepEqual(answered(race.paused).body.owed, []);
    const late = answered(race.meanwhile);
    assert.deepEqual(
      [late.status, late.body.error.code, late.body.error.details],
      [409, 'obligation_not_held', { status: 'cancelled' }],
    );
    assert.equal(race.waited, true, 'the resolve waited for the bet the resettlement had locked');
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 5_00, 'nothing collected, nothing owed: the payout stands');
    const correction = await obligation(`resettle:${betId}:2:1`);
    assert.deepEqual([correction.status, correction.written_off], ['cancelled', null]);
  });
});

describe('a decision on a held movement racing a rollback of the result', ON_POSTGRES, () => {
  const fresh = freshSportsbookPerTest('rollback-race-player', 100_00, { interleaving });
  beforeEach(async () => {
    ({ t, wallet, book, token, player } = fresh);
    operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  });

  const rollback = () => t.app.services.settlement.rollback(FEED, book.events[0]!.marketId);

  it("an operator's retry of a refused payout while a producer's rollback reopens the bet: the corrected result decides, paid once", async () => {
    const { betId, id } = await refusedPayout();
    const race = await interleaving.race(
      t.db,
      { name: 'the retry has read the held payout and is about to move it', before: MOVES_AN_OBLIGATION },
      operatorDecides(id, 'retry', 'the casino unblocked the player'),
      rollback,
    );
    assert.equal(answered(race.paused).status, 200, answered(race.paused).text);
    assert.equal(answered(race.meanwhile).bets.reopened, 1);
    assert.equal(race.waited, true, 'the rollback waited for the bet the retry had locked');
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'accepted');
    // the corrected result: the home side lost after all
    assert.equal(
      (await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'away'))).status,
      200,
    );
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 90_00, 'the stake lost, and the retried payout never paid');
    const bet = (await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet;
    assert.deepEqual([bet.status, bet.settledReturn], ['lost', 0]);
  });

  it('a rollback racing the same result again: the bet ends won, paid exactly once', async () => {
    const { betId } = await refusedPayout();
    const race = await interleaving.race(
      t.db,
      { name: "the rollback has read the bet's account and is about to supersede", before: LOCKS_OBLIGATIONS },
      rollback,
      () => settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'), 'resettle'),
    );
    assert.equal(answered(race.paused).bets.reopened, 1);
    const resettled = answered(race.meanwhile);
    // the resettlement waited for the market the rollback had locked, then found it without results
    assert.deepEqual([resettled.status, resettled.body.error?.code], [409, 'market_not_settled']);
    assert.equal(
      (await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'))).status,
      200,
    );
    await drainDeliveries(t);
    const bet = (await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet;
    assert.deepEqual([bet.status, bet.settledReturn], ['won', 21_00]);
    const credits = await t.db
      .selectFrom('wallet_obligations')
      .select(['tx_id', 'status'])
      .where('bet_id', '=', betId)
      .where('endpoint', '=', 'credit')
      .where('status', '=', 'applied')
      .execute();
    assert.equal(credits.length, 1, `one credit applied: ${JSON.stringify(credits)}`);
    assert.equal(await wallet.balanceOf(player), 90_00 + 21_00, 'paid exactly once');
  });
});

/** The actor of a producer's rollback, as the feed's ingestion gives it. */
const FEED = { actor: { type: 'system' as const, id: 'feed:race' } };
