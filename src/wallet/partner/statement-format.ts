import { toCsv } from '../../platform/http/csv.ts';
import type { Statement, StatementMovement, StatementTotal } from '../schemas.ts';

/**
 * The reconciliation statement's two forms, written here and read back here (by `bookmaker reconcile`), so the two
 * can never disagree: JSON (2-space indented, fields in a fixed order, a final line end) and CSV (RFC 4180, through
 * the one CSV writer). Both are deterministic: the same movements always give the same bytes.
 */

export const STATEMENT_FORMAT = 'bookmaker-statement/1';

/** Every kind and endpoint pair the contract allows, in the order the totals list them. */
const STATEMENT_LINES: ReadonlyArray<Pick<StatementTotal, 'kind' | 'endpoint'>> = [
  { kind: 'bet', endpoint: 'debit' },
  { kind: 'payout', endpoint: 'credit' },
  { kind: 'refund', endpoint: 'credit' },
  { kind: 'cashout', endpoint: 'credit' },
  { kind: 'resettle', endpoint: 'credit' },
  { kind: 'resettle', endpoint: 'debit' },
  { kind: 'rollback', endpoint: 'rollback' },
  { kind: 'adjustment', endpoint: 'credit' },
  { kind: 'adjustment', endpoint: 'debit' },
];

/** Which way money moved for the player: a debit takes, a credit and a rollback give. */
export function directionOf(endpoint: StatementMovement['endpoint']): StatementMovement['direction'] {
  return endpoint === 'debit' ? 'debit' : 'credit';
}

/** The totals per kind and endpoint (every pair, zeros included) and the summary of some movements. */
export function totalsOf(movements: readonly StatementMovement[]): Pick<Statement, 'totals' | 'summary'> {
  const totals = STATEMENT_LINES.map(({ kind, endpoint }) => ({
    kind,
    endpoint,
    direction: directionOf(endpoint),
    movements: 0,
    amount: 0,
  }));
  const summary = { movements: 0, debited: 0, credited: 0 };
  for (const movement of movements) {
    const line = totals.find((total) => total.kind === movement.kind && total.endpoint === movement.endpoint);
    if (!line) throw new Error(`a ${movement.kind} movement on /${movement.endpoint} is not in the contract`);
    line.movements += 1;
    line.amount += movement.amount;
    summary.movements += 1;
    if (movement.direction === 'debit') summary.debited += movement.amount;
    else summary.credited += movement.amount;
  }
  return { totals, summary };
}

export function statementJson(statement: Statement): string {
  return `${JSON.stringify(statement, null, 2)}\n`;
}

/** The CSV columns; every line carries its tenant and day, so no line can pass for another statement's. */
export const CSV_COLUMNS = [
  'record',
  'tenantId',
  'day',
  'txId',
  'betId',
  'playerId',
  'kind',
  'endpoint',
  'direction',
  'amount',
  'currency',
  'ref',
  'appliedAt',
  'status',
  'movements',
] as const;

/**
 * One `movement` line per movement, in the JSON's order, then one `total` line per kind and endpoint (its amount and
 * its number of movements; no txId). Amounts are integers in minor units.
 */
export function statementCsv(statement: Statement): string {
  const { tenantId, day, currency } = statement;
  const lines: Array<Array<string | null>> = [[...CSV_COLUMNS]];
  for (const m of statement.movements) {
    lines.push([
      'movement',
      tenantId,
      day,
      m.txId,
      m.betId,
      m.playerId,
      m.kind,
      m.endpoint,
      m.direction,
      String(m.amount),
      m.currency,
      m.ref,
      m.appliedAt,
      m.status,
      null,
    ]);
  }
  for (const t of statement.totals) {
    lines.push([
      'total',
      tenantId,
      day,
      null,
      null,
      null,
      t.kind,
      t.endpoint,
      t.direction,
      String(t.amount),
      currency,
      null,
      null,
      null,
      String(t.movements),
    ]);
  }
  return toCsv(lines);
}

/**
 * RFC 4180 text as lines of cells (quoted cells, doubled quotes, CRLF or LF line ends). Returns null when a quote is
 * left open. A final line end does not make an empty line.
 */
export function parseCsv(text: string): string[][] | null {
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let index = 0;
  while (index < text.length) {
    const char = text[index]!;
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else cell += char;
      index += 1;
      continue;
    }
    if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || (char === '\r' && text[index + 1] === '\n')) {
      cells.push(cell);
      lines.push(cells);
      cells = [];
      cell = '';
      if (char === '\r') index += 1;
    } else cell += char;
    index += 1;
  }
  if (quoted) return null;
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    lines.push(cells);
  }
  return lines;
}
