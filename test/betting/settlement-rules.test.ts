import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { SelectionResult } from '../../src/catalog/tables.ts';
import { changeOf, movementFor } from '../../src/betting/settlement-rules.ts';
import type { BetState } from '../../src/betting/states.ts';

/**
 * The settlement rules as a table (src/betting/settlement-rules.ts): what a bet's legs' results make of it, and the
 * money that owes. Pure: no database, no server; the integration tests drive the same rules through settlements.
 */
const NOW = new Date('2026-03-01T12:00:00Z');

interface Bet {
  status: BetState;
  stake?: number;
  cashedOut?: number;
  version?: number;
  returned?: number | null;
}
const bet = ({ status, stake = 10_00, cashedOut = 0, version = 0, returned = null }: Bet) => ({
  id: 'bt_rules',
  status,
  stake,
  cashed_out_stake: cashedOut,
  settled_version: version,
  settled_return: returned,
});
/** Legs at 2.10 (and 3.60 for a second one) with the results given. */
const legs = (...results: Array<SelectionResult | null>) =>
  results.map((result, i) => ({ odds_milli: i === 0 ? 2_100 : 3_600, result }));

describe("a bet's change, from its legs' results", () => {
  const cases: Array<[string, Bet, Array<SelectionResult | null>, string, BetState | null, number | null]> = [
    // name, the bet, its legs' results, kind, where it moves, its return
    ['an open single won: settled, the stake at its odds', { status: 'accepted' }, ['won'], 'settled', 'won', 21_00],
    ['an open single lost: settled, nothing returned', { status: 'accepted' }, ['lost'], 'settled', 'lost', 0],
    ['an open single void: settled, the stake back', { status: 'accepted' }, ['void'], 'settled', 'void', 10_00],
    ['half won: half at its odds, half back', { status: 'accepted' }, ['half_won'], 'settled', 'half_won', 15_50],
    ['half lost: half back', { status: 'accepted' }, ['half_lost'], 'settled', 'half_lost', 5_00],
    ['an accumulator waiting for a leg stays open', { status: 'accepted' }, ['won', null], 'unchanged', null, null],
    ['a lost leg loses an accumulator at once', { status: 'accepted' }, ['lost', null], 'settled', 'lost', 0],
    ['every leg won: the product of the odds', { status: 'accepted' }, ['won', 'won'], 'settled', 'won', 75_60],
    ['a void leg counts at 1.00', { status: 'accepted' }, ['won', 'void'], 'settled', 'won', 21_00],
    [
      'the standing stake only, once part was cashed out',
      { status: 'partially_cashed_out', cashedOut: 4_00 },
      ['won'],
      'settled',
      'won',
      12_60,
    ],
    [
      'the same result and return again: unchanged',
      { status: 'won', version: 1, returned: 21_00 },
      ['won'],
      'unchanged',
      null,
      null,
    ],
    [
      'won to lost: resettled, the next version',
      { status: 'won', version: 1, returned: 21_00 },
      ['lost'],
      'resettled',
      'lost',
      0,
    ],
    [
      'a lost accumulator whose losing leg is corrected while another waits: open again',
      { status: 'lost', version: 1, returned: 0 },
      ['won', null],
      'reopened',
      'accepted',
      null,
    ],
    [
      'reopened with part cashed out: partially cashed out again',
      { status: 'lost', cashedOut: 4_00, version: 1, returned: 0 },
      ['won', null],
      'reopened',
      'partially_cashed_out',
      null,
    ],
  ];
  for (const [name, given, results, kind, to, returned] of cases) {
    it(name, () => {
      const change = changeOf(bet(given), legs(...results), NOW);
      assert.deepEqual(
        [change.kind, change.move?.to ?? null, change.move?.settledReturn ?? null],
        [kind, to, returned],
      );
    });
  }

  it('the first settlement owes one initial credit and supersedes nothing; a resettlement of the return supersedes', () => {
    const first = changeOf(bet({ status: 'accepted' }), legs('won'), NOW);
    assert.deepEqual([first.first, first.supersede, first.move?.settledVersion], [true, false, 1]);
    const again = changeOf(bet({ status: 'won', version: 1, returned: 21_00 }), legs('void'), NOW);
    assert.deepEqual([again.first, again.supersede, again.move?.settledVersion], [false, true, 2]);
  });
});

describe('the money a change owes', () => {
  const account = (settled: number, corrections = 0) => ({ betId: 'bt_rules', settledFor: () => settled, corrections });

  it('the first settlement: payout:<betId>:1 of the return, 0 included; a refund when void', () => {
    const won = changeOf(bet({ status: 'accepted' }), legs('won'), NOW);
    assert.deepEqual(movementFor(won, account(0), 'result:mk:1'), {
      kind: 'payout',
      endpoint: 'credit',
      txId: 'payout:bt_rules:1',
      amount: 21_00,
      ref: 'result:mk:1',
    });
    const lost = changeOf(bet({ status: 'accepted' }), legs('lost'), NOW);
    assert.equal(movementFor(lost, account(0), 'ref')?.amount, 0);
    const voided = changeOf(bet({ status: 'accepted' }), legs('void'), NOW);
    assert.deepEqual(
      [movementFor(voided, account(0), 'ref')?.kind, movementFor(voided, account(0), 'ref')?.amount],
      ['refund', 10_00],
    );
  });

  it('a resettlement: the difference to what counts, as resettle:<betId>:<version>:<n>, a credit or a debit', () => {
    const toLost = changeOf(bet({ status: 'won', version: 1, returned: 21_00 }), legs('lost'), NOW);
    assert.deepEqual(movementFor(toLost, account(21_00), 'ref'), {
      kind: 'resettle',
      endpoint: 'debit',
      txId: 'resettle:bt_rules:2:1',
      amount: 21_00,
      ref: 'ref',
    });
    const toVoid = changeOf(bet({ status: 'won', version: 1, returned: 21_00 }), legs('void'), NOW);
    assert.deepEqual(
      [movementFor(toVoid, account(0, 1), 'ref')?.endpoint, movementFor(toVoid, account(0, 1), 'ref')?.txId],
      ['credit', 'resettle:bt_rules:2:2'],
      'what counts after a superseded payout stopped counting: nothing, so the whole new return, the second correction',
    );
  });

  it('nothing when the difference is 0, and nothing for a reopening', () => {
    const same = changeOf(bet({ status: 'won', version: 1, returned: 21_00 }), legs('void'), NOW);
    assert.equal(movementFor(same, account(10_00), 'ref'), null);
    const reopened = changeOf(bet({ status: 'lost', version: 1, returned: 0 }), legs('won', null), NOW);
    assert.equal(movementFor(reopened, account(0), 'ref'), null);
  });
});
