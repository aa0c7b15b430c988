import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import type { TestApp } from '../helpers/app.ts';
import { freshSportsbookPerTest, newRequestId, playerWithBalance, type Sportsbook } from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * The trader's risk view of an event (docs/betting.md, "The risk view"): per selection the open stakes and payouts,
 * the book's result on each outcome, the largest bets and the limits in use, worked out by hand below.
 */
const fresh = freshSportsbookPerTest('risk-player', 1_000_00);
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
beforeEach(() => ({ t, wallet, book, token } = fresh));

async function place(as: string, stake: number, legs: Array<{ selectionId: string; odds: string }>) {
  const response = await t.request('POST', '/api/v1/bets', {
    token: as,
    body: { requestId: newRequestId(), stake, legs },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id as string;
}
const risk = (eventId = book.events[0]!.id, as = book.trader) =>
  t.request('GET', `/api/v1/admin/trading/events/${eventId}/risk`, { token: as });

describe("the trader's risk view", () => {
  it("shows each outcome's stakes, payouts and the book's result, the largest bets and the limits in use", async () => {
    const [first, second] = book.events;
    const other = await playerWithBalance(t, book, wallet, 'risk-other', 1_000_00);
    const single = await place(token, 10_00, [{ selectionId: first!.home, odds: '2.10' }]);
    const draw = await place(other, 5_00, [{ selectionId: first!.draw, odds: '3.25' }]);
    const acca = await place(other, 2_00, [
      { selectionId: first!.home, odds: '2.10' },
      { selectionId: second!.away, odds: '3.60' },
    ]);
    const response = await risk();
    assert.equal(response.status, 200, response.text);
    const { currencies, largestBets, limits } = response.body;
    // home: 10.00 at 2.10 pays 21.00, the accumulator 2.00 at 7.56 pays 15.12; draw: 5.00 at 3.25 pays 16.25
    assert.deepEqual(currencies, [
      {
        currency: 'BRL',
        stakes: 17_00,
        markets: [
          {
            marketId: first!.marketId,
            name: 'Match result',
            status: 'open',
            stakes: 17_00,
            selections: [
              {
                selectionId: first!.home,
                name: 'Flamengo',
                odds: '2.10',
                bets: 2,
                stakes: 12_00,
                payouts: 36_12,
                bookResult: -19_12,
              },
              {
                selectionId: first!.draw,
                name: 'Draw',
                odds: '3.25',
                bets: 1,
                stakes: 5_00,
                payouts: 16_25,
                bookResult: 75,
              },
              {
                selectionId: first!.away,
                name: 'Palmeiras',
                odds: '3.60',
                bets: 0,
                stakes: 0,
                payouts: 0,
                bookResult: 17_00,
              },
            ],
          },
        ],
      },
    ]);
    assert.deepEqual(
      largestBets.map((bet: { betId: string; potentialPayout: number; legs: number }) => [
        bet.betId,
        bet.potentialPayout,
        bet.legs,
      ]),
      [
        [single, 21_00, 1],
        [draw, 16_25, 1],
        [acca, 15_12, 2],
      ],
    );
    // liability (payout less stake) reserved: 11.00 + 11.25 + 13.12 on the event, 11.00 + 13.12 on its home side
    assert.equal(limits.length, 1);
    assert.deepEqual(limits[0].event.reserved, 35_37);
    assert.deepEqual(limits[0].busiestSelection, {
      selectionId: first!.home,
      reserved: 24_12,
      max: limits[0].busiestSelection.max,
    });
  });

  it('a settled or cashed-out bet leaves the view; an event with no bet shows none', async () => {
    const empty = await risk();
    assert.deepEqual([empty.body.currencies, empty.body.largestBets, empty.body.limits], [[], [], []]);
    const betId = await place(token, 10_00, [{ selectionId: book.events[0]!.home, odds: '2.10' }]);
    const offer = await t.request('GET', `/api/v1/bets/${betId}/cashout`, { token });
    const cashed = await t.request('POST', `/api/v1/bets/${betId}/cashout`, {
      token,
      body: { amount: offer.body.offer.amount, stake: 10_00, requestId: newRequestId() },
    });
    assert.equal(cashed.status, 200, cashed.text);
    const after = await risk();
    assert.deepEqual(after.body.currencies, []);
  });

  it('is for traders: 404 for an unknown event, 401 without a token', async () => {
    assert.equal((await risk('ev_unknown')).status, 404);
    const anonymous = await t.request('GET', `/api/v1/admin/trading/events/${book.events[0]!.id}/risk`);
    assert.equal(anonymous.status, 401);
  });
});
