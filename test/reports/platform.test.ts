import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { newRequestId, resultsOf, settleMarket, setUpSportsbook, type Sportsbook } from '../helpers/sportsbook.ts';
import { createTenant, exchange, openSession, type TestTenant } from '../helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';
import { NO_MONEY } from '../helpers/ggr.ts';

let t: TestApp;
let book: Sportsbook;
let operator: string;
/** Three tenants, each with its own wallet: A (the book's, BRL), B (BRL), C (USD). */
const tenants: Record<'a' | 'b' | 'c', { tenant: TestTenant; wallet: TestWallet; currency: string }> = {} as never;

async function player(key: 'a' | 'b' | 'c', externalId: string): Promise<string> {
  const { tenant, wallet, currency } = tenants[key];
  await wallet.addPlayer(externalId, 1_000_00, currency);
  const session = await openSession(t, tenant, { externalPlayerId: externalId });
  return (await exchange(t, tenant.tenantId, session.body.launchToken)).body.token;
}
async function place(token: string, selectionId: string, odds: string, stake: number): Promise<void> {
  const response = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake, legs: [{ selectionId, odds }] },
  });
  assert.equal(response.status, 201, response.text);
}

/**
 * The data set (2026-03-01 is a Sunday; 2 March a Monday):
 * 1 March 12:00: A stakes 10.00 @2.10, B 20.00 @3.25, C 5.00 @3.60 on event 1, settled home: A is paid 21.00; B's
 *   payout credit (0) is refused by its wallet and held for review.
 * 2 March 12:00: C stakes 8.00 on event 2, settled void: refunded 8.00 on the second attempt (the first answers 503).
 * 3 March 10:00: A stakes 4.00 @2.10 on event 3, settled home: its 8.40 payout is owed, not delivered yet.
 */
before(async () => {
  t = await startTestApp();
  const wallets = [await startTestWallet(t.clock), await startTestWallet(t.clock), await startTestWallet(t.clock)];
  book = await setUpSportsbook(t, wallets[0]!);
  const b = await createTenant(t, book.admin, { walletUrl: wallets[1]!.url, name: 'Luna Casino' });
  const c = await createTenant(t, book.admin, { walletUrl: wallets[2]!.url, name: 'Sun Casino', currency: 'USD' });
  wallets[1]!.setSecret(b.walletSecret);
  wallets[2]!.setSecret(c.walletSecret);
  tenants.a = { tenant: book.tenant, wallet: wallets[0]!, currency: 'BRL' };
  tenants.b = { tenant: b, wallet: wallets[1]!, currency: 'BRL' };
  tenants.c = { tenant: c, wallet: wallets[2]!, currency: 'USD' };
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  const [first, second, third] = book.events;
  for (const later of [second!, third!]) {
    const moved = await t.request('PATCH', `/api/v1/admin/trading/events/${later.id}`, {
      token: book.trader,
      body: { startsAt: '2026-03-05T12:00:00Z' },
    });
    assert.equal(moved.status, 200, moved.text);
  }

  const a = await player('a', 'ana');
  const bPlayer = await player('b', 'bia');
  const cPlayer = await player('c', 'cai');
  await place(a, first!.home, '2.10', 10_00);
  await place(bPlayer, first!.draw, '3.25', 20_00);
  await place(cPlayer, first!.away, '3.60', 5_00);
  tenants.b.wallet.fault({ mode: 'refuse', endpoint: 'credit' });
  await settleMarket(t, book, first!.marketId, resultsOf(first!, 'home'));
  await drainDeliveries(t);

  t.clock.set('2026-03-02T12:00:00Z');
  book.trader = (await loginAsStaff(t, 'trader')).token;
  const cAgain = await player('c', 'cai');
  await place(cAgain, second!.home, '2.10', 8_00);
  tenants.c.wallet.fault({ mode: 'status_503', endpoint: 'credit' });
  await settleMarket(t, book, second!.marketId, resultsOf(second!, 'void'));
  await drainDeliveries(t);

  t.clock.set('2026-03-03T10:00:00Z');
  book.trader = (await loginAsStaff(t, 'trader')).token;
  book.admin = (await loginAsStaff(t, 'platform_admin')).token;
  operator = (await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId })).token;
  const aAgain = await player('a', 'ana');
  await place(aAgain, third!.home, '2.10', 4_00);
  await settleMarket(t, book, third!.marketId, resultsOf(third!, 'home'));
});
after(async () => {
  await t.close();
  for (const { wallet } of Object.values(tenants)) await wallet.close();
});

