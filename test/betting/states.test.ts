import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  BET_STATES,
  BET_TRANSITIONS,
  BetRaceError,
  checkBetTransition,
  ForbiddenBetTransitionError,
  type BetState,
} from '../../src/betting/states.ts';
import { moveBet } from '../../src/betting/moves.ts';
import { startTestApp, type TestApp } from '../helpers/app.ts';
import { newRequestId, playerWithBalance, setUpSportsbook } from '../helpers/sportsbook.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

/** The bet state machine: its table is the only set of moves, and every move is guarded in the database. */
const SETTLED: BetState[] = ['won', 'lost', 'void', 'half_won', 'half_lost'];
const ALLOWED: Array<[BetState, BetState]> = [
  ['pending', 'accepted'],
  ['pending', 'refused'],
  // placed: settled, or cashed out in part or in full
  ...SETTLED.map((to): [BetState, BetState] => ['accepted', to]),
  ['accepted', 'partially_cashed_out'],
  ['accepted', 'cashed_out'],
  // a sandbox cancellation before any credit: the stake is rolled back
  ['accepted', 'refused'],
  ...SETTLED.map((to): [BetState, BetState] => ['partially_cashed_out', to]),
  ['partially_cashed_out', 'partially_cashed_out'],
  ['partially_cashed_out', 'cashed_out'],
  // resettled: to any result (the same one with another return included), or open again
  ...SETTLED.flatMap((from) =>
    [...SETTLED, 'accepted', 'partially_cashed_out'].map((to): [BetState, BetState] => [from, to as BetState]),
  ),
];

describe('bet states', () => {
  it('allows exactly the moves of the table, and refuses every other', () => {
    const allowed = new Set(ALLOWED.map(([from, to]) => `${from}->${to}`));
    for (const from of BET_STATES) {
      for (const to of BET_STATES) {
        const key = `${from}->${to}`;
        if (allowed.has(key)) assert.doesNotThrow(() => checkBetTransition(from, to), key);
        else assert.throws(() => checkBetTransition(from, to), ForbiddenBetTransitionError, key);
      }
    }
    assert.equal(Object.values(BET_TRANSITIONS).flat().length, ALLOWED.length);
  });
});

let t: TestApp;
let wallet: TestWallet;
before(async () => {
  t = await startTestApp();
  wallet = await startTestWallet(t.clock);
});
after(async () => {
  await t.close();
  await wallet.close();
});

describe('moving a bet in the database', () => {
  it('moves only from the state the writer read; a second writer gets BetRaceError; a forbidden move changes nothing', async () => {
    const book = await setUpSportsbook(t, wallet);
    const token = await playerWithBalance(t, book, wallet, 'states-player', 100_00);
    const placed = await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
    });
    const id = placed.body.bet.id;
    await moveBet(t.db, { id, status: 'accepted' }, 'lost');
    await assert.rejects(moveBet(t.db, { id, status: 'accepted' }, 'won'), BetRaceError);
    await assert.rejects(moveBet(t.db, { id, status: 'lost' }, 'pending'), ForbiddenBetTransitionError);
    const bet = await t.db.selectFrom('bets').select('status').where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(bet.status, 'lost');
  });
});
