// The fault soak's verdict (bench/soak.ts): what the ledger, the wallet's journal and balances, the bets placed and
// the signed daily statements must agree on once the queue has drained. Pure: it reads the evidence the soak
// gathered and lists every discrepancy, so that a doctored input can show that each check bites
// (test/wallet/soak-command.test.ts).
import { settledReturn } from '../src/catalog/odds.ts';
import type { SelectionResult } from '../src/catalog/tables.ts';

/** One obligation as the admin API lists it (GET /api/v1/admin/obligations), reduced to what the checks read. */
export interface LedgerRow {
  txId: string;
  betId: string | null;
  /** The casino's id of the player, as sent to the wallet. */
  player: string;
  endpoint: 'debit' | 'credit' | 'rollback';
  kind: string;
  amount: number;
  status: 'sending' | 'pending' | 'applied' | 'refused' | 'unknown' | 'held' | 'resolved' | 'cancelled';
  holdReason: string | null;
  lastOutcome: string | null;
  operatorCode: string | null;
  /** When it counted as applied (applied, resolved), or was closed. */
  resolvedAt: string | null;
  /** Why it was decided: an operator's reason, or what the rules recorded (the last line of its history). */
  decidedBecause: string | null;
}

/** One line of the reference wallet's journal (GET /_control/transactions). */
export interface WalletRow {
  txId: string;
  endpoint: string;
  player: string;
  amount: number;
  kind: string;
  /** The HTTP status the wallet answered and stores: 200 applied, anything else moved nothing. */
  status: number;
  /** A debit a later rollback reversed. */
  reversed: boolean;
}

/** A bet the soak placed and the service accepted, as its last answer showed it. */
export interface SoakBet {
  betId: string;
  player: string;
  stake: number;
  /** The stake not cashed out. */
  remainingStake: number;
  fullyCashedOut: boolean;
  /** The cash-out credits the service confirmed to the player (their txIds). */
  cashOutTxIds: string[];
  legs: Array<{ marketId: string; selectionId: string; oddsMilli: number }>;
}

export interface StatementMovement {
  txId: string;
  betId: string | null;
  playerId: string;
  kind: string;
  endpoint: string;
  direction: string;
  amount: number;
  currency: string;
  ref: string | null;
  appliedAt: string;
  status: string;
}

/** A daily statement as served, parsed, with whether its signature verified with the published key. */
export interface StatementEvidence {
  day: string;
  signatureValid: boolean;
  document: {
    day: string;
    from: string;
    to: string;
    movements: StatementMovement[];
    totals: Array<{ kind: string; endpoint: string; direction: string; movements: number; amount: number }>;
    summary: { movements: number; debited: number; credited: number };
  };
}

export interface SoakEvidence {
  /** Every player's opening balance in the wallet. */
  openingBalance: number;
  /** The wallet's balance of every player at the end. */
  balances: Record<string, number>;
  ledger: LedgerRow[];
  wallet: WalletRow[];
  /** Every bet the service accepted. */
  bets: SoakBet[];
  /** The results each market was last settled with: market id -> selection id -> result. */
  results: Record<string, Record<string, SelectionResult>>;
  /** The statements of every UTC day of the run. */
  statements: StatementEvidence[];
}

export interface Discrepancy {
  check: string;
  detail: string;
}

/** The states in which a movement counts as applied. */
const COUNTS = new Set(['applied', 'resolved']);
const UNSETTLED = new Set(['sending', 'pending', 'held']);
const SETTLEMENT_KINDS = new Set(['payout', 'refund', 'resettle']);

const signed = (row: { endpoint: string; amount: number }) => (row.endpoint === 'debit' ? -row.amount : row.amount);

/** Every discrepancy between the ledger, the wallet, the bets and the statements; none when they agree. */
export function findDiscrepancies(evidence: SoakEvidence): Discrepancy[] {
  const found: Discrepancy[] = [];
  const report = (check: string, detail: string) => found.push({ check, detail });
  const counted = evidence.ledger.filter((row) => COUNTS.has(row.status));
  const byTxId = new Map<string, LedgerRow>();

  // The ledger itself: one row per txId, and nothing left unsettled.
  for (const row of evidence.ledger) {
    if (byTxId.has(row.txId)) report('duplicate_in_ledger', `${row.txId} is owed twice`);
    byTxId.set(row.txId, row);
    if (UNSETTLED.has(row.status)) {
      report('not_drained', `${row.txId} is still ${row.status}${row.holdReason ? ` (${row.holdReason})` : ''}`);
    }
  }

  checkReasons(evidence, byTxId, report);
  checkWallet(evidence, counted, byTxId, report);
  checkBalances(evidence, counted, byTxId, report);
  checkBets(evidence, byTxId, report);
  checkStatements(evidence, counted, report);
  return found;
}

