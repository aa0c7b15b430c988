// The reconciliation statement's format (wallet/partner/statement-format.ts): pure functions, no database. The
// statement endpoints and `bookmaker reconcile` are tested end to end in statements.test.ts and reconcile.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CSV_COLUMNS,
  directionOf,
  parseCsv,
  STATEMENT_FORMAT,
  statementCsv,
  statementJson,
  totalsOf,
} from '../../src/wallet/partner/statement-format.ts';
import type { Statement, StatementMovement } from '../../src/wallet/schemas.ts';

const movement = (fields: Partial<StatementMovement>): StatementMovement => {
  const endpoint = fields.endpoint ?? 'debit';
  return {
    txId: 'bet:bt_1:stake',
    betId: 'bt_1',
    playerId: 'player-1',
    kind: 'bet',
    endpoint,
    direction: directionOf(endpoint),
    amount: 10_00,
    currency: 'BRL',
    ref: null,
    appliedAt: '2026-11-27T10:00:00.000Z',
    status: 'applied',
    ...fields,
  };
};

const statementOf = (movements: StatementMovement[]): Statement => ({
  format: STATEMENT_FORMAT,
  tenantId: 'tn_1',
  environment: 'production',
  currency: 'BRL',
  day: '2026-11-27',
  from: '2026-11-27T00:00:00.000Z',
  to: '2026-11-28T00:00:00.000Z',
  keyId: 'sk_1',
  movements,
  ...totalsOf(movements),
});

describe("a movement's direction is the player's: a debit takes, a credit and a rollback give", () => {
  for (const [endpoint, direction] of [
    ['debit', 'debit'],
    ['credit', 'credit'],
    ['rollback', 'credit'],
  ] as const) {
    it(`/${endpoint} -> ${direction}`, () => assert.equal(directionOf(endpoint), direction));
  }
});

describe('the totals list every kind and endpoint the contract allows, zeros included, in one order', () => {
  it('no movement: nine lines of zero and an empty summary', () => {
    const { totals, summary } = totalsOf([]);
    assert.deepEqual(
      totals.map((line) => `${line.kind}/${line.endpoint}/${line.direction}/${line.movements}/${line.amount}`),
      [
        'bet/debit/debit/0/0',
        'payout/credit/credit/0/0',
        'refund/credit/credit/0/0',
        'cashout/credit/credit/0/0',
        'resettle/credit/credit/0/0',
        'resettle/debit/debit/0/0',
        'rollback/rollback/credit/0/0',
        'adjustment/credit/credit/0/0',
        'adjustment/debit/debit/0/0',
      ],
    );
    assert.deepEqual(summary, { movements: 0, debited: 0, credited: 0 });
  });

  it('each movement counts once on its line and on its side of the summary', () => {
    const { totals, summary } = totalsOf([
      movement({ amount: 10_00 }),
      movement({ txId: 'bet:bt_2:stake', amount: 5_00 }),
      movement({ kind: 'payout', endpoint: 'credit', amount: 21_00 }),
      movement({ kind: 'rollback', endpoint: 'rollback', amount: 5_00 }),
    ]);
    const line = (kind: string, endpoint: string) =>
      totals.find((total) => total.kind === kind && total.endpoint === endpoint);
    assert.deepEqual([line('bet', 'debit')?.movements, line('bet', 'debit')?.amount], [2, 15_00]);
    assert.deepEqual([line('payout', 'credit')?.movements, line('payout', 'credit')?.amount], [1, 21_00]);
    assert.deepEqual([line('rollback', 'rollback')?.movements, line('rollback', 'rollback')?.amount], [1, 5_00]);
    assert.deepEqual(summary, { movements: 4, debited: 15_00, credited: 26_00 });
  });

  it('a kind on an endpoint the contract does not pair it with is a bug, not a line', () => {
    assert.throws(() => totalsOf([movement({ kind: 'payout', endpoint: 'debit' })]), /not in the contract/);
  });
});

describe('the JSON form', () => {
  it('is 2-space indented with a final line end, and the same movements always give the same bytes', () => {
    const statement = statementOf([movement({})]);
    const text = statementJson(statement);
    assert.ok(text.endsWith('}\n'));
    assert.equal(text.split('\n')[1], '  "format": "bookmaker-statement/1",');
    assert.equal(statementJson(statementOf([movement({})])), text);
    assert.deepEqual(JSON.parse(text), statement);
  });
});

describe('the CSV form reads back cell for cell', () => {
  const awkward = [
    ['a plain movement', movement({})],
    ['a ref with a comma and quotes', movement({ kind: 'payout', endpoint: 'credit', ref: 'settle:"mk,1"' })],
    ['a player id with a line break', movement({ playerId: 'line\nbreak' })],
    ['a player id a spreadsheet would run as a formula', movement({ playerId: '=SUM(A1)' })],
    ['no bet (an adjustment)', movement({ kind: 'adjustment', endpoint: 'credit', betId: null })],
  ] as const;
  for (const [name, row] of awkward) {
    it(name, () => {
      const lines = parseCsv(statementCsv(statementOf([row])));
      assert.ok(lines);
      assert.deepEqual(lines[0], [...CSV_COLUMNS]);
      assert.equal(lines.length, 1 + 1 + 9, 'the header, one movement, nine totals');
      const cells = Object.fromEntries(CSV_COLUMNS.map((column, index) => [column, lines[1]![index]]));
      const formula = row.playerId.startsWith('=') ? `'${row.playerId}` : row.playerId;
      assert.deepEqual(
        [cells.record, cells.tenantId, cells.day, cells.txId, cells.betId, cells.playerId, cells.ref, cells.amount],
        ['movement', 'tn_1', '2026-11-27', row.txId, row.betId ?? '', formula, row.ref ?? '', String(row.amount)],
      );
      assert.deepEqual(
        lines.slice(2).map((line) => line[0]),
        Array(9).fill('total'),
      );
    });
  }

  it('a quote left open is no CSV at all', () => {
    assert.equal(parseCsv('record,txId\nmovement,"open'), null);
  });

  it('CRLF and LF line ends read alike, and a final line end makes no empty line', () => {
    assert.deepEqual(parseCsv('a,b\r\nc,d\r\n'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
    assert.deepEqual(parseCsv('a,b\nc,d'), [
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });
});
