import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { freshSportsbookPerTest, newRequestId, settleMarket, type Sportsbook } from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * Results by rule through the trading API: a final score gives every market of the event its results by its type's
 * rule (the rules themselves: test/catalog/result-rules.test.ts), shown first as a dry run, then settled.
 */
const fresh = freshSportsbookPerTest('event-result');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const event = () => book.events[0]!;
const trade = async (method: string, path: string, body: unknown) => {
  const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: book.trader, body });
  assert.ok(response.status < 300, response.text);
  return response.body;
};
const result = (score: unknown, preview = false, eventId = event().id) =>
  t.request('POST', `/api/v1/admin/trading/events/${eventId}/result${preview ? '/preview' : ''}`, {
    token: book.trader,
    body: { score },
  });
/** The event as traders see it (settled markets included). */
const tradingEvent = async () => (await trade('GET', `/events/${event().id}`, undefined)).event;
const goLive = () => trade('PATCH', `/events/${event().id}`, { status: 'live' });
/** Adds a totals 2.25 line and a half-time result market to the first event; answers their selection ids. */
async function moreMarkets() {
  const { market: totals } = await trade('POST', `/events/${event().id}/markets`, {
    type: 'totals',
    line: '2.25',
    selections: [
      { name: 'Over 2.25', outcome: 'over', odds: '1.90' },
      { name: 'Under 2.25', outcome: 'under', odds: '1.90' },
    ],
  });
  const { market: halfTime } = await trade('POST', `/events/${event().id}/markets`, {
    type: 'half_time_result',
    selections: [
      { name: 'Home', outcome: 'home', odds: '2.80' },
      { name: 'Draw', outcome: 'draw', odds: '2.10' },
      { name: 'Away', outcome: 'away', odds: '4.00' },
    ],
  });
  return { totals, halfTime };
}
async function place(selectionId: string, odds: string, stake = 10_00): Promise<string> {
  const legs = [{ selectionId, odds }];
  const response = await t.request('POST', '/api/v1/bets', { token, body: { requestId: newRequestId(), stake, legs } });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}
const resultsOfMarket = (markets: Array<{ marketId: string; results?: unknown[] }>, marketId: string) =>
  markets
    .find((market) => market.marketId === marketId)!
    .results!.map((one) => {
      const { outcome, result, was } = one as { outcome: string; result: string; was: string | null };
      return [outcome, result, was];
    });