/** Nothing is left unknown, refused or closed without a reason. */
function checkReasons(
  evidence: SoakEvidence,
  byTxId: Map<string, LedgerRow>,
  report: (check: string, detail: string) => void,
): void {
  for (const row of evidence.ledger) {
    if (row.status === 'unknown') {
      // Only a stake's outcome may stay unknown, and only with its rollback applied.
      const rollback = byTxId.get(`rollback:${row.txId}`);
      if (row.kind !== 'bet' || row.endpoint !== 'debit') {
        report('unknown_without_reason', `${row.txId} (${row.kind}) is unknown: only a stake may be`);
      } else if (!rollback || !COUNTS.has(rollback.status) || rollback.amount !== row.amount) {
        report('unknown_without_reason', `${row.txId} is unknown and its rollback is not applied`);
      }
      if (!row.lastOutcome) report('unknown_without_reason', `${row.txId} is unknown with no outcome recorded`);
    }
    if (row.status === 'refused' && (row.kind !== 'bet' || !row.operatorCode)) {
      report('refused_without_reason', `${row.txId} is refused without the wallet's code`);
    }
    if ((row.status === 'cancelled' || row.status === 'resolved') && !row.decidedBecause) {
      report('decided_without_reason', `${row.txId} is ${row.status} with no reason recorded`);
    }
  }
}

/** The wallet applied exactly the movements the ledger counts: same txIds, endpoints, players and amounts. */
function checkWallet(
  evidence: SoakEvidence,
  counted: LedgerRow[],
  byTxId: Map<string, LedgerRow>,
  report: (check: string, detail: string) => void,
): void {
  const walletByTxId = new Map<string, WalletRow>();
  for (const row of evidence.wallet) {
    if (walletByTxId.has(row.txId)) report('applied_twice', `the wallet journal has ${row.txId} twice`);
    walletByTxId.set(row.txId, row);
  }
  for (const row of evidence.wallet) {
    if (row.status !== 200) continue;
    const owed = byTxId.get(row.txId);
    if (row.reversed) {
      // A stake the wallet applied whose answer never came back: the ledger says unknown and owes its rollback.
      const rollback = byTxId.get(`rollback:${row.txId}`);
      if (owed?.status !== 'unknown' || !rollback || !COUNTS.has(rollback.status)) {
        report(
          'reversed_without_rollback',
          `the wallet reversed ${row.txId}, the ledger has no applied rollback of it`,
        );
      }
      continue;
    }
    if (!owed || !COUNTS.has(owed.status)) {
      report(
        'applied_not_in_ledger',
        `the wallet applied ${row.txId} (${row.endpoint} ${row.amount}); the ledger says ${owed?.status ?? 'nothing'}`,
      );
      continue;
    }
    if (owed.endpoint !== row.endpoint || owed.amount !== row.amount || owed.player !== row.player) {
      report(
        'wallet_differs',
        `${row.txId}: wallet ${row.endpoint} ${row.amount} to ${row.player}, ledger ${owed.endpoint} ` +
          `${owed.amount} to ${owed.player}`,
      );
    }
  }
  for (const row of counted) {
    const applied = walletByTxId.get(row.txId);
    if (!applied || applied.status !== 200 || applied.reversed) {
      report('counted_not_applied', `the ledger counts ${row.txId} (${row.status}); the wallet did not apply it`);
    }
  }
}

