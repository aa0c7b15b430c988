import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { drainDeliveries } from '../helpers/delivery.ts';
import { newRequestId } from '../helpers/sportsbook.ts';
import {
  control,
  place,
  postings,
  sandboxPerTest,
  single,
  START_BALANCE,
  walletMoves,
  type SandboxFixture,
} from './fixture.ts';

/**
 * The sandbox outcome controls, movement by movement: each control of a sandbox bet makes the partner's wallet see
 * the movement the money rules owe for it, with its txId and amount, delivered by the ledger like any other.
 */
const fixture = sandboxPerTest();
let f: SandboxFixture;
beforeEach(() => {
  f = fixture;
});

const balance = () => f.wallets.sandbox.balanceOf(f.player);
const home = () => single(f.events[0]!.home, '2.10');
const won = (selectionId = f.events[0]!.home) => ({ results: [{ selectionId, result: 'won' }] });
const lost = (selectionId = f.events[0]!.home) => ({ results: [{ selectionId, result: 'lost' }] });
const stake = (betId: string) => [`bet:${betId}`, 'debit', 'bet', 10_00, null];

async function settled(betId: string, action: Parameters<typeof control>[2], body: unknown = {}) {
  const response = await control(f, betId, action, body);
  assert.equal(response.status, 200, response.text);
  await drainDeliveries(f.t);
  return response.body;
}

async function cashOut(betId: string, part?: number) {
  const query = part === undefined ? '' : `?stake=${part}`;
  const offer = await f.t.request('GET', `/api/v1/bets/${betId}/cashout${query}`, { token: f.token });
  assert.equal(offer.status, 200, offer.text);
  const body = { requestId: newRequestId(), amount: offer.body.offer.amount, ...(part ? { stake: part } : {}) };
  const taken = await f.t.request('POST', `/api/v1/bets/${betId}/cashout`, { token: f.token, body });
  assert.equal(taken.status, 200, taken.text);
  await drainDeliveries(f.t);
  return offer.body.offer.amount as number;
}

