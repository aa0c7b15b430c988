import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { loginAsStaff, type TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import {
  newRequestId,
  resultsOf,
  settleMarket,
  freshSportsbookPerTest,
  type Sportsbook,
} from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

const fresh = freshSportsbookPerTest('settle-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

async function place(legs: Array<{ selectionId: string; odds: string }>, stake = 10_00): Promise<string> {
  const response = await t.request('POST', '/api/v1/bets', { token, body: { requestId: newRequestId(), stake, legs } });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
const single = (selectionId = book.events[0]!.home, odds = '2.10', stake = 10_00) =>
  place([{ selectionId, odds }], stake);
const myBet = async (id: string) => (await t.request('GET', `/api/v1/bets/${id}`, { token })).body.bet;
const postings = (betId: string) =>
  t.db
    .selectFrom('wallet_obligations')
    .select(['tx_id', 'kind', 'endpoint', 'amount', 'status', 'body'])
    .where('bet_id', '=', betId)
    .orderBy('sequence')
    .execute();

describe('settling a market', () => {
  it('a winning single is owed one payout credit, payout:<betId>:1, floor(stake x odds), and the wallet is paid', async () => {
    const betId = await single();
    const settled = await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
    assert.equal(settled.status, 200, settled.text);
    assert.deepEqual(settled.body, {
      market: { id: book.events[0]!.marketId, status: 'settled', settlementVersion: 1 },
      bets: { settled: 1, resettled: 0, reopened: 0, unchanged: 0 },
      owed: [{ currency: 'BRL', credits: 21_00, debits: 0, movements: 1 }],
    });
    const before = await myBet(betId);
    assert.equal(before.status, 'won');
    assert.equal(before.settledReturn, 21_00);
    assert.deepEqual(before.legs[0].result, 'won');
    assert.deepEqual(
      before.movements.map((m: { kind: string; status: string }) => [m.kind, m.status]),
      [
        ['bet', 'applied'],
        ['payout', 'owed'],
      ],
      'won shows before the credit is delivered, and says it is still owed',
    );
    await drainDeliveries(t);
    assert.equal(await wallet.balanceOf(player), 90_00 + 21_00);
    const [, payout] = await postings(betId);
    assert.deepEqual(JSON.parse(payout!.body), {
      txId: `payout:${betId}:1`,
      playerId: player,
      amount: 21_00,
      currency: 'BRL',
      kind: 'payout',
      betId,
      ref: `result:${book.events[0]!.marketId}:1`,
    });
    assert.equal(payout!.status, 'applied');
    assert.equal((await myBet(betId)).movements[1].status, 'applied');
  });

  it('a lost single is owed a payout credit of 0, which the wallet confirms with its balance unchanged', async () => {
    const betId = await single();
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'away'));
    await drainDeliveries(t);
    assert.deepEqual(
      (await postings(betId)).map((p) => [p.tx_id, p.kind, p.amount, p.status]),
      [
        [`bet:${betId}`, 'bet', 10_00, 'applied'],
        [`payout:${betId}:1`, 'payout', 0, 'applied'],
      ],
    );
    assert.equal((await myBet(betId)).status, 'lost');
    assert.equal(await wallet.balanceOf(player), 90_00);
  });

  it('a void single gets its stake back as a refund credit', async () => {
    const betId = await single();
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'void'));
    await drainDeliveries(t);
    const [, refund] = await postings(betId);
    assert.deepEqual([refund!.tx_id, refund!.kind, refund!.amount], [`payout:${betId}:1`, 'refund', 10_00]);
    assert.equal((await myBet(betId)).status, 'void');
    assert.equal(await wallet.balanceOf(player), 100_00);
  });

  it('an accumulator settles when its last leg does, void legs dropping out of the odds', async () => {
    const [first, second] = book.events;
    const betId = await place([
      { selectionId: first!.home, odds: '2.10' },
      { selectionId: second!.away, odds: '3.60' },
    ]);
    const partly = await settleMarket(t, book, first!.marketId, resultsOf(first!, 'void'));
    assert.deepEqual(partly.body.bets, { settled: 0, resettled: 0, reopened: 0, unchanged: 1 });
    assert.equal((await myBet(betId)).status, 'accepted');
    await settleMarket(t, book, second!.marketId, resultsOf(second!, 'away'));
    await drainDeliveries(t);
    const bet = await myBet(betId);
    assert.deepEqual([bet.status, bet.settledReturn], ['won', 36_00]);
    assert.equal(await wallet.balanceOf(player), 90_00 + 36_00);
  });

  it('a lost leg loses an accumulator at once, whatever its other legs still wait for', async () => {
    const [first, second] = book.events;
    const betId = await place([
      { selectionId: first!.home, odds: '2.10' },
      { selectionId: second!.away, odds: '3.60' },
    ]);
    const settled = await settleMarket(t, book, first!.marketId, resultsOf(first!, 'draw'));
    assert.deepEqual(settled.body.bets.settled, 1);
    await drainDeliveries(t);
    const bet = await myBet(betId);
    assert.deepEqual(
      [bet.status, bet.settledReturn, bet.legs.map((leg: { result: string }) => leg.result)],
      ['lost', 0, ['lost', null]],
    );
    const later = await settleMarket(t, book, second!.marketId, resultsOf(second!, 'away'));
    assert.deepEqual(later.body.bets, { settled: 0, resettled: 0, reopened: 0, unchanged: 1 });
    assert.deepEqual(later.body.owed, []);
    assert.equal((await postings(betId)).length, 2, 'still exactly one initial credit');
  });

  it('half results on a quarter line pay half at the odds and return half', async () => {
    const { market } = (
      await t.request('POST', `/api/v1/admin/trading/events/${book.events[1]!.id}/markets`, {
        token: book.trader,
        body: {
          type: 'totals',
          line: '2.25',
          selections: [
            { name: 'Over 2.25', outcome: 'over', odds: '1.90' },
            { name: 'Under 2.25', outcome: 'under', odds: '1.95' },
          ],
        },
      })
    ).body;
    const over = await single(market.selections[0].id, '1.90');
    const under = await single(market.selections[1].id, '1.95');
    const settled = await settleMarket(t, book, market.id, [
      { selectionId: market.selections[0].id, result: 'half_won' },
      { selectionId: market.selections[1].id, result: 'half_lost' },
    ]);
    assert.deepEqual(settled.body.owed, [{ currency: 'BRL', credits: 14_50 + 5_00, debits: 0, movements: 2 }]);
    assert.deepEqual([(await myBet(over)).status, (await myBet(over)).settledReturn], ['half_won', 14_50]);
    assert.deepEqual([(await myBet(under)).status, (await myBet(under)).settledReturn], ['half_lost', 5_00]);
  });

  it('gives back the exposure the settled bets reserved', async () => {
    await single();
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
    const rows = await t.db.selectFrom('exposure').select('reserved').execute();
    assert.ok(rows.length > 0);
    assert.ok(rows.every((row) => row.reserved === 0));
  });

  it('takes no more bets on a settled market', async () => {
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
    const response = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
    });
    assert.deepEqual([response.status, response.body.error.code], [409, 'market_unavailable']);
  });

  it('shows the results in the catalog', async () => {
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'away'));
    const { event } = (await t.request('GET', `/api/v1/catalog/events/${book.events[0]!.id}`)).body;
    assert.deepEqual([event.markets[0].status, event.markets[0].settlementVersion], ['settled', 1]);
    assert.deepEqual(
      event.markets[0].selections.map((s: { result: string }) => s.result),
      ['lost', 'lost', 'won'],
    );
  });

  it('lists settled bets under My Bets ?status=settled, open ones under the default', async () => {
    const settled = await single();
    const open = await single(book.events[1]!.home);
    await settleMarket(t, book, book.events[0]!.marketId, resultsOf(book.events[0]!, 'home'));
    const ids = async (query: string) =>
      (await t.request('GET', `/api/v1/bets${query}`, { token })).body.bets.map((bet: { id: string }) => bet.id);
    assert.deepEqual(await ids(''), [open]);
    assert.deepEqual(await ids('?status=settled'), [settled]);
  });
});

