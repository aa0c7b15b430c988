import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  freshSportsbookPerTest,
  newRequestId,
  resultsOf,
  settleMarket,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('preview-player', 1_000_00);
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let woken: number;
let restoreWake: () => void;
beforeEach(() => {
  ({ t, wallet, book, token } = fresh);
  const delivery = t.app.services.delivery;
  const wake = delivery.wake.bind(delivery);
  woken = 0;
  delivery.wake = () => {
    woken += 1;
    wake();
  };
  restoreWake = () => {
    delivery.wake = wake;
  };
});
afterEach(() => restoreWake());

const event = () => book.events[0]!;
const market = () => event().marketId;
async function place(legs: Array<{ selectionId: string; odds: string }>, stake: number): Promise<string> {
  const response = await t.request('POST', '/api/v1/bets', { token, body: { requestId: newRequestId(), stake, legs } });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
/** Three singles on the first event (home 10.00 @2.10, draw 20.00 @3.25, away 5.00 @3.60) and an accumulator. */
async function placeBets(): Promise<void> {
  await place([{ selectionId: event().home, odds: '2.10' }], 10_00);
  await place([{ selectionId: event().draw, odds: '3.25' }], 20_00);
  await place([{ selectionId: event().away, odds: '3.60' }], 5_00);
  await place(
    [
      { selectionId: event().home, odds: '2.10' },
      { selectionId: book.events[1]!.home, odds: '2.10' },
    ],
    10_00,
  );
}
const preview = (body: unknown, action: 'settle' | 'resettle' = 'settle', as = book.trader, marketId = market()) =>
  t.request('POST', `/api/v1/admin/trading/markets/${marketId}/${action}/preview`, { token: as, body });

const TABLES = [
  'markets',
  'selections',
  'bets',
  'bet_legs',
  'cashouts',
  'exposure',
  'bet_exposure',
  'wallet_obligations',
  'wallet_obligation_history',
  'wallet_calls',
  'audit_log',
];
/** Every row of every table a settlement may touch (and the audit trail), as text. */
async function snapshot(): Promise<Record<string, string[]>> {
  const tables: Record<string, string[]> = {};
  for (const table of TABLES) {
    const { rows } = await sql<{ row: string }>`
      select to_jsonb(t)::text as row from ${sql.table(table)} t order by 1`.execute(t.db);
    tables[table] = rows.map((row) => row.row);
  }
  return tables;
}

/** The preview's owed figures as the real settlement reports them. */
const asReported = (owed: Array<{ currency: string; credits: any; debits: any }>) =>
  owed.map((entry) => ({
    currency: entry.currency,
    credits: entry.credits.amount,
    debits: entry.debits.amount,
    movements: entry.credits.count + entry.debits.count,
  }));

describe('a settlement dry run', () => {
  it('shows what settling would do, leaves the database as it was, wakes no delivery, and the real settlement agrees', async () => {
    await placeBets();
    const before = await snapshot();
    const response = await preview({ results: resultsOf(event(), 'home') });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      market: { id: market(), status: 'settled', settlementVersion: 1 },
      resultsChanged: true,
      bets: 4,
      changes: { settled: 3, resettled: 0, reopened: 0, unchanged: 1 },
      byResult: { won: 1, lost: 2, void: 0, half_won: 0, half_lost: 0, open: 1 },
      owed: [{ currency: 'BRL', credits: { count: 3, amount: 21_00 }, debits: { count: 0, amount: 0 } }],
    });
    assert.deepEqual(await snapshot(), before, 'nothing of the dry run stays');
    assert.equal(woken, 0, 'the delivery engine is not woken');
    const again = await preview({ results: resultsOf(event(), 'home') });
    assert.deepEqual(again.body, response.body, 'a dry run can be repeated');

    const settled = await settleMarket(t, book, market(), resultsOf(event(), 'home'));
    assert.equal(settled.status, 200, settled.text);
    assert.deepEqual(settled.body, {
      market: response.body.market,
      bets: response.body.changes,
      owed: asReported(response.body.owed),
    });
    assert.equal(woken, 1);
  });

  it('shows what a resettlement would do, superseded postings included, without keeping any of it', async () => {
    await placeBets();
    await settleMarket(t, book, market(), resultsOf(event(), 'home'));
    // The payout of the home single is still owed: a resettlement supersedes it (held, with its line of history).
    const before = await snapshot();
    const response = await preview({ results: resultsOf(event(), 'draw') }, 'resettle');
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body, {
      market: { id: market(), status: 'settled', settlementVersion: 2 },
      resultsChanged: true,
      bets: 4,
      changes: { settled: 1, resettled: 2, reopened: 0, unchanged: 1 },
      byResult: { won: 1, lost: 3, void: 0, half_won: 0, half_lost: 0, open: 0 },
      owed: [{ currency: 'BRL', credits: { count: 2, amount: 65_00 }, debits: { count: 0, amount: 0 } }],
    });
    assert.deepEqual(await snapshot(), before, 'no result, bet, exposure, obligation or history line stays');
    const payout = await t.db
      .selectFrom('wallet_obligations')
      .select(['status', 'hold_reason'])
      .where('kind', '=', 'payout')
      .where('amount', '=', 21_00)
      .executeTakeFirstOrThrow();
    assert.deepEqual(payout, { status: 'pending', hold_reason: null });

    const resettled = await settleMarket(t, book, market(), resultsOf(event(), 'draw'), 'resettle');
    assert.equal(resettled.status, 200, resettled.text);
    assert.deepEqual(resettled.body, {
      market: response.body.market,
      bets: response.body.changes,
      owed: asReported(response.body.owed),
    });
  });

  it('after the payouts were paid, a correction shows as debits', async () => {
    await placeBets();
    await settleMarket(t, book, market(), resultsOf(event(), 'home'));
    await drainDeliveries(t);
    const response = await preview({ results: resultsOf(event(), 'void') }, 'resettle');
    assert.equal(response.status, 200, response.text);
    // home 21.00 paid -> void 10.00: 11.00 back; draw 0 -> 20.00; away 0 -> 5.00; the accumulator stays open.
    assert.deepEqual(
      [response.body.changes, response.body.byResult, response.body.owed],
      [
        { settled: 0, resettled: 3, reopened: 0, unchanged: 1 },
        { won: 0, lost: 0, void: 3, half_won: 0, half_lost: 0, open: 1 },
        [{ currency: 'BRL', credits: { count: 2, amount: 25_00 }, debits: { count: 1, amount: 11_00 } }],
      ],
    );
    const resettled = await settleMarket(t, book, market(), resultsOf(event(), 'void'), 'resettle');
    assert.deepEqual(resettled.body.owed, asReported(response.body.owed));
  });

  it('the same results again: nothing would change', async () => {
    await placeBets();
    await settleMarket(t, book, market(), resultsOf(event(), 'home'));
    const response = await preview({ results: resultsOf(event(), 'home') }, 'resettle');
    assert.deepEqual(response.body, {
      market: { id: market(), status: 'settled', settlementVersion: 1 },
      resultsChanged: false,
      bets: 0,
      changes: { settled: 0, resettled: 0, reopened: 0, unchanged: 0 },
      byResult: { won: 0, lost: 0, void: 0, half_won: 0, half_lost: 0, open: 0 },
      owed: [],
    });
  });

  it('a market without bets', async () => {
    const response = await preview(
      { results: resultsOf(book.events[2]!, 'away') },
      'settle',
      book.admin,
      book.events[2]!.marketId,
    );
    assert.deepEqual(
      [response.status, response.body.bets, response.body.owed, response.body.market.settlementVersion],
      [200, 0, [], 1],
    );
  });
});