describe('each movement kind reaches the sandbox wallet', () => {
  it('settle won: a payout credit payout:<betId>:1 of floor(stake x odds)', async () => {
    const betId = await place(f, home());
    const answer = await settled(betId, 'settle', won());
    assert.deepEqual(answer.owed, [{ txId: `payout:${betId}:1`, kind: 'payout', endpoint: 'credit', amount: 21_00 }]);
    assert.deepEqual([answer.changed, answer.bet.previousStatus, answer.bet.status], [true, 'accepted', 'won']);
    assert.deepEqual(await walletMoves(f, betId), [
      stake(betId),
      [`payout:${betId}:1`, 'credit', 'payout', 21_00, `sandbox:${betId}:1`],
    ]);
    assert.equal(await balance(), START_BALANCE - 10_00 + 21_00);
  });

  it('settle lost: a payout credit of 0, which the wallet confirms with the balance unchanged', async () => {
    const betId = await place(f, home());
    const answer = await settled(betId, 'settle', lost());
    assert.deepEqual(answer.owed, [{ txId: `payout:${betId}:1`, kind: 'payout', endpoint: 'credit', amount: 0 }]);
    assert.deepEqual((await walletMoves(f, betId))[1], [
      `payout:${betId}:1`,
      'credit',
      'payout',
      0,
      `sandbox:${betId}:1`,
    ]);
    assert.equal(await balance(), START_BALANCE - 10_00);
  });

  it('settle void: the stake back as a refund credit', async () => {
    const betId = await place(f, home());
    await settled(betId, 'settle', { results: [{ selectionId: f.events[0]!.home, result: 'void' }] });
    assert.deepEqual((await walletMoves(f, betId))[1], [
      `payout:${betId}:1`,
      'credit',
      'refund',
      10_00,
      `sandbox:${betId}:1`,
    ]);
    assert.equal(await balance(), START_BALANCE);
  });

  it('half_won and half_lost on a quarter line: half at the odds and half back; half back', async () => {
    const over = await place(f, single(f.quarter.over, '1.90'));
    const under = await place(f, single(f.quarter.under, '1.95'));
    const halfWon = await settled(over, 'settle', { results: [{ selectionId: f.quarter.over, result: 'half_won' }] });
    const halfLost = await settled(under, 'settle', {
      results: [{ selectionId: f.quarter.under, result: 'half_lost' }],
    });
    assert.deepEqual([halfWon.bet.status, halfWon.bet.settledReturn], ['half_won', 14_50]);
    assert.deepEqual([halfLost.bet.status, halfLost.bet.settledReturn], ['half_lost', 5_00]);
    assert.deepEqual((await walletMoves(f, over))[1]!.slice(0, 4), [`payout:${over}:1`, 'credit', 'payout', 14_50]);
    assert.deepEqual((await walletMoves(f, under))[1]!.slice(0, 4), [`payout:${under}:1`, 'credit', 'payout', 5_00]);
    assert.equal(await balance(), START_BALANCE - 20_00 + 14_50 + 5_00);
  });

  it('cash-out through the player API: cashout:<betId>, after which the bet is closed to the controls', async () => {
    const betId = await place(f, home());
    const amount = await cashOut(betId);
    assert.equal(amount, 9_50);
    assert.deepEqual((await walletMoves(f, betId))[1], [`cashout:${betId}`, 'credit', 'cashout', 9_50, null]);
    const refused = await control(f, betId, 'settle', won());
    assert.deepEqual([refused.status, refused.body.error.code], [409, 'bet_closed']);
    assert.deepEqual(refused.body.error.details, { status: 'cashed_out' });
  });

  it('a partial cash-out, then settle won: cashout:<betId>:p1, then the payout of the stake still standing', async () => {
    const betId = await place(f, home());
    assert.equal(await cashOut(betId, 5_00), 4_75);
    const answer = await settled(betId, 'settle', won());
    assert.deepEqual(answer.bet.remainingStake, 5_00);
    assert.deepEqual(await walletMoves(f, betId), [
      stake(betId),
      [`cashout:${betId}:p1`, 'credit', 'cashout', 4_75, null],
      [`payout:${betId}:1`, 'credit', 'payout', 10_50, `sandbox:${betId}:1`],
    ]);
  });

  it('resettle won to lost after the payout: a correction debit resettle:<betId>:2:1 of the payout', async () => {
    const betId = await place(f, home());
    await settled(betId, 'settle', won());
    const answer = await settled(betId, 'resettle', lost());
    assert.deepEqual(answer.owed, [
      { txId: `resettle:${betId}:2:1`, kind: 'resettle', endpoint: 'debit', amount: 21_00 },
    ]);
    assert.deepEqual((await walletMoves(f, betId))[2], [
      `resettle:${betId}:2:1`,
      'debit',
      'resettle',
      21_00,
      `sandbox:${betId}:2`,
    ]);
    assert.equal(await balance(), START_BALANCE - 10_00);
  });

  it('resettle lost to won: a correction credit resettle:<betId>:2:1 of the winnings', async () => {
    const betId = await place(f, home());
    await settled(betId, 'settle', lost());
    await settled(betId, 'resettle', won());
    assert.deepEqual((await walletMoves(f, betId))[2]!.slice(0, 4), [
      `resettle:${betId}:2:1`,
      'credit',
      'resettle',
      21_00,
    ]);
    assert.equal(await balance(), START_BALANCE + 11_00);
  });

  it('reopen: no money moves, the exposure is held again, and the next settlement owes only the difference', async () => {
    const betId = await place(f, home());
    const reserved = () => f.t.db.selectFrom('exposure').select('reserved').execute();
    await settled(betId, 'settle', won());
    assert.ok((await reserved()).every((row) => row.reserved === 0));
    const reopened = await settled(betId, 'reopen');
    assert.deepEqual(
      [reopened.bet.status, reopened.bet.settledReturn, reopened.owed, reopened.bet.legs[0].result],
      ['accepted', null, [], null],
    );
    assert.ok(
      (await reserved()).every((row) => row.reserved === 11_00),
      'the liability is reserved again',
    );
    await settled(betId, 'settle', lost());
    assert.deepEqual((await walletMoves(f, betId)).slice(1), [
      [`payout:${betId}:1`, 'credit', 'payout', 21_00, `sandbox:${betId}:1`],
      [`resettle:${betId}:3:1`, 'debit', 'resettle', 21_00, `sandbox:${betId}:3`],
    ]);
    assert.ok((await reserved()).every((row) => row.reserved === 0));
  });

  it('a bet reopened after its payout offers no cash-out: its payout still counts until it is settled again', async () => {
    const betId = await place(f, home());
    await settled(betId, 'settle', won());
    await settled(betId, 'reopen');
    const refusal = { code: 'cashout_unavailable', details: { reason: 'settlement_counts', paid: 21_00 } };
    for (const query of ['', '?stake=500']) {
      const offer = await f.t.request('GET', `/api/v1/bets/${betId}/cashout${query}`, { token: f.token });
      assert.deepEqual(
        [offer.status, offer.body.error.code, offer.body.error.details],
        [409, ...Object.values(refusal)],
      );
    }
    for (const part of [undefined, 5_00]) {
      const body = { requestId: newRequestId(), amount: 9_50, ...(part ? { stake: part } : {}) };
      const taken = await f.t.request('POST', `/api/v1/bets/${betId}/cashout`, { token: f.token, body });
      assert.deepEqual(
        [taken.status, taken.body.error.code, taken.body.error.details],
        [409, ...Object.values(refusal)],
      );
    }
    await settled(betId, 'settle', lost());
    assert.deepEqual((await walletMoves(f, betId)).slice(1), [
      [`payout:${betId}:1`, 'credit', 'payout', 21_00, `sandbox:${betId}:1`],
      [`resettle:${betId}:3:1`, 'debit', 'resettle', 21_00, `sandbox:${betId}:3`],
    ]);
    assert.equal(await balance(), START_BALANCE - 10_00, 'the stake lost: paid once, taken back once, never twice');
  });

  it('a bet reopened after a payout of 0 (lost) may be cashed out: nothing of it counts', async () => {
    const betId = await place(f, home());
    await settled(betId, 'settle', lost());
    await settled(betId, 'reopen');
    assert.equal(await cashOut(betId), 9_50);
    assert.equal(await balance(), START_BALANCE - 10_00 + 9_50);
  });

  it('cancel before any credit: the stake is rolled back (rollback:bet:<betId>, ref bet:<betId>) and the bet refused', async () => {
    const betId = await place(f, home());
    const answer = await settled(betId, 'cancel');
    assert.deepEqual(answer.owed, [
      { txId: `rollback:bet:${betId}`, kind: 'rollback', endpoint: 'rollback', amount: 10_00 },
    ]);
    assert.deepEqual([answer.bet.previousStatus, answer.bet.status], ['accepted', 'refused']);
    assert.deepEqual(await walletMoves(f, betId), [
      stake(betId),
      [`rollback:bet:${betId}`, 'rollback', 'rollback', 10_00, `bet:${betId}`],
    ]);
    assert.equal(await balance(), START_BALANCE);
    const mine = await f.t.request('GET', `/api/v1/bets/${betId}`, { token: f.token });
    assert.deepEqual([mine.body.bet.status, mine.body.bet.refusal.code], ['refused', 'bet_cancelled']);
    assert.ok((await f.t.db.selectFrom('exposure').select('reserved').execute()).every((row) => row.reserved === 0));
  });

  it('cancel after the payout: the bet is voided, corrected down to its stake by a correction debit', async () => {
    const betId = await place(f, home());
    await settled(betId, 'settle', won());
    const answer = await settled(betId, 'cancel');
    assert.deepEqual([answer.bet.status, answer.bet.settledReturn], ['void', 10_00]);
    assert.deepEqual((await walletMoves(f, betId))[2]!.slice(0, 4), [
      `resettle:${betId}:2:1`,
      'debit',
      'resettle',
      11_00,
    ]);
    assert.equal(await balance(), START_BALANCE);
  });

  it('cancel after a partial cash-out: the standing stake is refunded (payout:<betId>:1, kind refund)', async () => {
    const betId = await place(f, home());
    await cashOut(betId, 5_00);
    const answer = await settled(betId, 'cancel');
    assert.deepEqual(answer.owed, [{ txId: `payout:${betId}:1`, kind: 'refund', endpoint: 'credit', amount: 5_00 }]);
    assert.equal(await balance(), START_BALANCE - 10_00 + 4_75 + 5_00);
  });
});

