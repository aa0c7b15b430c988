import { reconciliationErrors } from '../errors.ts';
import { CSV_COLUMNS, parseCsv, STATEMENT_FORMAT } from './statement-format.ts';
import { OBLIGATION_KINDS } from '../states.ts';

/**
 * The casino's side of reconciliation (`bookmaker reconcile`, docs/reconciliation.md): a statement (JSON or CSV, as
 * served) and the wallet's own journal export read into movements, and every difference between them. Pure: files
 * are read by the command.
 */

type Direction = 'debit' | 'credit';

/** A movement as either side records it: what the two must agree on. */
export interface Booked {
  txId: string;
  amount: number;
  currency: string;
  direction: Direction;
  /** Optional in a wallet export; compared when both sides have it. */
  kind: string | null;
  /** The statement's only: what it refers to (a rollback: the debit it reverses). */
  ref?: string | null;
}

export interface ReadStatement {
  tenantId: string;
  day: string;
  /** The key the statement names (JSON only). */
  keyId: string | null;
  /** A sandbox's preview of a day under way, cut at `to` (JSON only). */
  preview: { to: string } | null;
  movements: Booked[];
}

type DifferenceKind =
  /** In the statement, not in the wallet's export: we count it as applied, the wallet has no record of it. */
  | 'missing_in_wallet'
  /** In the wallet's export, not in the statement: the wallet applied something we do not count (that day). */
  | 'missing_in_statement'
  | 'amount_mismatch'
  | 'currency_mismatch'
  /** One side says debit, the other credit. */
  | 'direction_mismatch'
  | 'kind_mismatch'
  /** A txId more than once on one side: a movement applied twice, or an export that repeats it. */
  | 'duplicate_in_statement'
  | 'duplicate_in_wallet';

export interface Difference {
  difference: DifferenceKind;
  txId: string;
  statement: Booked | null;
  wallet: Booked | null;
  /** How often the txId appears on the side that repeats it (duplicates only). */
  count?: number;
}

/**
 * A debit in the wallet's export only, that a rollback of the statement reverses: a stake debit whose outcome the
 * service could not know (a timeout, a 5xx), so it never counted as applied, and rolled back (the contract's rule).
 * Not a difference: the wallet applied it and its rollback returned it, or never applied it (the rollback moved
 * nothing). Listed for information.
 */
interface Reversed {
  txId: string;
  wallet: Booked;
  rollback: string;
}

export interface Comparison {
  differences: Difference[];
  reversed: Reversed[];
}

/** Every difference, in the statement's order, then the wallet's movements the statement lacks, in the export's. */
export function compare(statement: readonly Booked[], wallet: readonly Booked[]): Comparison {
  const differences: Difference[] = [];
  const reversed: Reversed[] = [];
  const ours = firstOfEach(statement);
  const theirs = firstOfEach(wallet);
  const rollbacks = new Map(
    statement.flatMap((booked) =>
      booked.kind === 'rollback' && booked.ref ? [[booked.ref, booked.txId] as const] : [],
    ),
  );
  for (const [txId, { booked, count }] of ours) {
    if (count > 1)
      differences.push({ difference: 'duplicate_in_statement', txId, statement: booked, wallet: null, count });
    const other = theirs.get(txId);
    if (!other) {
      differences.push({ difference: 'missing_in_wallet', txId, statement: booked, wallet: null });
      continue;
    }
    if (other.count > 1) {
      differences.push({
        difference: 'duplicate_in_wallet',
        txId,
        statement: booked,
        wallet: other.booked,
        count: other.count,
      });
    }
    const both = { txId, statement: booked, wallet: other.booked };
    if (booked.amount !== other.booked.amount) differences.push({ difference: 'amount_mismatch', ...both });
    if (booked.currency !== other.booked.currency) differences.push({ difference: 'currency_mismatch', ...both });
    if (booked.direction !== other.booked.direction) differences.push({ difference: 'direction_mismatch', ...both });
    if (booked.kind !== null && other.booked.kind !== null && booked.kind !== other.booked.kind) {
      differences.push({ difference: 'kind_mismatch', ...both });
    }
  }
  for (const [txId, { booked, count }] of theirs) {
    if (ours.has(txId)) continue;
    if (count > 1) {
      differences.push({ difference: 'duplicate_in_wallet', txId, statement: null, wallet: booked, count });
    }
    const rollback = rollbacks.get(txId);
    if (rollback !== undefined && booked.direction === 'debit') reversed.push({ txId, wallet: booked, rollback });
    else differences.push({ difference: 'missing_in_statement', txId, statement: null, wallet: booked });
  }
  return { differences, reversed };
}

function firstOfEach(movements: readonly Booked[]): Map<string, { booked: Booked; count: number }> {
  const seen = new Map<string, { booked: Booked; count: number }>();
  for (const booked of movements) {
    const entry = seen.get(booked.txId);
    if (entry) entry.count += 1;
    else seen.set(booked.txId, { booked, count: 1 });
  }
  return seen;
}

// ---- reading the statement ----

/** A statement as served (its JSON or its CSV form), told apart by its first character. */
export function readStatement(text: string): ReadStatement {
  const body = withoutBom(text);
  return body.trimStart().startsWith('{') ? statementFromJson(body) : statementFromCsv(body);
}

