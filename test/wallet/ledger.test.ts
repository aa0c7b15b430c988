import assert from 'node:assert/strict';
import { inTransaction } from '../../src/platform/db/database.ts';
import { beforeEach, describe, it } from 'node:test';
import { moveGuarded } from '../../src/wallet/ledger/rows.ts';
import type { WalletObligation } from '../../src/wallet/tables.ts';
import {
  checkTransition,
  ForbiddenTransitionError,
  LostRaceError,
  OBLIGATION_STATES,
  OBLIGATION_TRANSITIONS,
  type ObligationState,
} from '../../src/wallet/states.ts';
import type { TestApp } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { freshSportsbookPerTest, newRequestId, type Sportsbook } from '../helpers/sportsbook.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/** The obligation state machine: the table is the only set of moves, and every move is guarded. */
const ALLOWED: Array<[ObligationState, ObligationState]> = [
  ['sending', 'applied'],
  ['sending', 'refused'],
  ['sending', 'unknown'],
  ['pending', 'pending'],
  ['pending', 'applied'],
  ['pending', 'held'],
  ['pending', 'cancelled'],
  ['held', 'pending'],
  ['held', 'held'],
  ['held', 'applied'],
  ['held', 'resolved'],
  ['held', 'cancelled'],
];

describe('obligation states', () => {
  it('allows exactly the moves of the table, and refuses every other', () => {
    const allowed = new Set(ALLOWED.map(([from, to]) => `${from}->${to}`));
    for (const from of OBLIGATION_STATES) {
      for (const to of OBLIGATION_STATES) {
        const key = `${from}->${to}`;
        if (allowed.has(key)) assert.doesNotThrow(() => checkTransition(from, to), key);
        else assert.throws(() => checkTransition(from, to), ForbiddenTransitionError, key);
      }
    }
    assert.equal(Object.values(OBLIGATION_TRANSITIONS).flat().length, ALLOWED.length);
  });
});

const fresh = freshSportsbookPerTest('ledger-player');
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let token: string;
beforeEach(() => ({ t, wallet, book, token } = fresh));

async function rollbackOwed(): Promise<WalletObligation> {
  wallet.fault({ mode: 'status_500', endpoint: 'debit' });
  wallet.fault({ mode: 'status_503', endpoint: 'rollback', times: 5 });
  const placed = await t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
  });
  assert.equal(placed.status, 503);
  await drainDeliveries(t);
  return t.db.selectFrom('wallet_obligations').selectAll().where('kind', '=', 'rollback').executeTakeFirstOrThrow();
}

const actor = { type: 'system', id: 'test' } as const;
const hold = (row: WalletObligation) =>
  moveGuarded(t.db, t.clock.now(), row, 'held', { hold_reason: 'refused' }, { actor, cause: 'test', note: null });
const stateOf = async (id: string) => {
  const row = await t.db.selectFrom('wallet_obligations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return [row.status, row.hold_reason, row.attempts];
};

describe('the ledger', () => {
  it('an attempt recorded by a writer that read the obligation before another attempt was recorded is not recorded', async () => {
    const seen = await rollbackOwed();
    const nextAttemptAt = new Date(t.clock.now().getTime() + 30_000);
    const attempt = { outcome: 'unknown', status: 503, reason: 'status_5xx', durationMs: 1 } as const;
    const ledger = t.app.services.ledger;
    const delivery = { obligation: seen, attempt, nextAttemptAt };
    const first = await inTransaction(t.db, (tx) => ledger.attempts.recordDeliveries(tx, [delivery]));
    assert.deepEqual(first, { states: new Map([[seen.id, 'pending']]), lost: [] });
    const again = await inTransaction(t.db, (tx) => ledger.attempts.recordDeliveries(tx, [delivery]));
    assert.deepEqual(again, { states: new Map(), lost: [delivery] });
    const late = await inTransaction(t.db, (tx) => ledger.attempts.recordSuperseded(tx, again.lost));
    assert.deepEqual(late, new Map(), 'not superseded: the newer attempt stands');
    const row = await t.db
      .selectFrom('wallet_obligations')
      .selectAll()
      .where('id', '=', seen.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([row.status, row.attempts], ['pending', seen.attempts + 1]);
  });

  it('a single move that lost its race throws LostRaceError and changes nothing', async () => {
    const seen = await rollbackOwed();
    await hold(seen);
    await assert.rejects(hold(seen), LostRaceError);
    assert.deepEqual(await stateOf(seen.id), ['held', 'refused', seen.attempts]);
  });

  it('a guarded move compares every field its writer decided on: state, attempts, hold reason and claims', async () => {
    const seen = await rollbackOwed();
    await hold(seen);
    const held = (await t.app.services.ledger.find(t.db, seen.id))!;
    const move = () =>
      moveGuarded(t.db, t.clock.now(), held, 'pending', { hold_reason: null }, { actor, cause: 'test', note: null });
    for (const [column, value] of [
      ['hold_reason', 'obsolete_credit_requires_review'],
      ['claims', held.claims + 1],
    ] as const) {
      await t.db
        .updateTable('wallet_obligations')
        .set({ [column]: value })
        .where('id', '=', seen.id)
        .execute();
      await assert.rejects(move(), LostRaceError, `another ${column} since the read`);
      await t.db
        .updateTable('wallet_obligations')
        .set({ [column]: held[column] })
        .where('id', '=', seen.id)
        .execute();
    }
    await move();
    assert.deepEqual(await stateOf(seen.id), ['pending', null, seen.attempts]);
  });

  it('refuses a move the table does not allow, and changes nothing', async () => {
    await t.request('POST', '/api/v1/bets', {
      token,
      body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
    });
    const stake = await t.db.selectFrom('wallet_obligations').selectAll().executeTakeFirstOrThrow();
    assert.equal(stake.status, 'applied');
    const applied = { outcome: 'applied', status: 200, balance: 0, currency: 'BRL', durationMs: 1 } as const;
    assert.throws(() => t.app.services.ledger.attempts.stakeOutcome('stake', stake, applied), ForbiddenTransitionError);
  });
});