describe('accumulators and supersession, as a market settlement treats them', () => {
  const acca = () => [
    { selectionId: f.events[0]!.home, odds: '2.10' },
    { selectionId: f.events[1]!.away, odds: '3.60' },
  ];

  it('one leg at a time: the bet stays open until its last leg, then pays the product of the odds', async () => {
    const betId = await place(f, acca());
    const first = await settled(betId, 'settle', won(f.events[0]!.home));
    assert.deepEqual([first.changed, first.bet.status, first.owed], [true, 'accepted', []]);
    const last = await settled(betId, 'settle', won(f.events[1]!.away));
    assert.deepEqual([last.bet.status, last.owed[0].amount], ['won', 75_60]);
    assert.equal(await balance(), START_BALANCE - 10_00 + 75_60);
  });

  it('a lost leg loses the accumulator at once, with a payout of 0', async () => {
    const betId = await place(f, acca());
    const answer = await settled(betId, 'settle', lost(f.events[1]!.away));
    assert.deepEqual([answer.bet.status, answer.owed[0].amount], ['lost', 0]);
    assert.deepEqual(
      answer.bet.legs.map((leg: { result: string | null }) => leg.result),
      [null, 'lost'],
    );
  });

  it('a resettlement before the payout was delivered supersedes it: held for review, the new return owed instead', async () => {
    const betId = await place(f, home());
    assert.equal((await control(f, betId, 'settle', won())).status, 200);
    const answer = await control(f, betId, 'resettle', {
      results: [{ selectionId: f.events[0]!.home, result: 'void' }],
    });
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.body.superseded, [`payout:${betId}:1`]);
    assert.deepEqual(answer.body.owed, [
      { txId: `resettle:${betId}:2:1`, kind: 'resettle', endpoint: 'credit', amount: 10_00 },
    ]);
    const held = await f.t.db
      .selectFrom('wallet_obligations')
      .select(['status', 'hold_reason', 'superseded_by'])
      .where('tx_id', '=', `payout:${betId}:1`)
      .executeTakeFirstOrThrow();
    assert.deepEqual(held, {
      status: 'held',
      hold_reason: 'obsolete_credit_requires_review',
      superseded_by: `sandbox:${betId}:2`,
    });
  });
});