function statementFromJson(text: string): ReadStatement {
  const parsed = parseJson(text, 'the statement');
  if (!isRecord(parsed) || parsed.format !== STATEMENT_FORMAT || !Array.isArray(parsed.movements)) {
    throw unreadable(`the statement is not a ${STATEMENT_FORMAT} document`);
  }
  const movements = parsed.movements.map((item: unknown, index: number) => {
    const where = `the statement's movement ${index + 1}`;
    if (!isRecord(item)) throw unreadable(`${where} is not an object`);
    return booked(item, where, true);
  });
  return {
    tenantId: text_(parsed.tenantId, 'the statement’s tenantId'),
    day: text_(parsed.day, 'the statement’s day'),
    keyId: typeof parsed.keyId === 'string' ? parsed.keyId : null,
    preview: parsed.preview === true ? { to: text_(parsed.to, 'the statement’s to') } : null,
    movements,
  };
}

function statementFromCsv(text: string): ReadStatement {
  const lines = parseCsv(text);
  if (!lines || lines.length === 0 || lines[0]!.join(',') !== CSV_COLUMNS.join(',')) {
    throw unreadable(`the statement is neither JSON nor a statement CSV (header ${CSV_COLUMNS.join(',')})`);
  }
  const column = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
  let tenantId: string | undefined;
  let day: string | undefined;
  const movements: Booked[] = [];
  lines.slice(1).forEach((cells, index) => {
    const where = `line ${index + 2} of the statement`;
    if (cells.length !== CSV_COLUMNS.length)
      throw unreadable(`${where} has ${cells.length} cells, not ${CSV_COLUMNS.length}`);
    const record = cells[column('record')];
    tenantId ??= cells[column('tenantId')];
    day ??= cells[column('day')];
    if (cells[column('tenantId')] !== tenantId || cells[column('day')] !== day) {
      throw unreadable(`${where} belongs to another statement (tenant or day)`);
    }
    if (record === 'total') return;
    if (record !== 'movement') throw unreadable(`${where}: record must be movement or total`);
    const item = Object.fromEntries(CSV_COLUMNS.map((name, i) => [name, cells[i]]));
    movements.push(booked(item, where, true));
  });
  if (tenantId === undefined || day === undefined) throw unreadable('the statement CSV has no line');
  return { tenantId, day, keyId: null, preview: null, movements };
}

// ---- reading the wallet's export ----

/**
 * The wallet's journal export: CSV with a header line naming at least txId, amount, currency and direction (kind
 * optional, other columns ignored), or JSON (an array of such objects, or { "movements": [...] }). Amounts are
 * non-negative integers in minor units; direction is debit (from the player) or credit (to the player; rollback is
 * accepted for credit).
 */
export function readWalletExport(text: string): Booked[] {
  const body = withoutBom(text);
  const start = body.trimStart()[0];
  if (start === '[' || start === '{') {
    const parsed = parseJson(body, 'the wallet export');
    const items = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.movements : undefined;
    if (!Array.isArray(items))
      throw unreadable('the wallet export JSON is neither an array nor { "movements": [...] }');
    return items.map((item: unknown, index: number) => {
      const where = `movement ${index + 1} of the wallet export`;
      if (!isRecord(item)) throw unreadable(`${where} is not an object`);
      return booked(item, where, false);
    });
  }
  const lines = parseCsv(body);
  if (!lines || lines.length === 0) throw unreadable('the wallet export is empty or has an unclosed quote');
  const header = lines[0]!.map((name) => name.trim());
  for (const required of ['txId', 'amount', 'currency', 'direction']) {
    if (!header.includes(required)) throw unreadable(`the wallet export's header has no ${required} column`);
  }
  return lines
    .slice(1)
    .map((cells, index) => ({ cells, line: index + 2 }))
    .filter(({ cells }) => !(cells.length === 1 && cells[0]!.trim() === ''))
    .map(({ cells, line }) => {
      const where = `line ${line} of the wallet export`;
      if (cells.length !== header.length)
        throw unreadable(`${where} has ${cells.length} cells, the header ${header.length}`);
      const item: Record<string, unknown> = Object.fromEntries(header.map((name, i) => [name, cells[i]!.trim()]));
      if (item.kind === '') item.kind = undefined;
      return booked(item, where, false);
    });
}

// ---- one movement ----

function booked(item: Record<string, unknown>, where: string, ours: boolean): Booked {
  const txId = text_(item.txId, `${where}: txId`);
  const amount =
    typeof item.amount === 'string' && /^[0-9]{1,16}$/.test(item.amount) ? Number(item.amount) : item.amount;
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount) || amount < 0) {
    throw unreadable(`${where}: amount must be a non-negative integer (minor units)`);
  }
  const currency = text_(item.currency, `${where}: currency`);
  const direction = ours ? item.direction : item.direction === 'rollback' ? 'credit' : item.direction;
  if (direction !== 'debit' && direction !== 'credit') {
    throw unreadable(`${where}: direction must be debit or credit${ours ? '' : ' (or rollback)'}`);
  }
  const kind = item.kind === undefined || item.kind === null ? null : text_(item.kind, `${where}: kind`);
  if (kind !== null && !(OBLIGATION_KINDS as readonly string[]).includes(kind)) {
    throw unreadable(`${where}: kind must be one of ${OBLIGATION_KINDS.join(', ')}`);
  }
  const ref = ours && typeof item.ref === 'string' && item.ref !== '' ? item.ref : null;
  return { txId, amount, currency, direction, kind, ...(ours ? { ref } : {}) };
}

function text_(value: unknown, what: string): string {
  if (typeof value !== 'string' || value.length === 0) throw unreadable(`${what} is missing`);
  return value;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw unreadable(`${what} is not valid JSON: ${(error as Error).message}`);
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutBom(text: string): string {
  return text.startsWith('\uFEFF') ? text.slice(1) : text;
}

function unreadable(message: string) {
  return reconciliationErrors.unreadable_input({ problem: message }, message);
}
