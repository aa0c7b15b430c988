// The odds acceptance policy of a placement (`acceptOddsChanges`, src/betting/slip-rules.ts): which changes of the
// odds since the player saw them a slip accepts, and that an accepted bet always stands at the current odds, for
// its stake, its potential payout and what it records.
import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { type TestApp } from '../helpers/app.ts';
import { until } from '../helpers/process.ts';
import { newRequestId, type Sportsbook, freshSportsbookPerTest } from '../helpers/sportsbook.ts';
import { type TestWallet } from '../helpers/wallet.ts';

let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
const fresh = freshSportsbookPerTest('odds-player');
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const ODDS_CHANGED = 'The odds have changed; review the new odds and place again.';

const place = (body: Record<string, unknown>) =>
  t.request('POST', '/api/v1/bets', { token, body: { requestId: newRequestId(), stake: 10_00, ...body } });
const setOdds = async (selectionId: string, odds: string) => {
  const response = await t.request('PUT', `/api/v1/admin/trading/selections/${selectionId}/odds`, {
    token: book.trader,
    body: { odds },
  });
  assert.equal(response.status, 200, response.text);
};
/** What the database keeps of a bet: its combined odds and payout, and each leg's odds and odds version. */
async function recorded(betId: string) {
  const bet = await t.db
    .selectFrom('bets')
    .select(['status', 'stake', 'odds_milli', 'potential_payout'])
    .where('id', '=', betId)
    .executeTakeFirstOrThrow();
  const legs = await t.db
    .selectFrom('bet_legs')
    .select(['selection_id', 'odds_milli', 'odds_version'])
    .where('bet_id', '=', betId)
    .orderBy('position')
    .execute();
  return { ...bet, legs };
}
/** The amounts the wallet has debited from the player. */
const debits = async () =>
  (await wallet.wallet.store.transactions())
    .filter((tx) => tx.player_id === player && tx.endpoint === 'debit')
    .map((tx) => tx.amount);

describe('a single, in each acceptance mode', () => {
  // the selection is offered at 2.10; the player saw `seen`
  const cases = [
    { mode: 'none', seen: '2.10', accepted: true },
    { mode: 'none', seen: '2.00', accepted: false }, // the odds went up since
    { mode: 'none', seen: '2.20', accepted: false }, // the odds went down since
    { mode: 'higher', seen: '2.10', accepted: true },
    { mode: 'higher', seen: '2.00', accepted: true },
    { mode: 'higher', seen: '2.20', accepted: false },
    { mode: 'any', seen: '2.10', accepted: true },
    { mode: 'any', seen: '2.00', accepted: true },
    { mode: 'any', seen: '2.20', accepted: true },
    // no choice made: higher, as before the choice existed
    { mode: undefined, seen: '2.00', accepted: true },
    { mode: undefined, seen: '2.20', accepted: false },
  ] as const;
  for (const { mode, seen, accepted } of cases) {
    const change = seen === '2.10' ? 'the same odds' : seen < '2.10' ? 'higher odds' : 'lower odds';
    it(`${mode ?? 'no choice'}, ${change}: ${accepted ? 'placed at the current 2.10' : '409 odds_changed with 2.10'}`, async () => {
      const selectionId = book.events[0]!.home;
      const response = await place({
        legs: [{ selectionId, odds: seen }],
        ...(mode ? { acceptOddsChanges: mode } : {}),
      });
      if (!accepted) {
        assert.equal(response.status, 409, response.text);
        assert.deepEqual(response.body, {
          error: {
            code: 'odds_changed',
            message: ODDS_CHANGED,
            details: { legs: [{ selectionId, odds: '2.10', oddsVersion: 1 }] },
          },
        });
        assert.deepEqual(await debits(), [], 'nothing reached the wallet');
        assert.equal(await t.db.selectFrom('bets').select('id').executeTakeFirst(), undefined);
        return;
      }
      assert.equal(response.status, 201, response.text);
      const { bet, balance } = response.body;
      assert.deepEqual(
        { status: bet.status, stake: bet.stake, odds: bet.odds, potentialPayout: bet.potentialPayout, balance },
        {
          status: 'accepted',
          stake: 10_00,
          odds: '2.10',
          potentialPayout: 21_00,
          balance: { balance: 90_00, currency: 'BRL' },
        },
      );
      assert.deepEqual(
        bet.legs.map((leg: { selectionId: string; odds: string }) => [leg.selectionId, leg.odds]),
        [[selectionId, '2.10']],
      );
      assert.deepEqual(await recorded(bet.id), {
        status: 'accepted',
        stake: 10_00,
        odds_milli: 2100,
        potential_payout: 21_00,
        legs: [{ selection_id: selectionId, odds_milli: 2100, odds_version: 1 }],
      });
      assert.deepEqual(await debits(), [10_00], 'the stake is debited once, whatever the odds');
    });
  }
});

