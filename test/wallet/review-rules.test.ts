import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { partialResolveRefusal, reviewActions } from '../../src/wallet/ledger/review-rules.ts';
import { worthAt } from '../../src/wallet/ledger/rows.ts';
import type { WalletObligation } from '../../src/wallet/tables.ts';

/**
 * What an operator may decide on a held movement and why not (src/wallet/ledger/review-rules.ts), and what a debit
 * resolved in part is worth to its bet's later settlements (rows.ts worthAt): pure functions, no database;
 * test/wallet/partial-recovery.test.ts drives them through the workspace.
 */
const WALLET = 'https://wallet.example/api';
const held = (overrides: Partial<WalletObligation> = {}): WalletObligation =>
  ({
    tx_id: 'resettle:bt_rules:2:1',
    kind: 'resettle',
    endpoint: 'debit',
    amount: 21_00,
    status: 'held',
    hold_reason: 'refused',
    wallet_url: WALLET,
    written_off: null,
    ...overrides,
  }) as WalletObligation;

describe('the actions offered on a movement, and why the others are not', () => {
  const cases: Array<[string, Partial<WalletObligation>, string | undefined, boolean, string[], string[]]> = [
    ['a movement that is not held: nothing to decide', { status: 'applied' }, WALLET, false, [], []],
    ['held, refused: every action', {}, WALLET, false, ['retry', 'resolve', 'cancel'], []],
    ['held, an attempt in flight: none, each saying so', {}, WALLET, true, [], ['in_flight', 'in_flight', 'in_flight']],
    [
      'held for insufficient funds: no retry, the wallet keeps its refusal',
      { hold_reason: 'correction_insufficient_funds' },
      WALLET,
      false,
      ['resolve', 'cancel'],
      ['correction_insufficient_funds'],
    ],
    [
      'superseded: never sent again',
      { hold_reason: 'obsolete_debit_requires_review' },
      WALLET,
      false,
      ['resolve', 'cancel'],
      ['obsolete_debit_requires_review'],
    ],
    [
      "the tenant's wallet moved: never sent elsewhere",
      {},
      'https://elsewhere.example/api',
      false,
      ['resolve', 'cancel'],
      ['destination_changed'],
    ],
  ];
  for (const [rule, overrides, tenantWallet, inFlight, actions, withheld] of cases) {
    it(rule, () => {
      const decided = reviewActions(held(overrides), tenantWallet, inFlight);
      assert.deepEqual(decided.actions, actions);
      assert.deepEqual(
        decided.withheld.map((entry) => entry.reason),
        withheld,
      );
      for (const entry of decided.withheld) assert.ok(entry.message.length > 20, entry.message);
    });
  }
});

describe('a held movement resolved in part', () => {
  it('is a debit the player owes: a correction or an adjustment', () => {
    assert.equal(partialResolveRefusal(held()), null);
    assert.equal(
      partialResolveRefusal(held({ kind: 'adjustment', hold_reason: 'correction_insufficient_funds' })),
      null,
    );
  });

  it('never a credit or a rollback', () => {
    assert.match(partialResolveRefusal(held({ endpoint: 'credit' }))!, /Only a debit/);
    assert.match(partialResolveRefusal(held({ endpoint: 'rollback' }))!, /Only a debit/);
  });

  it('never a debit a resettlement superseded: resolved whole if applied, else cancelled', () => {
    assert.match(partialResolveRefusal(held({ hold_reason: 'obsolete_debit_requires_review' }))!, /superseded/);
  });
});

describe("a posting's worth to its bet's settlement at a version", () => {
  it("takes a correction's version from its txId (resettle:<betId>:<version>:<n>)", () => {
    const seventh = held({ tx_id: 'resettle:bt_rules:7:3', written_off: 16_00 });
    assert.deepEqual([worthAt(seventh, 7), worthAt(seventh, 8)], [-21_00, -5_00]);
  });

  it('a debit written off in part counts whole under its own version: the write-off ended that debt', () => {
    assert.equal(worthAt(held({ written_off: 16_00 }), 2), -21_00);
  });

  it('and only for what was collected under a later one: the result it was owed for no longer stands', () => {
    assert.equal(worthAt(held({ written_off: 16_00 }), 3), -5_00);
    assert.equal(worthAt(held({ written_off: 21_00 }), 3), 0);
  });

  it('any other posting is worth its signed amount at every version', () => {
    assert.equal(worthAt(held(), 5), -21_00);
    assert.equal(worthAt(held({ endpoint: 'credit', kind: 'payout', tx_id: 'payout:bt_rules:1' }), 5), 21_00);
  });
});