/** Every balance is its opening balance plus the movements the ledger counts. */
function checkBalances(
  evidence: SoakEvidence,
  counted: LedgerRow[],
  byTxId: Map<string, LedgerRow>,
  report: (check: string, detail: string) => void,
): void {
  const expected = new Map<string, number>();
  for (const player of Object.keys(evidence.balances)) expected.set(player, evidence.openingBalance);
  for (const row of counted) {
    let delta = signed(row);
    if (row.endpoint === 'rollback') {
      // A rollback gives back a stake only when that stake counted; an unknown stake and its rollback net to 0.
      const stake = byTxId.get(row.txId.replace(/^rollback:/, ''));
      delta = stake && COUNTS.has(stake.status) ? row.amount : 0;
    }
    expected.set(row.player, (expected.get(row.player) ?? evidence.openingBalance) + delta);
  }
  for (const [player, balance] of expected) {
    const actual = evidence.balances[player];
    if (actual !== balance) {
      report(
        'balance',
        `${player}: the wallet holds ${actual ?? 'nothing'}, opening ${evidence.openingBalance} plus the ledger's ` +
          `movements make ${balance}`,
      );
    }
  }
}

/** Nothing lost: every accepted bet has its stake, its cash-outs and exactly what its results pay. */
function checkBets(
  evidence: SoakEvidence,
  byTxId: Map<string, LedgerRow>,
  report: (check: string, detail: string) => void,
): void {
  const accepted = new Map(evidence.bets.map((bet) => [bet.betId, bet]));
  const rowsOfBet = new Map<string, LedgerRow[]>();
  for (const row of evidence.ledger) {
    if (row.betId) rowsOfBet.set(row.betId, [...(rowsOfBet.get(row.betId) ?? []), row]);
  }
  for (const [betId, rows] of rowsOfBet) {
    const stakes = rows.filter((row) => row.kind === 'bet');
    if (stakes.length !== 1) report('stake', `${betId} has ${stakes.length} stake debits`);
    const initial = rows.filter((row) => /^payout:[^:]+:\d+$/.test(row.txId));
    if (initial.some((row) => row.txId !== `payout:${betId}:1`) || initial.length > 1) {
      report('second_initial_credit', `${betId} has initial credits ${initial.map((row) => row.txId).join(', ')}`);
    }
    if (!accepted.has(betId)) {
      // A bet the service did not accept: its stake must not count (refused, or unknown and rolled back).
      if (stakes.some((row) => COUNTS.has(row.status))) {
        report('stake', `${betId} was answered as not accepted but its stake counts`);
      }
      if (rows.some((row) => row.kind !== 'bet' && row.kind !== 'rollback')) {
        report('stake', `${betId} was not accepted but is owed ${rows.map((row) => row.txId).join(', ')}`);
      }
    }
  }
  for (const bet of evidence.bets) {
    const rows = rowsOfBet.get(bet.betId) ?? [];
    const stake = byTxId.get(`bet:${bet.betId}`);
    if (!stake || !COUNTS.has(stake.status) || stake.amount !== bet.stake) {
      report('lost', `${bet.betId}: accepted, but its stake ${bet.stake} is ${stake?.status ?? 'not in the ledger'}`);
    }
    for (const txId of bet.cashOutTxIds) {
      if (!COUNTS.has(byTxId.get(txId)?.status ?? '')) report('lost', `${bet.betId}: cash-out ${txId} is not applied`);
    }
    const cashedOut = rows.filter((row) => row.kind === 'cashout');
    if (cashedOut.length !== bet.cashOutTxIds.length) {
      report('cashout', `${bet.betId}: ${bet.cashOutTxIds.length} cash-outs confirmed, ${cashedOut.length} owed`);
    }
    if (bet.fullyCashedOut) {
      if (rows.some((row) => SETTLEMENT_KINDS.has(row.kind))) {
        report('cashout', `${bet.betId}: fully cashed out, yet settlement movements were owed`);
      }
      continue;
    }
    // Its initial credit was owed, once. It may have been superseded by a correction before it was sent, and then
    // cancelled: what the bet is paid in the end is checked below, whatever movements carried it.
    const initial = byTxId.get(`payout:${bet.betId}:1`);
    if (!initial || initial.status === 'refused' || initial.status === 'unknown') {
      report('lost', `${bet.betId}: its initial settlement credit is ${initial?.status ?? 'missing'}`);
    }
    const legs = bet.legs.map((leg) => ({
      oddsMilli: leg.oddsMilli,
      result: evidence.results[leg.marketId]?.[leg.selectionId],
    }));
    if (legs.some((leg) => !leg.result)) {
      report('lost', `${bet.betId}: a leg's market has no result`);
      continue;
    }
    const owed = settledReturn(bet.remainingStake, legs as Array<{ oddsMilli: number; result: SelectionResult }>);
    const paid = rows
      .filter((row) => SETTLEMENT_KINDS.has(row.kind) && COUNTS.has(row.status))
      .reduce((sum, row) => sum + signed(row), 0);
    if (paid !== owed) {
      report('return', `${bet.betId}: its results pay ${owed}, the movements that count pay ${paid}`);
    }
  }
}

