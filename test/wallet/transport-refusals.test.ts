import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { drainDeliveries } from '../helpers/delivery.ts';
import { freshSportsbookPerTest, newRequestId } from '../helpers/sportsbook.ts';

/**
 * A destination the transport refuses (the wallet name, localhost here, resolving to a private address) or cannot resolve is not
 * an unknown outcome: nothing was sent. The wallet is reached by name; each resolution takes the next answer of
 * `answers` ('fail' throws like a name that does not resolve), then `otherwise`.
 */
let answers: Array<string> = [];
let otherwise = '127.0.0.1';
// Registered before the sportsbook's own hooks, so each test's resolver starts afresh before its tenant is set up.
beforeEach(() => {
  answers = [];
  otherwise = '127.0.0.1';
});
const resolver = async () => {
  const answer = answers.shift() ?? otherwise;
  if (answer === 'fail') throw new Error('getaddrinfo ENOTFOUND localhost');
  return [answer];
};
const fresh = freshSportsbookPerTest(
  'player',
  100_00,
  { resolver },
  { walletUrl: (wallet) => `http://localhost:${new URL(wallet.url).port}` },
);

const single = () =>
  fresh.t.request('POST', '/api/v1/bets', {
    token: fresh.token,
    body: {
      requestId: newRequestId(),
      stake: 10_00,
      legs: [{ selectionId: fresh.book.events[0]!.home, odds: '2.10' }],
    },
  });
const obligations = () =>
  fresh.t.db
    .selectFrom('wallet_obligations')
    .select(['tx_id', 'status', 'hold_reason', 'last_outcome', 'attempts'])
    .orderBy('sequence')
    .execute();
const rollbackRow = async () => (await obligations()).find((row) => row.tx_id.startsWith('rollback:'))!;

describe('a destination the transport refuses', () => {
  it('a stake never sent is a refused bet with no rollback, and the player is not told why', async () => {
    otherwise = '10.0.0.1';
    const response = await single();
    assert.deepEqual(
      [response.status, response.body.error.code, response.body.error.details],
      [503, 'wallet_unavailable', undefined],
    );
    const rows = await obligations();
    assert.equal(rows.length, 1, 'no rollback is owed for a debit that never left');
    assert.deepEqual([rows[0]!.status, rows[0]!.last_outcome], ['refused', 'refused_address']);
    const bet = await fresh.t.db.selectFrom('bets').select(['status']).executeTakeFirstOrThrow();
    assert.equal(bet.status, 'refused');
    const calls = await fresh.t.db.selectFrom('wallet_calls').selectAll().where('endpoint', '=', 'debit').execute();
    assert.deepEqual(
      calls.map((call) => [call.outcome, call.reason, call.http_status]),
      [['not_sent', 'refused_address', null]],
    );
    assert.equal(
      fresh.wallet.wallet.received.filter((r) => r.endpoint === 'debit').length,
      0,
      'nothing reached the wallet',
    );
  });

  it('an owed movement never sent is held for review, not resent every 30 s', async () => {
    fresh.wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    answers = ['127.0.0.1'];
    otherwise = '10.0.0.1';
    assert.equal((await single()).status, 503);
    await drainDeliveries(fresh.t);
    const held = await rollbackRow();
    assert.deepEqual([held.status, held.hold_reason, held.attempts], ['held', 'refused_address', 1]);
    fresh.t.clock.advance(60_000);
    assert.equal(await fresh.t.app.services.delivery.runOnce(), 0, 'a held movement is not due any more');
    assert.equal((await rollbackRow()).attempts, 1);
  });

  it('a name that does not resolve is retried like an unknown outcome, and delivered once it resolves', async () => {
    fresh.wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    answers = ['127.0.0.1', 'fail', 'fail', 'fail', 'fail', 'fail'];
    assert.equal((await single()).status, 503);
    await drainDeliveries(fresh.t);
    const waiting = await rollbackRow();
    assert.deepEqual([waiting.status, waiting.last_outcome, waiting.attempts], ['pending', 'unresolvable', 5]);
    fresh.t.clock.advance(30_000);
    await drainDeliveries(fresh.t);
    assert.deepEqual([(await rollbackRow()).status, await fresh.wallet.balanceOf(fresh.player)], ['applied', 100_00]);
  });
});