describe('an accumulator', () => {
  it('with one leg lower: refused in none and higher, naming that leg only; placed at the current odds in any', async () => {
    const [first, second] = book.events;
    // the player saw 2.10 and 3.60; the second leg is now 3.40
    await setOdds(second!.away, '3.40');
    const legs = [
      { selectionId: first!.home, odds: '2.10' },
      { selectionId: second!.away, odds: '3.60' },
    ];
    const refusal = {
      error: {
        code: 'odds_changed',
        message: ODDS_CHANGED,
        details: { legs: [{ selectionId: second!.away, odds: '3.40', oddsVersion: 2 }] },
      },
    };
    for (const mode of ['none', 'higher'] as const) {
      const refused = await place({ legs, acceptOddsChanges: mode });
      assert.equal(refused.status, 409, refused.text);
      assert.deepEqual(refused.body, refusal);
    }
    assert.deepEqual(await debits(), []);

    const response = await place({ stake: 5_00, legs, acceptOddsChanges: 'any' });
    assert.equal(response.status, 201, response.text);
    const { bet } = response.body;
    // 2.10 × 3.40 = 7.14; 5.00 × 7.14 = 35.70
    assert.deepEqual(
      [bet.odds, bet.potentialPayout, bet.legs.map((leg: { odds: string }) => leg.odds)],
      ['7.14', 35_70, ['2.10', '3.40']],
    );
    assert.deepEqual(await recorded(bet.id), {
      status: 'accepted',
      stake: 5_00,
      odds_milli: 7140,
      potential_payout: 35_70,
      legs: [
        { selection_id: first!.home, odds_milli: 2100, odds_version: 1 },
        { selection_id: second!.away, odds_milli: 3400, odds_version: 2 },
      ],
    });
    assert.deepEqual(await debits(), [5_00]);
  });

  it('with one leg higher and one lower, in none: both legs named', async () => {
    const [first, second] = book.events;
    await setOdds(first!.home, '2.30');
    await setOdds(second!.away, '3.40');
    const response = await place({
      legs: [
        { selectionId: first!.home, odds: '2.10' },
        { selectionId: second!.away, odds: '3.60' },
      ],
      acceptOddsChanges: 'none',
    });
    assert.equal(response.status, 409, response.text);
    assert.deepEqual(response.body.error.details, {
      legs: [
        { selectionId: first!.home, odds: '2.30', oddsVersion: 2 },
        { selectionId: second!.away, odds: '3.40', oddsVersion: 2 },
      ],
    });
  });
});

describe('the choice itself', () => {
  it('refuses an unknown value with 400 validation, before anything is read or sent', async () => {
    for (const value of ['lower', 'ANY', '', null, true]) {
      const response = await place({
        legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }],
        acceptOddsChanges: value,
      });
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(
        [response.body.error.code, response.body.error.details.field],
        ['validation', 'acceptOddsChanges'],
      );
    }
    assert.deepEqual(await debits(), []);
  });

  it('is not part of the slip: a repeat with another choice is answered with the bet placed first', async () => {
    const selectionId = book.events[0]!.home;
    const requestId = newRequestId();
    const body = { requestId, stake: 10_00, legs: [{ selectionId, odds: '2.10' }] };
    const first = await t.request('POST', '/api/v1/bets', { token, body: { ...body, acceptOddsChanges: 'any' } });
    assert.equal(first.status, 201, first.text);
    await setOdds(selectionId, '2.30');
    const repeat = await t.request('POST', '/api/v1/bets', { token, body: { ...body, acceptOddsChanges: 'none' } });
    assert.equal(repeat.status, 200, repeat.text);
    assert.deepEqual(repeat.body.bet, first.body.bet);
    assert.deepEqual(await debits(), [10_00]);
  });
});

describe('an odds change while the bet is being placed', () => {
  it('once the bet is recorded, it stands at the odds it was recorded with; the next bet takes the new odds', async () => {
    const selectionId = book.events[0]!.home;
    // the stake debit waits in the wallet, so the trader's change lands while the placement is in flight
    wallet.setLatency(1_000);
    const placing = place({ legs: [{ selectionId, odds: '2.10' }], acceptOddsChanges: 'none' });
    await until('the pending bet', async () =>
      (await t.db.selectFrom('bets').select('id').where('status', '=', 'pending').executeTakeFirst())
        ? true
        : undefined,
    );
    await setOdds(selectionId, '1.80');
    const response = await placing;
    wallet.setLatency(0);
    assert.equal(response.status, 201, response.text);
    assert.deepEqual([response.body.bet.odds, response.body.bet.potentialPayout], ['2.10', 21_00]);
    assert.deepEqual((await recorded(response.body.bet.id)).legs, [
      { selection_id: selectionId, odds_milli: 2100, odds_version: 1 },
    ]);

    const next = await place({ legs: [{ selectionId, odds: '2.10' }], acceptOddsChanges: 'none' });
    assert.deepEqual(next.body.error.details, { legs: [{ selectionId, odds: '1.80', oddsVersion: 2 }] });
    assert.deepEqual(await debits(), [10_00]);
  });
});
