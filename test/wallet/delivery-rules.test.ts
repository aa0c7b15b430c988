import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { WalletAttempt } from '../../src/wallet/delivery/client.ts';
import {
  deliveryChange,
  requestMayHaveLeft,
  supersededDeliveryChange,
} from '../../src/wallet/ledger/delivery-table.ts';
import { retryRefusal, sendAgainWait } from '../../src/wallet/ledger/retry-rule.ts';
import type { WalletObligation } from '../../src/wallet/tables.ts';

/**
 * The contract's delivery table and the retry rule as tables (src/wallet/ledger/delivery-table.ts, retry-rule.ts):
 * pure functions, no database; test/wallet/delivery.test.ts drives the same rules against a real wallet.
 */
const NOW = new Date('2026-03-01T12:00:00Z');
const LATER = new Date('2026-03-01T12:00:30Z');
const obligation = (overrides: Partial<WalletObligation> = {}): WalletObligation =>
  ({
    id: 'ob_rules',
    tx_id: 'payout:bt_rules:1',
    endpoint: 'credit',
    kind: 'payout',
    status: 'pending',
    hold_reason: null,
    attempts: 2,
    claims: 3,
    next_attempt_at: NOW,
    wallet_url: 'https://wallet.example/api',
    superseded_by: null,
    ...overrides,
  }) as WalletObligation;

const applied: WalletAttempt = { outcome: 'applied', status: 200, balance: 121_00, currency: 'BRL', durationMs: 5 };
const refused = (code = 'player_blocked'): WalletAttempt => ({
  outcome: 'refused',
  status: 403,
  code,
  message: 'no',
  durationMs: 5,
});
const unknown: WalletAttempt = { outcome: 'unknown', status: 503, reason: 'status_5xx', durationMs: 5 };
const notSent = (reason: 'refused_address' | 'unresolvable'): WalletAttempt => ({
  outcome: 'not_sent',
  status: null,
  reason,
  detail: 'no',
  durationMs: 0,
});

describe('the delivery table: what one answer does to an owed movement', () => {
  const cases: Array<[string, WalletObligation, WalletAttempt, string, string | null, string]> = [
    ['applied: applied, with what the wallet answered', obligation(), applied, 'applied', null, 'applied'],
    ['refused: held for review', obligation(), refused(), 'held', 'refused', 'refused'],
    [
      'a debit refused for insufficient funds: held with its own reason',
      obligation({ endpoint: 'debit', kind: 'resettle' }),
      refused('insufficient_funds'),
      'held',
      'correction_insufficient_funds',
      'refused',
    ],
    [
      'a credit refused for insufficient funds is a plain refusal',
      obligation(),
      refused('insufficient_funds'),
      'held',
      'refused',
      'refused',
    ],
    ['unknown: owed still, due again later', obligation(), unknown, 'pending', null, 'status_5xx'],
    [
      'an address the transport refuses: held, never sent',
      obligation(),
      notSent('refused_address'),
      'held',
      'refused_address',
      'refused_address',
    ],
    ['a name that did not resolve: owed still', obligation(), notSent('unresolvable'), 'pending', null, 'unresolvable'],
  ];
  for (const [name, owed, attempt, status, holdReason, lastOutcome] of cases) {
    it(name, () => {
      const change = deliveryChange(owed, attempt, NOW, LATER);
      assert.deepEqual([change.status, change.holdReason, change.lastOutcome], [status, holdReason, lastOutcome]);
      assert.equal(change.nextAttemptAt, status === 'pending' ? LATER : owed.next_attempt_at);
    });
  }

  it('keeps the confirmation of an applied answer: the txId and the balance after it', () => {
    const change = deliveryChange(obligation(), applied, NOW, LATER);
    assert.deepEqual(
      [change.confirmedTxId, change.confirmedBalance, change.resolvedAt],
      ['payout:bt_rules:1', 121_00, NOW],
    );
  });
});

describe('an answer to a movement superseded while it was on its way', () => {
  const superseded = obligation({
    status: 'held',
    hold_reason: 'obsolete_credit_requires_review',
    superseded_by: 'result:mk:2',
  });
  const cases: Array<[string, WalletAttempt, string]> = [
    ['applied: it counts', applied, 'applied'],
    ['refused: nothing moved, it is cancelled', refused(), 'cancelled'],
    ['anything else: still held, for a person', unknown, 'held'],
  ];
  for (const [name, attempt, status] of cases) {
    it(name, () => {
      const change = supersededDeliveryChange(superseded, attempt, NOW);
      assert.deepEqual([change.status, change.holdReason], [status, 'obsolete_credit_requires_review']);
    });
  }
});

describe('whether a request may have left', () => {
  const cases: Array<[string, Partial<WalletObligation>, boolean]> = [
    ['never claimed, never attempted: no', { attempts: 0, claims: 0 }, false],
    ['claimed: it may have', { attempts: 0, claims: 1 }, true],
    ['attempted: it may have', { attempts: 1, claims: 0 }, true],
    ['a stake debit: always (sent by the placement, unclaimed)', { attempts: 0, claims: 0, kind: 'bet' }, true],
  ];
  for (const [name, fields, left] of cases) it(name, () => assert.equal(requestMayHaveLeft(obligation(fields)), left));
});

describe('the retry rule: when a held movement may be sent again', () => {
  const wallet = 'https://wallet.example/api';
  const cases: Array<[string, Partial<WalletObligation>, string | undefined, string | null]> = [
    ['refused, same wallet: yes', { hold_reason: 'refused' }, wallet, null],
    ['refused_address, same wallet: yes', { hold_reason: 'refused_address' }, wallet, null],
    [
      'superseded: never',
      { hold_reason: 'obsolete_credit_requires_review' },
      wallet,
      'obsolete_credit_requires_review',
    ],
    [
      'a superseded debit: never',
      { hold_reason: 'obsolete_debit_requires_review' },
      wallet,
      'obsolete_debit_requires_review',
    ],
    [
      'insufficient funds: the wallet keeps its refusal',
      { hold_reason: 'correction_insufficient_funds' },
      wallet,
      'correction_insufficient_funds',
    ],
    [
      'another wallet URL now: never elsewhere',
      { hold_reason: 'refused' },
      'https://other.example/api',
      'destination_changed',
    ],
    ['no wallet URL known: never', { hold_reason: 'destination_changed' }, undefined, 'destination_changed'],
  ];
  for (const [name, fields, tenantUrl, reason] of cases) {
    it(name, () => assert.equal(retryRefusal(obligation(fields), tenantUrl)?.details.reason ?? null, reason));
  }

  const gap: Array<[string, Date | undefined, number | null]> = [
    ['never sent again on request: now', undefined, null],
    ['10 s ago: now', new Date(NOW.getTime() - 10_000), null],
    ['9.5 s ago: in 1 s', new Date(NOW.getTime() - 9_500), 1],
    ['a moment ago: in 10 s', NOW, 10],
  ];
  for (const [name, last, wait] of gap)
    it(`once every 10 s: ${name}`, () => assert.equal(sendAgainWait(last, NOW), wait));
});