const zero = NO_MONEY;
const ggr = (query: string, as = book.admin, headers: Record<string, string> = {}) =>
  t.request('GET', `/api/v1/admin/reports/ggr${query}`, { token: as, headers });

/** Each tenant's report of 1 and 2 March. */
function expectedReports() {
  const a = { ...zero, bets: 1, stakes: 10_00, payouts: 21_00, ggr: -11_00 };
  const b = { ...zero, bets: 1, stakes: 20_00, ggr: 20_00 };
  const c1 = { ...zero, bets: 1, stakes: 5_00, ggr: 5_00 };
  const c2 = { ...zero, bets: 1, stakes: 8_00, refunds: 8_00 };
  return [
    {
      tenantId: tenants.a.tenant.tenantId,
      name: 'Sol Casino',
      currency: 'BRL',
      days: [
        { date: '2026-03-01', ...a },
        { date: '2026-03-02', ...zero },
      ],
      totals: a,
    },
    {
      tenantId: tenants.b.tenant.tenantId,
      name: 'Luna Casino',
      currency: 'BRL',
      days: [
        { date: '2026-03-01', ...b },
        { date: '2026-03-02', ...zero },
      ],
      totals: b,
    },
    {
      tenantId: tenants.c.tenant.tenantId,
      name: 'Sun Casino',
      currency: 'USD',
      days: [
        { date: '2026-03-01', ...c1 },
        { date: '2026-03-02', ...c2 },
      ],
      totals: { ...zero, bets: 2, stakes: 13_00, refunds: 8_00, ggr: 5_00 },
    },
  ].sort((x, y) => (x.tenantId < y.tenantId ? -1 : 1));
}
const expectedTotals = [
  { currency: 'BRL', ...zero, bets: 2, stakes: 30_00, payouts: 21_00, ggr: 9_00 },
  { currency: 'USD', ...zero, bets: 2, stakes: 13_00, refunds: 8_00, ggr: 5_00 },
];

describe('the GGR report across tenants', () => {
  it('gives a platform administrator every tenant with money in the period, and totals per currency', async () => {
    const response = await ggr('?from=2026-03-01&to=2026-03-02');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      from: '2026-03-01',
      to: '2026-03-02',
      tenants: expectedReports(),
      totals: expectedTotals,
    });
  });

  it('leaves out tenants with no money confirmed in the period', async () => {
    const response = await ggr('?from=2026-03-02&to=2026-03-02');
    assert.deepEqual(
      response.body.tenants.map((report: { tenantId: string }) => report.tenantId),
      [tenants.c.tenant.tenantId],
    );
    assert.deepEqual(response.body.totals, [{ currency: 'USD', ...zero, bets: 1, stakes: 8_00, refunds: 8_00 }]);
    const empty = await ggr('?from=2026-02-01&to=2026-02-28');
    assert.deepEqual(empty.body, { from: '2026-02-01', to: '2026-02-28', tenants: [], totals: [] });
  });

  it('still gives one tenant when it is named, and an operator only their own', async () => {
    const expected = expectedReports().find((report) => report.tenantId === tenants.c.tenant.tenantId);
    const named = await ggr(`?from=2026-03-01&to=2026-03-02&tenantId=${tenants.c.tenant.tenantId}`);
    assert.deepEqual(named.body, expected);
    const own = await ggr('?from=2026-03-01&to=2026-03-02', operator);
    assert.deepEqual(
      own.body,
      expectedReports().find((report) => report.tenantId === tenants.a.tenant.tenantId),
    );
    const other = await ggr(`?from=2026-03-01&to=2026-03-02&tenantId=${tenants.c.tenant.tenantId}`, operator);
    assert.deepEqual([other.status, other.body.error.code], [403, 'forbidden']);
    const trader = await ggr('?from=2026-03-01&to=2026-03-02', book.trader);
    assert.deepEqual([trader.status, trader.body.error.code], [403, 'forbidden']);
  });
});

