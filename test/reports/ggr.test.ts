import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { newIdempotencyKey } from '../helpers/aggregator.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  newRequestId,
  playerWithBalance,
  resultsOf,
  settleMarket,
  setUpSportsbook,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import { createTenant, exchange, openSession } from '../helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';
import { NO_MONEY } from '../helpers/ggr.ts';

let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let operator: string;

/**
 * The known data set (test clock starts 2026-03-01 12:00 UTC):
 * 1 March: stakes 10.00 @2.10 (A), 20.00 @3.25 (B), 5.00 @3.60 (C); a stake the wallet answers 503 (rolled back,
 *   never a stake); event 1 settled home: A paid 21.00, B paid 0; C fully cashed out (4.75); a 1.00 goodwill credit.
 * 2 March: stake 10.00 on event 3 (D), settled void: refunded 10.00; event 1 resettled to draw: A owes 21.00 back,
 *   B is owed 65.00.
 */
before(async () => {
  t = await startTestApp();
  wallet = await startTestWallet(t.clock);
  book = await setUpSportsbook(t, wallet);
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  let token = await playerWithBalance(t, book, wallet, 'ggr-player', 1_000_00);
  const [first, second, third] = book.events;
  const place = async (selectionId: string, odds: string, stake: number) =>
    (
      await t.request('POST', '/api/v1/bets', {
        token,
        body: { requestId: newRequestId(), stake, legs: [{ selectionId, odds }] },
      })
    ).body.bet?.id as string;
  await place(first!.home, '2.10', 10_00);
  await place(first!.draw, '3.25', 20_00);
  const c = await place(second!.away, '3.60', 5_00);
  wallet.fault({ mode: 'status_503', endpoint: 'debit' });
  await place(second!.home, '2.10', 7_00);
  await settleMarket(t, book, first!.marketId, resultsOf(first!, 'home'));
  const { offer } = (await t.request('GET', `/api/v1/bets/${c}/cashout`, { token })).body;
  await t.request('POST', `/api/v1/bets/${c}/cashout`, {
    token,
    body: { requestId: newRequestId(), amount: offer.amount },
  });
  const playerId = (await t.db.selectFrom('players').select('id').executeTakeFirstOrThrow()).id;
  await t.request('POST', '/api/v1/admin/adjustments', {
    token: operator,
    headers: { 'idempotency-key': newIdempotencyKey() },
    body: { playerId, direction: 'credit', amount: 1_00, reason: 'goodwill' },
  });
  await drainDeliveries(t);

  // A new day: new staff tokens and a new player session, as people would have.
  t.clock.set('2026-03-02T09:00:00Z');
  book.trader = (await loginAsStaff(t, 'trader')).token;
  book.admin = (await loginAsStaff(t, 'platform_admin')).token;
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  const session = await openSession(t, book.tenant, { externalPlayerId: 'ggr-player' });
  token = (await exchange(t, book.tenant.tenantId, session.body.launchToken)).body.token;
  await place(third!.home, '2.10', 10_00);
  await settleMarket(t, book, third!.marketId, resultsOf(third!, 'void'));
  await settleMarket(t, book, first!.marketId, resultsOf(first!, 'draw'), 'resettle');
  await drainDeliveries(t);
});
after(async () => {
  await t.close();
  await wallet.close();
});

const ggr = (query: string, as = operator) => t.request('GET', `/api/v1/admin/reports/ggr${query}`, { token: as });
const zero = NO_MONEY;

describe('the GGR report', () => {
  it('counts confirmed movements by the UTC day the wallet confirmed them, every day listed', async () => {
    const response = await ggr('?from=2026-02-28&to=2026-03-03');
    assert.equal(response.status, 200, response.text);
    const march1 = {
      bets: 3,
      stakes: 35_00,
      payouts: 21_00,
      refunds: 0,
      cashouts: 4_75,
      corrections: 0,
      ggr: 35_00 - 21_00 - 4_75,
      adjustments: 1_00,
      writtenOff: 0,
    };
    const march2 = {
      bets: 1,
      stakes: 10_00,
      payouts: 0,
      refunds: 10_00,
      cashouts: 0,
      corrections: 65_00 - 21_00,
      ggr: 10_00 - 10_00 - 44_00,
      adjustments: 0,
      writtenOff: 0,
    };
    assert.deepEqual(response.body, {
      tenantId: book.tenant.tenantId,
      name: 'Sol Casino',
      currency: 'BRL',
      days: [
        { date: '2026-02-28', ...zero },
        { date: '2026-03-01', ...march1 },
        { date: '2026-03-02', ...march2 },
        { date: '2026-03-03', ...zero },
      ],
      totals: {
        bets: 4,
        stakes: 45_00,
        payouts: 21_00,
        refunds: 10_00,
        cashouts: 4_75,
        corrections: 44_00,
        ggr: 45_00 - 21_00 - 10_00 - 4_75 - 44_00,
        adjustments: 1_00,
        writtenOff: 0,
      },
    });
  });

  it('agrees with the wallet: GGR plus adjustments is what left the players', async () => {
    const { totals } = (await ggr('?from=2026-03-01&to=2026-03-02')).body;
    assert.equal(1_000_00 - (await wallet.balanceOf('ggr-player'))!, totals.ggr - totals.adjustments);
  });

  it('a platform administrator names the tenant (or gets every tenant); an operator sees only their own', async () => {
    const named = await ggr(`?from=2026-03-01&to=2026-03-01&tenantId=${book.tenant.tenantId}`, book.admin);
    assert.equal(named.body.totals.bets, 3);
    const unnamed = await ggr('?from=2026-03-01&to=2026-03-01', book.admin);
    assert.deepEqual(unnamed.body.tenants, [named.body], 'every tenant: here the one with money');
    assert.deepEqual(unnamed.body.totals, [{ currency: 'BRL', ...named.body.totals }]);
    const other = await createTenant(t, book.admin, { walletUrl: wallet.url });
    const outsider = await ggr(`?from=2026-03-01&to=2026-03-01&tenantId=${other.tenantId}`);
    assert.deepEqual([outsider.status, outsider.body.error.code], [403, 'forbidden']);
    const unknown = await ggr('?from=2026-03-01&to=2026-03-01&tenantId=tn_nope', book.admin);
    assert.deepEqual([unknown.status, unknown.body.error.code], [404, 'not_found']);
  });

  it('refuses days that are not days, a range upside down or longer than 366 days', async () => {
    for (const [query, field] of [
      ['?from=2026-02-30&to=2026-03-01', 'from'],
      ['?from=2026-03-02&to=2026-03-01', 'to'],
      ['?from=2025-01-01&to=2026-01-02', 'to'],
      ['?from=2026-3-1&to=2026-03-01', 'from'],
      ['?to=2026-03-01', 'from'],
    ] as const) {
      const response = await ggr(query);
      assert.deepEqual([response.status, response.body.error.details.field], [400, field], query);
    }
    assert.equal((await ggr('?from=2025-01-01&to=2026-01-01')).status, 200, '366 days are allowed');
  });
});