describe('what a settlement refuses, changing nothing', () => {
  const market = () => book.events[0]!.marketId;
  const refused = async (body: unknown, status: number, code: string, field?: string) => {
    const response = await t.request('POST', `/api/v1/admin/trading/markets/${market()}/settle`, {
      token: book.trader,
      body,
    });
    assert.deepEqual([response.status, response.body.error.code], [status, code], response.text);
    if (field) assert.equal(response.body.error.details.field, field);
    const row = await t.db.selectFrom('markets').selectAll().where('id', '=', market()).executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.settlement_version], ['open', 0]);
  };

  it('a selection without a result', () =>
    refused({ results: resultsOf(book.events[0]!, 'home').slice(0, 2) }, 400, 'validation', 'results'));

  it('a selection twice', () => {
    const results = resultsOf(book.events[0]!, 'home');
    return refused({ results: [...results, results[0]] }, 400, 'validation', 'results.3.selectionId');
  });

  it('a selection of another market', () => {
    const results = resultsOf(book.events[0]!, 'home');
    results[2] = { selectionId: book.events[1]!.away, result: 'lost' };
    return refused({ results }, 400, 'validation', 'results.2.selectionId');
  });

  it('a half result on a line that is not a quarter line', () => {
    const results = resultsOf(book.events[0]!, 'home');
    results[0] = { selectionId: book.events[0]!.home, result: 'half_won' };
    return refused({ results }, 400, 'validation', 'results.0.result');
  });

  it('an unknown result, an unknown field, an empty list', async () => {
    const results = resultsOf(book.events[0]!, 'home');
    await refused({ results: [{ ...results[0], result: 'draw' }, ...results.slice(1)] }, 400, 'validation');
    await refused({ results, note: 'x' }, 400, 'validation');
    await refused({ results: [] }, 400, 'validation');
  });

  it('a market with a bet still waiting for its stake', async () => {
    wallet.fault({ mode: 'delay', endpoint: 'debit', delayMs: 1_500, apply: true });
    const placing = single();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await refused({ results: resultsOf(book.events[0]!, 'home') }, 409, 'bets_pending');
    await placing;
  });

  it('a market settled already: settle once, resettle to correct', async () => {
    await settleMarket(t, book, market(), resultsOf(book.events[0]!, 'home'));
    const again = await settleMarket(t, book, market(), resultsOf(book.events[0]!, 'away'));
    assert.deepEqual(
      [again.status, again.body.error.code, again.body.error.details],
      [409, 'market_settled', { settlementVersion: 1 }],
    );
  });

  it('a resettlement of a market never settled', async () => {
    const response = await settleMarket(t, book, market(), resultsOf(book.events[0]!, 'home'), 'resettle');
    assert.deepEqual([response.status, response.body.error.code], [409, 'market_not_settled']);
  });

  it('an unknown market', async () => {
    const response = await settleMarket(t, book, 'mk_nope', resultsOf(book.events[0]!, 'home'));
    assert.deepEqual([response.status, response.body.error.code], [404, 'not_found']);
  });

  it('anyone but a trader or a platform administrator', async () => {
    const operator = await loginAsStaff(t, 'operator', { tenantId: book.tenant.tenantId });
    const response = await t.request('POST', `/api/v1/admin/trading/markets/${market()}/settle`, {
      token: operator.token,
      body: { results: resultsOf(book.events[0]!, 'home') },
    });
    assert.deepEqual([response.status, response.body.error.code], [403, 'forbidden']);
  });

  it('is audited with its results', async () => {
    await settleMarket(t, book, market(), resultsOf(book.events[0]!, 'home'));
    const entry = await t.db
      .selectFrom('audit_log')
      .selectAll()
      .where('action', '=', 'market.settle')
      .executeTakeFirstOrThrow();
    assert.deepEqual((entry.details as { results: unknown }).results, resultsOf(book.events[0]!, 'home'));
  });
});