describe('results by rule', () => {
  it("a preview derives every market's results from the score and changes nothing", async () => {
    const { totals, halfTime } = await moreMarkets();
    await goLive();
    const betId = await place(event().home, '2.10');
    const response = await result({ home: 1, away: 1, halfTime: { home: 1, away: 0 } }, true);
    assert.equal(response.status, 200, response.text);
    const { markets } = response.body;
    assert.deepEqual(response.body.event, { id: event().id, status: 'live', score: { home: 0, away: 0 } });
    assert.deepEqual(
      markets.map((market: { marketId: string; action: string }) => [market.marketId, market.action]),
      [
        [event().marketId, 'settle'],
        [totals.id, 'settle'],
        [halfTime.id, 'settle'],
      ],
    );
    assert.deepEqual(resultsOfMarket(markets, event().marketId), [
      ['home', 'lost', null],
      ['draw', 'won', null],
      ['away', 'lost', null],
    ]);
    assert.deepEqual(resultsOfMarket(markets, totals.id), [
      ['over', 'half_lost', null],
      ['under', 'half_won', null],
    ]);
    assert.deepEqual(resultsOfMarket(markets, halfTime.id), [
      ['home', 'won', null],
      ['draw', 'lost', null],
      ['away', 'lost', null],
    ]);
    const matchPreview = markets[0].preview;
    assert.equal(matchPreview.bets, 1);
    assert.deepEqual(matchPreview.byResult, { won: 0, lost: 1, void: 0, half_won: 0, half_lost: 0, open: 0 });
    // nothing kept: the market is open, the bet is open, the event is live at 0-0
    const bet = await t.request('GET', `/api/v1/bets/${betId}`, { token });
    assert.equal(bet.body.bet.status, 'accepted');
    const shown = await tradingEvent();
    assert.equal(shown.status, 'live');
    assert.deepEqual(shown.score, { home: 0, away: 0 });
    assert.ok(shown.markets.every((market: { status: string }) => market.status === 'open'));
  });

  it('applying a score ends the event with it and settles every market by its rule, paying the bets', async () => {
    const { totals } = await moreMarkets();
    await goLive();
    const won = await place(totals.selections[0].id, '1.90');
    const lost = await place(event().home, '2.10');
    const response = await result({ home: 2, away: 1, halfTime: { home: 0, away: 0 } });
    assert.equal(response.status, 200, response.text);
    assert.deepEqual(response.body.event, { id: event().id, status: 'finished', score: { home: 2, away: 1 } });
    const totalsReport = response.body.markets.find((market: { marketId: string }) => market.marketId === totals.id);
    assert.deepEqual(totalsReport.report, {
      market: { id: totals.id, status: 'settled', settlementVersion: 1 },
      bets: { settled: 1, resettled: 0, reopened: 0, unchanged: 0 },
      owed: [{ currency: 'BRL', credits: 19_00, debits: 0, movements: 1 }],
    });
    const matchReport = response.body.markets.find(
      (market: { marketId: string }) => market.marketId === event().marketId,
    );
    assert.deepEqual(resultsOfMarket([matchReport], event().marketId), [
      ['home', 'won', null],
      ['draw', 'lost', null],
      ['away', 'lost', null],
    ]);
    await drainDeliveries(t);
    const statusOf = async (id: string) => (await t.request('GET', `/api/v1/bets/${id}`, { token })).body.bet.status;
    assert.equal(await statusOf(won), 'won');
    assert.equal(await statusOf(lost), 'won', '2-1 is a home win');
    assert.equal(await wallet.balanceOf(player), 100_00 - 20_00 + 19_00 + 21_00);
    const audit = await t.db
      .selectFrom('audit_log')
      .select(['action', 'outcome'])
      .where('target_id', '=', event().id)
      .where('action', '=', 'event.result')
      .execute();
    assert.deepEqual(audit, [{ action: 'event.result', outcome: 'success' }]);
  });

  it('applying the same score again changes nothing; a corrected score resettles what it changes', async () => {
    await goLive();
    const betId = await place(event().home, '2.10');
    assert.equal((await result({ home: 1, away: 0 })).status, 200);
    const again = await result({ home: 1, away: 0 });
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(
      again.body.markets.map((market: { action: string; report?: unknown }) => [market.action, market.report]),
      [['unchanged', undefined]],
    );
    const corrected = await result({ home: 1, away: 1 });
    assert.equal(corrected.status, 200, corrected.text);
    assert.equal(corrected.body.markets[0].action, 'resettle');
    assert.deepEqual(corrected.body.markets[0].report.bets, { settled: 0, resettled: 1, reopened: 0, unchanged: 0 });
    assert.deepEqual(resultsOfMarket(corrected.body.markets, event().marketId), [
      ['home', 'lost', 'won'],
      ['draw', 'won', 'lost'],
      ['away', 'lost', 'lost'],
    ]);
    await drainDeliveries(t);
    assert.equal((await t.request('GET', `/api/v1/bets/${betId}`, { token })).body.bet.status, 'lost');
    assert.equal(await wallet.balanceOf(player), 100_00 - 10_00, 'the payout taken back by a correction');
  });

  it('a market a trader settled meanwhile is corrected to the rule, not refused', async () => {
    await goLive();
    const typed = [
      { selectionId: event().home, result: 'lost' },
      { selectionId: event().draw, result: 'lost' },
      { selectionId: event().away, result: 'won' },
    ];
    // planned as a settlement (the preview), settled by a trader before the apply: the apply then resettles
    const preview = await result({ home: 3, away: 0 }, true);
    assert.equal(preview.body.markets[0].action, 'settle');
    assert.equal((await settleMarket(t, book, event().marketId, typed)).status, 200);
    const applied = await result({ home: 3, away: 0 });
    assert.equal(applied.status, 200, applied.text);
    assert.equal(applied.body.markets[0].action, 'resettle');
    assert.equal(applied.body.markets[0].report.market.settlementVersion, 2);
  });

  it('two applies at once settle each market once and owe each bet its payout once', async () => {
    await goLive();
    const betId = await place(event().home, '2.10');
    const [one, two] = await Promise.all([result({ home: 2, away: 0 }), result({ home: 2, away: 0 })]);
    assert.equal(one.status, 200, one.text);
    assert.equal(two.status, 200, two.text);
    // the later one found the market settled (when it planned, or when it settled) and changed nothing
    const reports = [one, two].map((response) => response.body.markets[0].report).filter(Boolean);
    assert.ok(reports.every((report) => report.market.settlementVersion === 1));
    assert.equal(
      reports.reduce((sum, report) => sum + report.bets.settled, 0),
      1,
      'the bet settled once',
    );
    const payouts = await t.db
      .selectFrom('wallet_obligations')
      .select(['kind', 'amount'])
      .where('bet_id', '=', betId)
      .where('kind', '=', 'payout')
      .execute();
    assert.deepEqual(payouts, [{ kind: 'payout', amount: 21_00 }]);
  });

  it('a market whose rule needs a part of the score that was not given is skipped, with the reason', async () => {
    const { totals, halfTime } = await moreMarkets();
    await goLive();
    const response = await result({ home: 0, away: 0 });
    assert.equal(response.status, 200, response.text);
    const skipped = response.body.markets.find((market: { marketId: string }) => market.marketId === halfTime.id);
    assert.deepEqual(skipped, {
      marketId: halfTime.id,
      name: 'Half-time result',
      type: 'half_time_result',
      action: 'skipped',
      reason: 'needs_half_time',
    });
    const statuses = (await tradingEvent()).markets.map((market: { id: string; status: string }) => [
      market.id,
      market.status,
    ]);
    assert.deepEqual(statuses, [
      [event().marketId, 'settled'],
      [totals.id, 'settled'],
      [halfTime.id, 'open'],
    ]);
  });

  it('an event that has not started, or was cancelled, takes no final score (409) and keeps its markets', async () => {
    const early = await result({ home: 1, away: 0 });
    assert.equal(early.status, 409);
    assert.equal(early.body.error.code, 'event_not_started');
    await trade('PATCH', `/events/${event().id}`, { status: 'cancelled' });
    const cancelled = await result({ home: 1, away: 0 }, true);
    assert.equal(cancelled.status, 409);
    assert.equal(cancelled.body.error.code, 'event_cancelled');
    assert.equal((await tradingEvent()).markets[0].status, 'open');
  });

  it('a score that cannot be final is refused (400) with the field, and changes nothing', async () => {
    await goLive();
    const cases: Array<[unknown, string]> = [
      [{ home: 1, away: 0, halfTime: { home: 2, away: 0 } }, 'score.halfTime'],
      [{ home: 1, away: 0, sets: [{ home: 6, away: 6 }] }, 'score.sets.0'],
      [{ home: 2, away: 0, sets: [{ home: 6, away: 4 }] }, 'score.sets'],
      [{ home: -1, away: 0 }, 'score.home'],
      [{ home: 1000, away: 0 }, 'score.home'],
      [{ home: 1, away: 0, extra: true }, 'score'],
      [{ home: 1 }, 'score'],
    ];
    for (const [score, field] of cases) {
      const response = await result(score);
      assert.equal(response.status, 400, JSON.stringify(score));
      assert.equal(response.body.error.code, 'validation', JSON.stringify(score));
      assert.match(JSON.stringify(response.body.error.details), new RegExp(field.replace(/\./g, '\\.')));
    }
    assert.equal((await tradingEvent()).status, 'live');
  });

  it('an unknown event is 404; a player or no token cannot give results', async () => {
    const unknown = await result({ home: 1, away: 0 }, false, 'ev_unknown');
    assert.equal(unknown.status, 404);
    const anonymous = await t.request('POST', `/api/v1/admin/trading/events/${event().id}/result`, {
      body: { score: { home: 1, away: 0 } },
    });
    assert.equal(anonymous.status, 401);
    const asPlayer = await t.request('POST', `/api/v1/admin/trading/events/${event().id}/result`, {
      token,
      body: { score: { home: 1, away: 0 } },
    });
    assert.equal(asPlayer.status, 401);
  });
});