describe('a settlement dry run refuses exactly what the settlement refuses', () => {
  const both = async (body: unknown, action: 'settle' | 'resettle', marketId = market()) => {
    const before = await snapshot();
    const dry = await preview(body, action, book.trader, marketId);
    const real = await t.request('POST', `/api/v1/admin/trading/markets/${marketId}/${action}`, {
      token: book.trader,
      body,
    });
    assert.ok(dry.status >= 400, dry.text);
    assert.deepEqual([dry.status, dry.body], [real.status, real.body]);
    assert.deepEqual(await snapshot(), before);
    return dry;
  };

  it('unknown market, wrong selections, wrong half results, bad bodies, NUL bytes', async () => {
    const results = resultsOf(event(), 'home');
    const cases: Array<[unknown, string, number, string, string?]> = [
      [{ results }, 'mk_nope', 404, 'not_found'],
      [{ results: results.slice(0, 2) }, market(), 400, 'validation', 'results'],
      [{ results: [...results, results[0]] }, market(), 400, 'validation', 'results.3.selectionId'],
      [
        { results: [results[0], results[1], { selectionId: book.events[1]!.away, result: 'lost' }] },
        market(),
        400,
        'validation',
        'results.2.selectionId',
      ],
      [
        { results: [{ ...results[0], result: 'half_won' }, ...results.slice(1)] },
        market(),
        400,
        'validation',
        'results.0.result',
      ],
      [{ results: [] }, market(), 400, 'validation'],
      [{ results, note: 'x' }, market(), 400, 'validation'],
      [
        { results: [{ selectionId: 'se\u0000x', result: 'won' }] },
        market(),
        400,
        'validation',
        'results.0.selectionId',
      ],
      [{ results }, 'mk\u0000x', 400, 'validation'],
    ];
    for (const [body, marketId, status, code, field] of cases) {
      const dry = await both(body, 'settle', encodeURIComponent(marketId));
      assert.deepEqual([dry.status, dry.body.error.code], [status, code], dry.text);
      if (field) assert.equal(dry.body.error.details.field, field);
    }
  });

  it('settle on a settled market, resettle on one never settled', async () => {
    const resettle = await both({ results: resultsOf(event(), 'home') }, 'resettle');
    assert.equal(resettle.body.error.code, 'market_not_settled');
    await settleMarket(t, book, market(), resultsOf(event(), 'home'));
    const settle = await both({ results: resultsOf(event(), 'away') }, 'settle');
    assert.deepEqual([settle.body.error.code, settle.body.error.details], ['market_settled', { settlementVersion: 1 }]);
  });

  it('a market with a bet still waiting for its stake', async () => {
    wallet.fault({ mode: 'delay', endpoint: 'debit', delayMs: 1_500, apply: true });
    const placing = place([{ selectionId: event().home, odds: '2.10' }], 10_00);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const dry = await preview({ results: resultsOf(event(), 'home') });
    assert.deepEqual([dry.status, dry.body.error.code], [409, 'bets_pending']);
    await placing;
  });

  it('is for traders and platform administrators', async () => {
    const operator = await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId });
    for (const action of ['settle', 'resettle'] as const) {
      const refused = await preview({ results: resultsOf(event(), 'home') }, action, operator.token);
      assert.deepEqual([refused.status, refused.body.error.code], [403, 'forbidden']);
      const anonymous = await t.request('POST', `/api/v1/admin/trading/markets/${market()}/${action}/preview`, {
        body: { results: resultsOf(event(), 'home') },
      });
      assert.deepEqual([anonymous.status, anonymous.body.error.code], [401, 'unauthorized']);
    }
    assert.equal((await preview({ results: resultsOf(event(), 'home') }, 'settle', book.admin)).status, 200);
  });
});