/**
 * The signed statements of the run's days list exactly the movements the ledger counts, each on the day it
 * counted, with totals and summary that add up.
 */
function checkStatements(
  evidence: SoakEvidence,
  counted: LedgerRow[],
  report: (check: string, detail: string) => void,
): void {
  const listed = new Map<string, StatementMovement>();
  for (const statement of evidence.statements) {
    const { document, day } = statement;
    if (!statement.signatureValid) report('statement_signature', `the statement of ${day} does not verify`);
    const from = Date.parse(document.from);
    const to = Date.parse(document.to);
    for (const movement of document.movements) {
      if (listed.has(movement.txId)) report('statement_duplicate', `${movement.txId} is listed twice (${day})`);
      listed.set(movement.txId, movement);
      const at = Date.parse(movement.appliedAt);
      if (!(at >= from && at < to)) report('statement_day', `${movement.txId} at ${movement.appliedAt} in ${day}`);
    }
    const sums = new Map<string, { movements: number; amount: number }>();
    let debited = 0;
    let credited = 0;
    for (const movement of document.movements) {
      const key = `${movement.kind}/${movement.endpoint}`;
      const sum = sums.get(key) ?? { movements: 0, amount: 0 };
      sums.set(key, { movements: sum.movements + 1, amount: sum.amount + movement.amount });
      if (movement.endpoint === 'debit') debited += movement.amount;
      else credited += movement.amount;
    }
    for (const total of document.totals) {
      const sum = sums.get(`${total.kind}/${total.endpoint}`) ?? { movements: 0, amount: 0 };
      sums.delete(`${total.kind}/${total.endpoint}`);
      if (sum.movements !== total.movements || sum.amount !== total.amount) {
        report(
          'statement_totals',
          `${day} ${total.kind}/${total.endpoint}: total ${total.movements} for ${total.amount}, ` +
            `the movements make ${sum.movements} for ${sum.amount}`,
        );
      }
    }
    for (const key of sums.keys()) report('statement_totals', `${day}: no total line for ${key}`);
    const summary = document.summary;
    if (
      summary.movements !== document.movements.length ||
      summary.debited !== debited ||
      summary.credited !== credited
    ) {
      report('statement_totals', `${day}: the summary does not add up`);
    }
  }
  for (const row of counted) {
    const movement = listed.get(row.txId);
    listed.delete(row.txId);
    if (!movement) {
      report('statement_missing', `${row.txId} counts (${row.status}) and is in no statement`);
      continue;
    }
    if (
      movement.amount !== row.amount ||
      movement.endpoint !== row.endpoint ||
      movement.kind !== row.kind ||
      movement.playerId !== row.player ||
      movement.status !== row.status ||
      movement.appliedAt !== row.resolvedAt
    ) {
      report(
        'statement_differs',
        `${row.txId}: statement ${movement.kind} ${movement.endpoint} ${movement.amount} ${movement.status} at ` +
          `${movement.appliedAt}, ledger ${row.kind} ${row.endpoint} ${row.amount} ${row.status} at ${row.resolvedAt}`,
      );
    }
  }
  for (const txId of listed.keys()) report('statement_extra', `${txId} is in a statement but does not count`);
}

/** The movements that count, by kind and endpoint: how many and how much. */
export function movementsByKind(ledger: LedgerRow[]): Record<string, { movements: number; amount: number }> {
  const out: Record<string, { movements: number; amount: number }> = {};
  for (const row of ledger) {
    if (!COUNTS.has(row.status)) continue;
    const key = `${row.kind}/${row.endpoint}`;
    const line = (out[key] ??= { movements: 0, amount: 0 });
    line.movements += 1;
    line.amount += row.amount;
  }
  return out;
}

/** How many obligations ended in each state. */
export function statesOf(ledger: LedgerRow[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const row of ledger) out[row.status] = (out[row.status] ?? 0) + 1;
  return out;
}