describe('the worked example of docs/sandbox-outcomes.md', () => {
  it('walks one bet through cash-out, payout, correction debit and credit, reopen and cancel; three more show the rest', async () => {
    const a = await place(f, home());
    assert.equal(await cashOut(a, 5_00), 4_75);
    await settled(a, 'settle', won());
    await settled(a, 'resettle', lost());
    await settled(a, 'resettle', won());
    const reopened = await settled(a, 'reopen');
    assert.deepEqual([reopened.bet.status, reopened.owed], ['partially_cashed_out', []]);
    const cancelled = await settled(a, 'cancel');
    assert.deepEqual([cancelled.bet.status, cancelled.bet.settledReturn], ['void', 5_00]);
    assert.deepEqual(await walletMoves(f, a), [
      stake(a),
      [`cashout:${a}:p1`, 'credit', 'cashout', 4_75, null],
      [`payout:${a}:1`, 'credit', 'payout', 10_50, `sandbox:${a}:1`],
      [`resettle:${a}:2:1`, 'debit', 'resettle', 10_50, `sandbox:${a}:2`],
      [`resettle:${a}:3:2`, 'credit', 'resettle', 10_50, `sandbox:${a}:3`],
      [`resettle:${a}:5:3`, 'debit', 'resettle', 5_50, `sandbox:${a}:5`],
    ]);
    assert.equal(await balance(), START_BALANCE - 10_00 + 4_75 + 5_00);

    const b = await place(f, home());
    await settled(b, 'settle', lost());
    const c = await place(f, home());
    await settled(c, 'settle', { results: [{ selectionId: f.events[0]!.home, result: 'void' }] });
    const d = await place(f, home());
    await settled(d, 'cancel');
    assert.deepEqual((await walletMoves(f, b))[1]!.slice(0, 4), [`payout:${b}:1`, 'credit', 'payout', 0]);
    assert.deepEqual((await walletMoves(f, c))[1]!.slice(0, 4), [`payout:${c}:1`, 'credit', 'refund', 10_00]);
    assert.deepEqual((await walletMoves(f, d))[1]!.slice(0, 4), [`rollback:bet:${d}`, 'rollback', 'rollback', 10_00]);
    assert.equal(await balance(), START_BALANCE - 10_00 + 4_75 + 5_00 - 10_00);
    const view = await f.t.request('GET', `/api/v1/integration/sandbox/bets/${a}`, {
      headers: { 'x-tenant-id': f.sandbox.tenantId, 'x-api-key': f.sandbox.apiKey },
    });
    assert.equal(view.status, 200, view.text);
    assert.deepEqual(
      view.body.bet.movements.map((m: { txId: string; status: string }) => [m.txId, m.status]),
      (await postings(f, a)).map(([txId]) => [txId, 'applied']),
    );
  });
});

