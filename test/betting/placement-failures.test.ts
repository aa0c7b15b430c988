import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { STALE_PENDING_MS } from '../../src/betting/recovery.ts';
import type { TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { freshSportsbookPerTest, newRequestId, type Sportsbook } from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/** Failures after the stake was recorded: the player is told the truth, and no stake stays taken. */
const fresh = freshSportsbookPerTest('failure-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
let player: string;
beforeEach(() => ({ t, wallet, book, token, player } = fresh));

const slip = () => ({
  requestId: newRequestId(),
  stake: 10_00,
  legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }],
});
const place = (body: object) => t.request('POST', '/api/v1/bets', { token, body });

/** Replaces a method of a service for the time of `work`: the database "fails" exactly there. */
async function failing<T extends object, K extends keyof T>(
  target: T,
  method: K,
  replacement: T[K],
  work: () => Promise<void>,
) {
  const original = target[method];
  target[method] = replacement;
  try {
    await work();
  } finally {
    target[method] = original;
  }
}

describe('a placement that loses its database after the stake went out', () => {
  it('answers "not known yet", and the running service refuses the bet and returns the stake within a minute', async () => {
    const ledger = t.app.services.ledger.attempts;
    const lost = () => {
      throw new Error('database connection lost');
    };
    const body = slip();
    await failing(ledger, 'stakeOutcome', lost, async () => {
      await failing(ledger, 'markStakeInterrupted', lost, async () => {
        const response = await place(body);
        assert.deepEqual([response.status, response.body.error.code], [409, 'bet_in_progress']);
      });
    });
    assert.equal(await wallet.balanceOf(player), 90_00, 'the wallet took the stake');
    const pending = await t.db.selectFrom('bets').select('status').executeTakeFirstOrThrow();
    assert.equal(pending.status, 'pending');

    const sweep = t.app.jobs.find((job) => job.name === 'resolve-stale-pending-bets');
    assert.ok(sweep, 'the running service looks for stale pending bets');
    await sweep.runOnce();
    assert.equal(
      (await t.db.selectFrom('bets').select('status').executeTakeFirstOrThrow()).status,
      'pending',
      'not before its time',
    );

    t.clock.advance(STALE_PENDING_MS + 1_000);
    await sweep.runOnce();
    await drainDeliveries(t);
    const bet = await t.db.selectFrom('bets').select('status').executeTakeFirstOrThrow();
    assert.equal(bet.status, 'refused');
    assert.equal(await wallet.balanceOf(player), 100_00, 'the stake was rolled back');
    const repeat = await place(body);
    assert.deepEqual([repeat.status, repeat.body.error.code], [503, 'wallet_unavailable']);
  });
});

describe('a placement whose acceptance committed but whose acknowledgement was lost', () => {
  it('tells the player the bet is accepted, with the balance the wallet gave', async () => {
    const outcomes = t.app.services.stakeDecisions;
    const decide = outcomes.decide.bind(outcomes);
    await failing(
      outcomes,
      'decide',
      async (...args) => {
        await decide(...args);
        throw new Error('commit acknowledgement lost');
      },
      async () => {
        const response = await place(slip());
        assert.equal(response.status, 201, response.text);
        assert.equal(response.body.bet.status, 'accepted');
        assert.deepEqual(response.body.balance, { balance: 90_00, currency: 'BRL' });
      },
    );
    assert.equal(wallet.wallet.received.filter((r) => r.endpoint === 'rollback').length, 0, 'nothing rolled back');
  });
});

describe('money owed that stays unknown', () => {
  it('is sent in one burst of five attempts, then once per 30 s, not a new burst each time', async () => {
    wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    wallet.fault({ mode: 'status_503', endpoint: 'rollback', times: 20 });
    await place(slip());
    await drainDeliveries(t);
    const attempts = async () =>
      (
        await t.db
          .selectFrom('wallet_obligations')
          .select('attempts')
          .where('kind', '=', 'rollback')
          .executeTakeFirstOrThrow()
      ).attempts;
    assert.equal(await attempts(), 5);
    for (const expected of [6, 7]) {
      t.clock.advance(30_000);
      await t.app.services.delivery.runOnce();
      await drainDeliveries(t);
      assert.equal(await attempts(), expected);
    }
  });
});
