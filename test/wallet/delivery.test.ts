import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { Fault } from '../../reference-wallet/faults.ts';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  newRequestId,
  playerWithBalance,
  resultsOf,
  settleMarket,
  setUpSportsbook,
  type Sportsbook,
  freshSportsbookPerTest,
} from '../helpers/sportsbook.ts';
import { createTenant } from '../helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

const WALLET_CONCURRENCY = 3;
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
const fresh = freshSportsbookPerTest('delivery-player', 1_000_00, {
  delivery: { walletConcurrency: WALLET_CONCURRENCY },
});
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const event = () => book.events[0]!;
async function single(as = token, stake = 10_00): Promise<string> {
  const response = await t.request('POST', '/api/v1/bets', {
    token: as,
    body: { requestId: newRequestId(), stake, legs: [{ selectionId: event().home, odds: '2.10' }] },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
const settleHome = () => settleMarket(t, book, event().marketId, resultsOf(event(), 'home'));
const obligation = (txId: string) =>
  t.db.selectFrom('wallet_obligations').selectAll().where('tx_id', '=', txId).executeTakeFirstOrThrow();
const runOnce = () => t.app.services.delivery.runOnce();
const fault = (mode: Fault['mode'], options: Partial<Fault> = {}) =>
  wallet.fault({ mode, endpoint: 'credit', ...options });

/** A 1.00 single on the first event's home win for player `id`, funded with 100.00 in `w`, on the app `u`. */
async function placeOn(u: TestApp, b: Sportsbook, w: TestWallet, id: string): Promise<void> {
  const as = await playerWithBalance(u, b, w, id, 100_00);
  const placed = await u.request('POST', '/api/v1/bets', {
    token: as,
    body: { requestId: newRequestId(), stake: 1_00, legs: [{ selectionId: b.events[0]!.home, odds: '2.10' }] },
  });
  assert.equal(placed.status, 201, placed.text);
}

/** Counts the delivery engine's claims on `u` until the returned stop() puts the ledger's own method back. */
function countClaims(u: TestApp): { count: () => number; stop: () => void } {
  const ledger = u.app.services.ledger;
  const claimDue = ledger.claimDue.bind(ledger);
  let claims = 0;
  ledger.claimDue = (q, slots) => {
    claims += 1;
    return claimDue(q, slots);
  };
  return { count: () => claims, stop: () => (ledger.claimDue = claimDue) };
}

/** Waits for `done` (the delivery loop works on its own), failing with `what` after `ms`. */
async function waitUntil(done: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await done())) {
    assert.ok(Date.now() - started < ms, what);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** How many payouts of `tenantId` (every tenant's without one) are still owed on `u`. */
async function payoutsOwed(u: TestApp, tenantId?: string): Promise<number> {
  let query = u.db
    .selectFrom('wallet_obligations')
    .select('id')
    .where('kind', '=', 'payout')
    .where('status', '=', 'pending');
  if (tenantId) query = query.where('tenant_id', '=', tenantId);
  return (await query.execute()).length;
}

describe('the delivery table, for money owed', () => {
  const unknown: Array<[string, Fault['mode'], boolean, string]> = [
    ['500', 'status_500', false, 'status_5xx'],
    ['503 after applying', 'status_503', true, 'status_5xx'],
    ['408', 'status_408', false, 'status_408'],
    ['429', 'status_429', false, 'status_429'],
    ['a malformed 2xx body after applying', 'malformed', true, 'malformed_body'],
    ['a 4xx without an error envelope', 'empty_4xx', false, 'malformed_body'],
    ['a mismatching txId after applying', 'wrong_tx_id', true, 'txid_mismatch'],
    ['a mismatching currency after applying', 'wrong_currency', true, 'currency_mismatch'],
    ['a dropped connection', 'reset', false, 'connection_error'],
    ['no answer within 5 s (applied late)', 'delay', true, 'timeout'],
  ];
  for (const [name, mode, apply, reason] of unknown) {
    it(`${name}: unknown, sent again with the same txId and body, applied exactly once`, async () => {
      const betId = await single();
      await settleHome();
      fault(mode, { apply, delayMs: 5_500 });
      assert.equal(await runOnce(), 1);
      const first = await obligation(`payout:${betId}:1`);
      assert.deepEqual([first.status, first.last_outcome, first.attempts], ['pending', reason, 1]);
      t.clock.advance(200);
      assert.equal(await runOnce(), 1);
      const second = await obligation(`payout:${betId}:1`);
      assert.deepEqual([second.status, second.attempts, second.body], ['applied', 2, first.body]);
      assert.equal(await wallet.balanceOf(player), 1_000_00 - 10_00 + 21_00, 'credited once');
      const stored = (await wallet.wallet.store.transactions()).filter((tx) => tx.tx_id === `payout:${betId}:1`);
      assert.deepEqual(
        stored.map((tx) => tx.status),
        [200],
        'the wallet saw one movement: a resend with other parameters would be duplicate_tx',
      );
    });
  }

  it('a 4xx with an error envelope: refused, held for review, never sent again automatically', async () => {
    const betId = await single();
    await settleHome();
    fault('refuse');
    await runOnce();
    const held = await obligation(`payout:${betId}:1`);
    assert.deepEqual(
      [held.status, held.hold_reason, held.operator_code, held.attempts],
      ['held', 'refused', 'refused_by_test', 1],
    );
    t.clock.advance(3_600_000);
    assert.equal(await runOnce(), 0);
  });
});

describe('retry timing', () => {
  it('five attempts 200, 400, 800 and 1,600 ms apart, then one every 30 s', async () => {
    const betId = await single();
    await settleHome();
    fault('status_503', { times: 100 });
    assert.equal(await runOnce(), 1);
    for (const wait of [200, 400, 800, 1_600, 30_000, 30_000]) {
      t.clock.advance(wait - 1);
      assert.equal(await runOnce(), 0, `not due ${wait - 1} ms after the last attempt`);
      t.clock.advance(1);
      assert.equal(await runOnce(), 1, `due ${wait} ms after the last attempt`);
    }
    assert.equal((await obligation(`payout:${betId}:1`)).attempts, 7);
  });
});

describe('order and blocking per bet', () => {
  async function partialCashOuts(as: string, betId: string, parts: number[]) {
    for (const stake of parts) {
      const offer = (await t.request('GET', `/api/v1/bets/${betId}/cashout?stake=${stake}`, { token: as })).body.offer;
      const response = await t.request('POST', `/api/v1/bets/${betId}/cashout`, {
        token: as,
        body: { requestId: newRequestId(), amount: offer.amount, stake },
      });
      assert.equal(response.status, 200, response.text);
    }
  }

  it('an unknown predecessor holds back the later postings of its bet only; they follow in creation order', async () => {
    const betId = await single();
    await partialCashOuts(token, betId, [2_00, 3_00]);
    fault('status_503');
    assert.equal(await runOnce(), 1, 'p2 waits for p1');
    const other = await single();
    await partialCashOuts(token, other, [1_00]);
    assert.equal(await runOnce(), 1, "another bet's credit goes while p1 is unknown");
    assert.equal((await obligation(`cashout:${other}:p1`)).status, 'applied');
    assert.equal((await obligation(`cashout:${betId}:p2`)).attempts, 0);
    t.clock.advance(200);
    await drainDeliveries(t);
    const order = (await wallet.wallet.store.transactions())
      .map((tx) => tx.tx_id)
      .filter((txId) => String(txId).startsWith(`cashout:${betId}`));
    assert.deepEqual(order, [`cashout:${betId}:p1`, `cashout:${betId}:p2`]);
  });

  it('a refused predecessor blocks its bet until an operator decides; retried, the rest follows', async () => {
    const betId = await single();
    await partialCashOuts(token, betId, [2_00, 3_00]);
    fault('refuse');
    await drainDeliveries(t);
    t.clock.advance(3_600_000);
    await drainDeliveries(t);
    assert.deepEqual(
      [(await obligation(`cashout:${betId}:p1`)).status, (await obligation(`cashout:${betId}:p2`)).attempts],
      ['held', 0],
    );
    const held = await obligation(`cashout:${betId}:p1`);
    // An hour later the operator signs in again: staff sessions end after 30 minutes without a request.
    const operator = (await loginAsStaff(t, 'platform_admin')).token;
    const retried = await t.request('POST', `/api/v1/admin/obligations/${held.id}/retry`, {
      token: operator,
      body: { reason: 'the casino unblocked the player' },
    });
    assert.equal(retried.status, 200, retried.text);
    await drainDeliveries(t);
    assert.deepEqual(
      [(await obligation(`cashout:${betId}:p1`)).status, (await obligation(`cashout:${betId}:p2`)).status],
      ['applied', 'applied'],
    );
  });
});

describe('many bets at once', () => {
  it('deliver concurrently, never more than the per-wallet bound in flight', async () => {
    for (let i = 0; i < 10; i += 1) await single();
    await settleHome();
    wallet.setLatency(100);
    wallet.wallet.stats.maxInFlight = 0;
    assert.equal(
      await runOnce(),
      2 * WALLET_CONCURRENCY,
      'one claim takes what the wallet may have in flight, and as many again to send as slots free',
    );
    await drainDeliveries(t);
    const credits = await t.db.selectFrom('wallet_obligations').select('status').where('kind', '=', 'payout').execute();
    assert.deepEqual(new Set(credits.map((credit) => credit.status)), new Set(['applied']));
    assert.equal(credits.length, 10);
    assert.equal(wallet.wallet.stats.maxInFlight, WALLET_CONCURRENCY);
  });

  it('one claim delivers its whole window: the movements beyond the free slots are sent as answers free them', async () => {
    for (let i = 0; i < 6; i += 1) await single();
    await settleHome();
    wallet.setLatency(50);
    wallet.wallet.stats.maxInFlight = 0;
    assert.equal(await runOnce(), 6, 'three sent at once, three more as the first three were answered');
    const credits = await t.db.selectFrom('wallet_obligations').select('status').where('kind', '=', 'payout').execute();
    assert.deepEqual(
      credits.map((credit) => credit.status),
      Array(6).fill('applied'),
    );
    assert.equal(wallet.wallet.stats.maxInFlight, WALLET_CONCURRENCY);
  });
});

describe('claims', () => {
  it('an obligation claimed by a process that died is sent again once its claim expires, not before', async () => {
    const betId = await single();
    await settleHome();
    const claimedUntil = new Date(t.clock.now().getTime() + 60_000);
    await t.db
      .updateTable('wallet_obligations')
      .set({ claimed_until: claimedUntil })
      .where('kind', '=', 'payout')
      .execute();
    assert.equal(await runOnce(), 0);
    t.clock.advance(60_000);
    assert.equal(await runOnce(), 1);
    assert.equal((await obligation(`payout:${betId}:1`)).status, 'applied');
  });

  it('an attempt whose record is lost (the database failed) is sent again after its claim: applied once', async () => {
    const betId = await single();
    await settleHome();
    const ledger = t.app.services.ledger.attempts;
    const record = ledger.recordDeliveries.bind(ledger);
    ledger.recordDeliveries = async () => {
      throw new Error('connection lost');
    };
    try {
      assert.equal(await runOnce(), 1);
    } finally {
      ledger.recordDeliveries = record;
    }
    const unrecorded = await obligation(`payout:${betId}:1`);
    assert.deepEqual([unrecorded.status, unrecorded.attempts], ['pending', 0]);
    assert.equal(await wallet.balanceOf(player), 1_011_00, 'the wallet applied it');
    t.clock.advance(60_000);
    await drainDeliveries(t);
    assert.equal((await obligation(`payout:${betId}:1`)).status, 'applied');
    assert.equal(await wallet.balanceOf(player), 1_011_00, 'and applied it once');
  });
});

describe('stopping', () => {
  it('sends nothing that is still waiting for a slot: its claim is given back, and the next start delivers it once', async () => {
    const u = await startTestApp({}, { deliveryLoop: true, delivery: { walletConcurrency: 2 } });
    const slow = await startTestWallet(u.clock);
    try {
      const slowBook = await setUpSportsbook(u, slow);
      const players = ['stopping-0', 'stopping-1', 'stopping-2', 'stopping-3'];
      for (const id of players) await placeOn(u, slowBook, slow, id);
      slow.setLatency(300);
      await settleMarket(u, slowBook, slowBook.events[0]!.marketId, resultsOf(slowBook.events[0]!, 'home'));
      await waitUntil(() => slow.wallet.stats.inFlight === 2, 3_000, 'two credits were sent');
      const ledger = u.app.services.ledger;
      const giveBack = ledger.giveBackClaim.bind(ledger);
      let givenBack = 0;
      ledger.giveBackClaim = (q, obligation) => {
        givenBack += 1;
        return giveBack(q, obligation);
      };
      await u.app.services.delivery.stop();
      ledger.giveBackClaim = giveBack;
      assert.equal(givenBack, 2, 'the two claimed while the other two were sent');
      const payouts = () =>
        u.db
          .selectFrom('wallet_obligations')
          .select(['status', 'attempts', 'claims', 'claimed_until'])
          .where('kind', '=', 'payout')
          .orderBy('status')
          .execute();
      // Claims count as before the claim: nothing of these two was sent, so none may have reached the wallet.
      assert.deepEqual(await payouts(), [
        { status: 'applied', attempts: 1, claims: 1, claimed_until: null },
        { status: 'applied', attempts: 1, claims: 1, claimed_until: null },
        { status: 'pending', attempts: 0, claims: 0, claimed_until: null },
        { status: 'pending', attempts: 0, claims: 0, claimed_until: null },
      ]);
      await u.app.services.delivery.start();
      await waitUntil(async () => (await payoutsOwed(u)) === 0, 5_000, 'the two given back were delivered after start');
      assert.deepEqual(
        (await payouts()).map((payout) => [payout.status, payout.attempts]),
        Array(4).fill(['applied', 1]),
      );
      for (const id of players) assert.equal(await slow.balanceOf(id), 100_00 - 1_00 + 2_10, `${id} paid once`);
    } finally {
      await u.close();
      await slow.close();
    }
  });
});

/**
 * Movements claimed one window ahead wait in their wallet's lane for a slot: a wallet of two slots answering in 500 ms
 * holds two of four payouts while the test changes the world under them (the race is the engine's own, so it runs on
 * both databases). What happens to the two waiting is then checked once the first two are answered.
 */
describe('waiting for a slot', () => {
  let u: TestApp;
  let slow: TestWallet;
  let slowBook: Sportsbook;
  beforeEach(async () => {
    u = await startTestApp({}, { deliveryLoop: true, delivery: { walletConcurrency: 2 } });
    slow = await startTestWallet(u.clock);
    slowBook = await setUpSportsbook(u, slow);
    for (let i = 0; i < 4; i += 1) await placeOn(u, slowBook, slow, `waiting-${i}`);
    slow.setLatency(500);
    await settleMarket(u, slowBook, slowBook.events[0]!.marketId, resultsOf(slowBook.events[0]!, 'home'));
    await waitUntil(() => slow.wallet.stats.inFlight === 2, 3_000, 'two credits were sent, two wait for a slot');
  });
  afterEach(async () => {
    await u.close();
    await slow.close();
  });

  const payouts = () =>
    u.db
      .selectFrom('wallet_obligations')
      .select(['id', 'status', 'hold_reason', 'attempts', 'claims', 'claimed_until'])
      .where('kind', '=', 'payout')
      .orderBy('status')
      .execute();
  /** Two wallet latencies and a margin: had the two waiting been sent when the first two were answered, they are. */
  const afterTheWait = () => new Promise((resolve) => setTimeout(resolve, 1_500));
  const creditsSent = async () =>
    (await u.db.selectFrom('wallet_calls').select('tx_id').where('kind', '=', 'payout').execute()).length;

  it('a movement superseded while it waited is not sent, and gives its claim back: nothing says it may have left', async () => {
    const market = slowBook.events[0]!.marketId;
    const resettled = await settleMarket(u, slowBook, market, resultsOf(slowBook.events[0]!, 'away'), 'resettle');
    assert.equal(resettled.status, 200, resettled.text);
    await afterTheWait();
    assert.equal(await creditsSent(), 2, 'only the two in flight before the resettlement reached the wallet');
    const waited = (await payouts()).filter((payout) => payout.attempts === 0);
    assert.deepEqual(
      waited.map(({ status, hold_reason, claims, claimed_until }) => [status, hold_reason, claims, claimed_until]),
      Array(2).fill(['held', 'obsolete_credit_requires_review', 0, null]),
      'its claim given back: no claim alive, and its claims count as before it',
    );
    const operator = (await loginAsStaff(u, 'operator', { tenantId: slowBook.tenant.tenantId })).token;
    const held = (await u.request('GET', '/api/v1/admin/obligations?state=held', { token: operator })).body
      .obligations as Array<{ id: string; inFlight: boolean; requestSent: boolean; actions: string[] }>;
    for (const { id } of waited) {
      const shown = held.find((o) => o.id === id)!;
      assert.deepEqual([shown.inFlight, shown.requestSent, shown.actions], [false, false, ['resolve', 'cancel']]);
      const cancelled = await u.request('POST', `/api/v1/admin/obligations/${id}/cancel`, {
        token: operator,
        body: {},
      });
      assert.equal(cancelled.status, 200, 'cancelled in one step, with no reason asked: it never left');
    }
  });

  it('a movement whose wallet URL changed while it waited is held destination_changed, never sent to the old one', async () => {
    // Out-of-band (settings refuse it once money moved): the engine must still notice.
    await u.db.updateTable('tenants').set({ wallet_url: 'http://127.0.0.1:9' }).execute();
    await afterTheWait();
    assert.equal(await creditsSent(), 2, 'only the two already in flight reached the wallet');
    assert.deepEqual(
      (await payouts()).map(({ status, hold_reason, attempts, claims, claimed_until }) => [
        status,
        hold_reason,
        attempts,
        claims,
        claimed_until,
      ]),
      [
        ['applied', null, 1, 1, null],
        ['applied', null, 1, 1, null],
        ['held', 'destination_changed', 0, 0, null],
        ['held', 'destination_changed', 0, 0, null],
      ],
      'held unsent: its claim given back whole',
    );
  });

  it('a movement whose wallet secret was rotated while it waited is signed with the new secret', async () => {
    const rotated = await u.request(
      'POST',
      `/api/v1/admin/integration/wallet-secret?tenantId=${slowBook.tenant.tenantId}`,
      {
        token: slowBook.admin,
      },
    );
    assert.equal(rotated.status, 200, rotated.text);
    slow.setSecret(rotated.body.walletSecret);
    await afterTheWait();
    assert.deepEqual(
      (await payouts()).map(({ status, attempts }) => [status, attempts]),
      Array(4).fill(['applied', 1]),
      'the two waiting were signed with the secret of the wallet as it is now, and accepted at once',
    );
    assert.equal(slow.wallet.received.filter((request) => !request.signatureValid).length, 0);
  });
});

describe('claiming under load', () => {
  it('claims in batches: an answer that leaves room for one or two movements does not cost a claim', async () => {
    const u = await startTestApp({}, { deliveryLoop: true, delivery: { walletConcurrency: 4 } });
    const busy = await startTestWallet(u.clock);
    try {
      const busyBook = await setUpSportsbook(u, busy);
      for (let i = 0; i < 24; i += 1) await placeOn(u, busyBook, busy, `batched-${i}`);
      busy.setLatency(40);
      const claims = countClaims(u);
      await settleMarket(u, busyBook, busyBook.events[0]!.marketId, resultsOf(busyBook.events[0]!, 'home'));
      await waitUntil(async () => (await payoutsOwed(u)) === 0, 5_000, 'the 24 credits were delivered');
      claims.stop();
      // 24 answers and 24 records each nudge the loop: a claim per nudge is 48 claims (measured), in batches 19.
      const count = claims.count();
      assert.ok(count <= 24, `${count} claims for 24 credits, 4 in flight at most: fewer than one a credit`);
      assert.equal(busy.wallet.stats.maxInFlight, 4);
    } finally {
      await u.close();
      await busy.close();
    }
  });
});

describe('fairness between wallets', () => {
  it('a slow wallet cannot starve another: each wallet gets its own share of the engine', async () => {
    const u = await startTestApp({}, { deliveryLoop: true, delivery: { walletConcurrency: 2 } });
    const slow = await startTestWallet(u.clock);
    const fast = await startTestWallet(u.clock);
    try {
      const slowBook = await setUpSportsbook(u, slow);
      const fastTenant = await createTenant(u, slowBook.admin, { walletUrl: fast.url });
      fast.setSecret(fastTenant.walletSecret);
      const fastBook = { ...slowBook, tenant: fastTenant };
      for (let i = 0; i < 8; i += 1) await placeOn(u, slowBook, slow, `slow-${i}`);
      for (let i = 0; i < 4; i += 1) await placeOn(u, fastBook, fast, `fast-${i}`);
      slow.setLatency(1_000);
      await settleMarket(u, slowBook, slowBook.events[0]!.marketId, resultsOf(slowBook.events[0]!, 'home'));
      await waitUntil(
        async () => (await payoutsOwed(u, fastTenant.tenantId)) === 0,
        3_000,
        'the fast wallet was paid while the slow one was still busy',
      );
      const slowOwed = await payoutsOwed(u, slowBook.tenant.tenantId);
      assert.ok(slowOwed >= 4, 'the slow wallet still had most of its credits owed');
      assert.equal(slow.wallet.stats.maxInFlight, 2);
    } finally {
      await u.close();
      await slow.close();
      await fast.close();
    }
  });
});