describe("a sandbox's statement of the day under way", () => {
  const statementOf = (environment: SandboxFixture['sandbox'], query = '') =>
    f.t.request('GET', `/api/v1/integration/statements/${f.t.clock.now().toISOString().slice(0, 10)}${query}`, {
      headers: { 'x-tenant-id': environment.tenantId, 'x-api-key': environment.apiKey },
    });

  it('is served as a preview up to now, marked as such, so reconciliation can be tried on day one; never in production', async () => {
    const betId = await place(f, home());
    await drainDeliveries(f.t);
    f.t.clock.advance(1_000);
    const preview = await statementOf(f.sandbox);
    assert.equal(preview.status, 200, preview.text);
    assert.equal(preview.headers.get('x-statement-preview'), 'true');
    assert.match(preview.headers.get('content-disposition') ?? '', /-preview\.json"$/);
    assert.ok(preview.headers.get('x-statement-signature'), 'signed like any statement');
    assert.deepEqual(
      [preview.body.preview, preview.body.environment, preview.body.to],
      [true, 'sandbox', f.t.clock.now().toISOString()],
    );
    assert.deepEqual(
      preview.body.movements.map((movement: { txId: string }) => movement.txId),
      [`bet:${betId}`],
    );
    const csv = await statementOf(f.sandbox, '?format=csv');
    assert.deepEqual([csv.status, csv.headers.get('x-statement-preview')], [200, 'true']);
    assert.match(csv.headers.get('content-disposition') ?? '', /-preview\.csv"$/);

    const production = await statementOf(f.production);
    assert.deepEqual([production.status, production.body.error.code], [409, 'statement_not_ready']);
  });
});