const csvHeader =
  'tenantId,currency,date,bets,stakes,payouts,refunds,cashouts,corrections,ggr,adjustments,writtenOff\r\n';
const csvLine = (tenantId: string, currency: string, date: string, f: typeof zero) =>
  `${[tenantId, currency, date, f.bets, f.stakes, f.payouts, f.refunds, f.cashouts, f.corrections, f.ggr, f.adjustments, f.writtenOff].join(',')}\r\n`;

describe('the GGR report as CSV', () => {
  it('is the same report, one line per tenant and day, with totals per tenant and per currency', async () => {
    const response = await ggr('?from=2026-03-01&to=2026-03-02&format=csv');
    assert.equal(response.status, 200, response.text);
    assert.equal(response.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(
      response.headers.get('content-disposition'),
      'attachment; filename="ggr-all-tenants-2026-03-01-to-2026-03-02.csv"',
    );
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const lines = expectedReports().flatMap((report) => [
      ...report.days.map(({ date, ...figures }) => csvLine(report.tenantId, report.currency, date, figures)),
      csvLine(report.tenantId, report.currency, 'total', report.totals),
    ]);
    const totals = expectedTotals.map(({ currency, ...figures }) => csvLine('', currency, 'total', figures));
    assert.equal(response.text, csvHeader + lines.join('') + totals.join(''));
  });

  it("gives an operator their own tenant's report, exactly", async () => {
    const a = tenants.a.tenant.tenantId;
    const response = await ggr('?from=2026-03-01&to=2026-03-02&format=csv', operator);
    assert.equal(
      response.headers.get('content-disposition'),
      `attachment; filename="ggr-${a}-2026-03-01-to-2026-03-02.csv"`,
    );
    assert.equal(
      response.text,
      csvHeader +
        `${a},BRL,2026-03-01,1,1000,2100,0,0,0,-1100,0,0\r\n` +
        `${a},BRL,2026-03-02,0,0,0,0,0,0,0,0,0\r\n` +
        `${a},BRL,total,1,1000,2100,0,0,0,-1100,0,0\r\n`,
    );
  });

  it('is chosen by format=csv, or by Accept: text/csv when no format is named', async () => {
    const query = '?from=2026-03-01&to=2026-03-01';
    const accepted = await ggr(query, operator, { accept: 'text/csv' });
    assert.equal(accepted.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.ok(accepted.text.startsWith(csvHeader));
    for (const [suffix, accept] of [
      ['', 'application/json'],
      ['', 'text/csv, application/json'],
      ['', '*/*'],
      ['&format=json', 'text/csv'],
    ] as const) {
      const response = await ggr(query + suffix, operator, { accept });
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/, `${suffix} ${accept}`);
      assert.equal(response.body.tenantId, tenants.a.tenant.tenantId);
    }
  });

  it('refuses formats it does not make, and bad parameters, in the one error shape', async () => {
    for (const query of [
      '?from=2026-03-01&to=2026-03-01&format=xlsx',
      '?from=2026-03-01&to=2026-03-01&tenantId=tn%00x',
      '?from=2026-03-01&to=2026-03-01&currency=BRL',
      '?from=0000-01-01&to=0000-01-02',
    ]) {
      const response = await ggr(query);
      assert.deepEqual([response.status, response.body.error.code], [400, 'validation'], query);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    }
  });
});

describe('the platform dashboard', () => {
  it("shows today's and this week's money per currency, held movements, wallet health and the backlog", async () => {
    t.clock.set('2026-03-03T10:00:30Z');
    const response = await t.request('GET', '/api/v1/admin/dashboard', { token: book.admin });
    assert.equal(response.status, 200, response.text);
    const held = await t.db
      .selectFrom('wallet_obligations')
      .select('created_at')
      .where('status', '=', 'held')
      .executeTakeFirstOrThrow();
    const owed = await t.db
      .selectFrom('wallet_obligations')
      .select('created_at')
      .where('status', '=', 'pending')
      .executeTakeFirstOrThrow();
    const { wallets, ...rest } = response.body;
    assert.deepEqual(rest, {
      at: '2026-03-03T10:00:30.000Z',
      today: {
        from: '2026-03-03T00:00:00.000Z',
        to: '2026-03-04T00:00:00.000Z',
        currencies: [{ currency: 'BRL', ...zero, bets: 1, stakes: 4_00, ggr: 4_00 }],
      },
      week: {
        from: '2026-03-02T00:00:00.000Z',
        to: '2026-03-04T00:00:00.000Z',
        currencies: [
          { currency: 'BRL', ...zero, bets: 1, stakes: 4_00, ggr: 4_00 },
          { currency: 'USD', ...zero, bets: 1, stakes: 8_00, refunds: 8_00 },
        ],
      },
      held: [
        {
          tenantId: tenants.b.tenant.tenantId,
          name: 'Luna Casino',
          count: 1,
          oldestCreatedAt: held.created_at.toISOString(),
        },
      ],
      delivery: { pending: 1, oldestCreatedAt: owed.created_at.toISOString(), oldestAgeSeconds: 30 },
    });
    assert.deepEqual([wallets.from, wallets.to], ['2026-03-02T10:00:30.000Z', '2026-03-03T10:00:30.000Z']);
    // The percentiles are PostgreSQL's percentile_cont over the logged durations: checked against the same rule here.
    const calls = await t.db
      .selectFrom('wallet_calls')
      .select(['tenant_id', 'duration_ms', 'outcome'])
      .where('attempted_at', '>', new Date(wallets.from))
      .where('attempted_at', '<=', new Date(wallets.to))
      .execute();
    const expected = [
      { key: 'a' as const, name: 'Sol Casino', calls: 1, failed: 0 },
      { key: 'c' as const, name: 'Sun Casino', calls: 3, failed: 1 },
    ]
      .map(({ key, name, calls: count, failed }) => {
        const tenantId = tenants[key].tenant.tenantId;
        const durations = calls.filter((call) => call.tenant_id === tenantId).map((call) => call.duration_ms);
        assert.equal(durations.length, count, key);
        return {
          tenantId,
          name,
          calls: count,
          failed,
          refused: 0,
          errorRate: Math.round((failed / count) * 10_000) / 10_000,
          p50Ms: Math.round(percentile(durations, 0.5) * 10) / 10,
          p99Ms: Math.round(percentile(durations, 0.99) * 10) / 10,
        };
      })
      .sort((x, y) => (x.tenantId < y.tenantId ? -1 : 1));
    assert.deepEqual(wallets.tenants, expected);
    assert.equal(expected.find((row) => row.name === 'Sun Casino')!.errorRate, 0.3333);
  });

  it('starts the week on Monday: on Sunday the week is the six days before and Sunday', async () => {
    t.clock.set('2026-03-01T23:59:59Z');
    const response = await t.request('GET', '/api/v1/admin/dashboard', { token: book.admin });
    assert.equal(response.body.week.from, '2026-02-23T00:00:00.000Z');
    assert.deepEqual(response.body.week.currencies, response.body.today.currencies);
    assert.deepEqual(response.body.today.currencies, [
      { currency: 'BRL', ...zero, bets: 2, stakes: 30_00, payouts: 21_00, ggr: 9_00 },
      { currency: 'USD', ...zero, bets: 1, stakes: 5_00, ggr: 5_00 },
    ]);
    t.clock.set('2026-03-03T10:00:30Z');
  });

  it('is for platform administrators only, and takes no parameters', async () => {
    for (const token of [operator, book.trader]) {
      const refused = await t.request('GET', '/api/v1/admin/dashboard', { token });
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'forbidden']);
    }
    const anonymous = await t.request('GET', '/api/v1/admin/dashboard');
    assert.equal(anonymous.status, 401);
    const unknown = await t.request('GET', '/api/v1/admin/dashboard?tenantId=x', { token: book.admin });
    assert.deepEqual([unknown.status, unknown.body.error.code], [400, 'validation']);
  });
});

/** percentile_cont: the value at p × (n − 1) in the sorted values, interpolated between its neighbours. */
function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = p * (sorted.length - 1);
  const low = Math.floor(at);
  const high = Math.ceil(at);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (at - low);
}
