import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  findDiscrepancies,
  type LedgerRow,
  type SoakEvidence,
  type StatementEvidence,
  type WalletRow,
} from '../../bench/soak-check.ts';

const SOAK = join(import.meta.dirname, '..', '..', 'bench', 'soak.ts');
const MODES = [
  'status_500',
  'status_503',
  'status_408',
  'status_429',
  'malformed',
  'empty_4xx',
  'wrong_tx_id',
  'wrong_currency',
  'delay',
  'reset',
];

/** `npm run soak` with these flags, to its end: its exit code, its figures (--json) and its progress lines. */
function soak(args: string[]): Promise<{ code: number | null; figures: any; stderr: string }> {
  // The run's own databases are made beside DATABASE_URL's when the suite runs on PostgreSQL, as it documents.
  const child = spawn(process.execPath, [SOAK, ...args, '--json'], { env: process.env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        resolve({ code, figures: JSON.parse(stdout), stderr });
      } catch {
        reject(new Error(`the soak printed no figures (exit ${code}):\n${stdout}\n${stderr}`));
      }
    });
  });
}

describe('npm run soak, the short version', () => {
  it(
    'places, settles, cashes out and resettles through every fault mode, two SIGKILLs and a feed outage, and nothing differs',
    { timeout: 360_000 },
    async () => {
      const seed = 20_261_125;
      const { code, figures, stderr } = await soak([
        '--seed',
        String(seed),
        '--bets',
        '300',
        '--restarts',
        '2',
        '--minutes',
        '3',
      ]);
      const context = `seed ${seed}: ${JSON.stringify(figures.discrepancyList, null, 2)}\n${stderr.slice(-4_000)}`;
      assert.equal(figures.discrepancies, 0, context);
      assert.equal(code, 0, context);
      assert.equal(figures.seed, seed);
      assert.equal(figures.restarts, 2, context);
      assert.equal(figures.unexpectedExits, 0);
      for (const mode of MODES) assert.ok(figures.faults.byMode[mode] >= 1, `a ${mode} fault was hit: ${context}`);
      assert.ok(figures.faults.appliedBeforeAnswer >= 1, 'some faults came after the movement was applied');
      assert.equal(figures.bets.sent, 300);
      // Faults wait in the wallet for the next calls, so a slower machine sends fewer calls between them and more
      // stakes meet one: how many are refused depends on the machine's speed, but never why.
      assert.ok(figures.bets.accepted >= 150, JSON.stringify(figures.bets));
      assert.deepEqual(
        Object.keys(figures.bets.refused).filter((code) => code !== 'wallet_unavailable'),
        [],
        `only a stake debit that met a fault is refused in the end: ${JSON.stringify(figures.bets)}`,
      );
      assert.ok(figures.bets.singles > 0 && figures.bets.accumulators > 0);
      assert.ok(figures.markets.resettled >= 1);
      for (const kind of ['bet/debit', 'payout/credit', 'resettle/credit', 'resettle/debit']) {
        assert.ok(
          figures.movements[kind]?.movements > 0,
          `some ${kind} movements counted: ${JSON.stringify(figures.movements)}`,
        );
      }
      // The operator's and the casino's decisions sent with the resettlements: each answer counted once, none unexpected.
      const amid = figures.duringResettlements;
      const total = (refused: Record<string, number>) => Object.values(refused).reduce((a, b) => a + b, 0);
      assert.equal(amid.unexpected, 0, context);
      assert.equal(amid.sent, amid.done + total(amid.refused), JSON.stringify(amid));
      assert.ok(amid.resettlements <= figures.markets.resettled, JSON.stringify(amid));
      type Tally = { sent: number; done: number; refused: Record<string, number> };
      for (const tally of Object.values<Tally>(amid.byAction)) {
        assert.equal(tally.sent, tally.done + total(tally.refused), JSON.stringify(amid));
      }
      // The demo's simulator priced its markets from a process of its own, fell silent once and recovered.
      assert.ok(figures.feed.applied > 0, JSON.stringify(figures.feed));
      assert.deepEqual([figures.feed.outages, figures.feed.recovered], [1, 1], JSON.stringify(figures.feed));
      assert.ok(figures.statements.movements > 0);
      assert.ok(figures.wallet.resent > 0, 'some movements had to be sent again');
      // The progress line names the phase, the bets, the restarts and the queue.
      assert.match(stderr, /bets \d+\/300 \(accepted \d+\)\s+restarts \d\/2.*queue/);
    },
  );
});

// ---- the checks themselves, on a small consistent run, then doctored ----

const day = '2026-03-01';
const at = (second: number) => `${day}T12:00:${String(second).padStart(2, '0')}.000Z`;

function row(
  txId: string,
  fields: Partial<LedgerRow> & Pick<LedgerRow, 'player' | 'endpoint' | 'kind' | 'amount'>,
): LedgerRow {
  const betId = txId.replace(/^rollback:/, '').split(':')[1] ?? null;
  return {
    txId,
    betId,
    status: 'applied',
    holdReason: null,
    lastOutcome: 'applied',
    operatorCode: null,
    resolvedAt: at(0),
    decidedBecause: null,
    ...fields,
  };
}

/**
 * Two players with 10.00 each. b1: 1.00 on s1 at 2.00, b2: 0.50 on s2 at 2.00; m1 settled s1 won (b1 paid 2.00,
 * b2 paid 0), then resettled s2 won (b1 owes a 2.00 correction debit, b2 gets 1.00). b3: a 0.30 stake whose answer
 * never came (the wallet applied it), rolled back. b4: 0.40 cashed out whole for 0.38.
 */
function consistent(): SoakEvidence {
  const ledger: LedgerRow[] = [
    row('bet:b1', { player: 'p1', endpoint: 'debit', kind: 'bet', amount: 100, resolvedAt: at(1) }),
    row('bet:b2', { player: 'p2', endpoint: 'debit', kind: 'bet', amount: 50, resolvedAt: at(2) }),
    row('bet:b3', {
      player: 'p2',
      endpoint: 'debit',
      kind: 'bet',
      amount: 30,
      status: 'unknown',
      lastOutcome: 'unknown',
      resolvedAt: null,
    }),
    row('rollback:bet:b3', { player: 'p2', endpoint: 'rollback', kind: 'rollback', amount: 30, resolvedAt: at(3) }),
    row('bet:b4', { player: 'p1', endpoint: 'debit', kind: 'bet', amount: 40, resolvedAt: at(4) }),
    row('cashout:b4', { player: 'p1', endpoint: 'credit', kind: 'cashout', amount: 38, resolvedAt: at(5) }),
    row('payout:b1:1', { player: 'p1', endpoint: 'credit', kind: 'payout', amount: 200, resolvedAt: at(6) }),
    row('payout:b2:1', { player: 'p2', endpoint: 'credit', kind: 'payout', amount: 0, resolvedAt: at(7) }),
    row('resettle:b1:2:1', { player: 'p1', endpoint: 'debit', kind: 'resettle', amount: 200, resolvedAt: at(8) }),
    row('resettle:b2:2:1', { player: 'p2', endpoint: 'credit', kind: 'resettle', amount: 100, resolvedAt: at(9) }),
  ];
  const wallet: WalletRow[] = ledger.map((line) => ({
    txId: line.txId,
    endpoint: line.endpoint,
    player: line.player,
    amount: line.amount,
    kind: line.kind,
    status: 200,
    reversed: line.txId === 'bet:b3',
  }));
  const leg = (selectionId: string) => [{ marketId: 'm1', selectionId, oddsMilli: 2000 }];
  return {
    openingBalance: 1000,
    balances: { p1: 1000 - 100 + 200 - 200 - 40 + 38, p2: 1000 - 50 + 0 + 100 },
    ledger,
    wallet,
    bets: [
      {
        betId: 'b1',
        player: 'p1',
        stake: 100,
        remainingStake: 100,
        fullyCashedOut: false,
        cashOutTxIds: [],
        legs: leg('s1'),
      },
      {
        betId: 'b2',
        player: 'p2',
        stake: 50,
        remainingStake: 50,
        fullyCashedOut: false,
        cashOutTxIds: [],
        legs: leg('s2'),
      },
      {
        betId: 'b4',
        player: 'p1',
        stake: 40,
        remainingStake: 0,
        fullyCashedOut: true,
        cashOutTxIds: ['cashout:b4'],
        legs: leg('s1'),
      },
    ],
    results: { m1: { s1: 'lost', s2: 'won' } },
    statements: [statementOf(ledger)],
  };
}

function statementOf(ledger: LedgerRow[]): StatementEvidence {
  const movements = ledger
    .filter((line) => line.status === 'applied' || line.status === 'resolved')
    .map((line) => ({
      txId: line.txId,
      betId: line.betId,
      playerId: line.player,
      kind: line.kind,
      endpoint: line.endpoint,
      direction: line.endpoint === 'debit' ? 'debit' : 'credit',
      amount: line.amount,
      currency: 'BRL',
      ref: null,
      appliedAt: line.resolvedAt!,
      status: line.status,
    }));
  const pairs = [
    ['bet', 'debit'],
    ['payout', 'credit'],
    ['refund', 'credit'],
    ['cashout', 'credit'],
    ['resettle', 'credit'],
    ['resettle', 'debit'],
    ['rollback', 'rollback'],
  ];
  const totals = pairs.map(([kind, endpoint]) => {
    const of = movements.filter((movement) => movement.kind === kind && movement.endpoint === endpoint);
    return {
      kind: kind!,
      endpoint: endpoint!,
      direction: endpoint === 'debit' ? 'debit' : 'credit',
      movements: of.length,
      amount: of.reduce((sum, movement) => sum + movement.amount, 0),
    };
  });
  const sum = (direction: string) =>
    movements
      .filter((movement) => movement.direction === direction)
      .reduce((total, movement) => total + movement.amount, 0);
  return {
    day,
    signatureValid: true,
    document: {
      day,
      from: `${day}T00:00:00.000Z`,
      to: '2026-03-02T00:00:00.000Z',
      movements,
      totals,
      summary: { movements: movements.length, debited: sum('debit'), credited: sum('credit') },
    },
  };
}

const checksOf = (evidence: SoakEvidence) =>
  [...new Set(findDiscrepancies(evidence).map((found) => found.check))].sort();
const ledgerRow = (evidence: SoakEvidence, txId: string) => evidence.ledger.find((line) => line.txId === txId)!;
const walletRow = (evidence: SoakEvidence, txId: string) => evidence.wallet.find((line) => line.txId === txId)!;

describe('the soak checks (bench/soak-check.ts)', () => {
  it('find nothing when the ledger, the wallet, the bets and the statement agree', () => {
    assert.deepEqual(findDiscrepancies(consistent()), []);
  });

  const doctored: Array<[string, (evidence: SoakEvidence) => void, string[]]> = [
    ['a balance one unit off', (e) => (e.balances.p1! += 1), ['balance']],
    [
      'a credit the ledger counts that the wallet never applied',
      (e) => {
        e.wallet = e.wallet.filter((line) => line.txId !== 'payout:b1:1');
        e.balances.p1! -= 200;
      },
      ['balance', 'counted_not_applied'],
    ],
    [
      'a credit the wallet applied twice, under a second txId',
      (e) => {
        e.wallet.push({ ...walletRow(e, 'payout:b1:1'), txId: 'payout:b1:1-again' });
        e.balances.p1! += 200;
      },
      ['applied_not_in_ledger', 'balance'],
    ],
    [
      'a second initial credit owed and paid',
      (e) => {
        e.ledger.push({ ...ledgerRow(e, 'payout:b1:1'), txId: 'payout:b1:2' });
        e.wallet.push({ ...walletRow(e, 'payout:b1:1'), txId: 'payout:b1:2' });
        e.balances.p1! += 200;
        e.statements = [statementOf(e.ledger)];
      },
      ['return', 'second_initial_credit'],
    ],
    [
      'the wallet paid another amount than the ledger owed',
      (e) => {
        walletRow(e, 'resettle:b2:2:1').amount = 99;
        e.balances.p2! -= 1;
      },
      ['balance', 'wallet_differs'],
    ],
    [
      'a correction still owed',
      (e) => {
        ledgerRow(e, 'resettle:b2:2:1').status = 'pending';
        e.wallet = e.wallet.filter((line) => line.txId !== 'resettle:b2:2:1');
        e.balances.p2! -= 100;
        e.statements = [statementOf(e.ledger)];
      },
      ['not_drained', 'return'],
    ],
    [
      'a payout left unknown',
      (e) => Object.assign(ledgerRow(e, 'payout:b2:1'), { status: 'unknown', resolvedAt: null }),
      ['applied_not_in_ledger', 'lost', 'statement_extra', 'unknown_without_reason'],
    ],
    [
      'a stake left unknown with no rollback',
      (e) => {
        e.ledger = e.ledger.filter((line) => line.txId !== 'rollback:bet:b3');
        e.wallet = e.wallet.filter((line) => line.txId !== 'rollback:bet:b3');
        e.statements = [statementOf(e.ledger)];
      },
      ['reversed_without_rollback', 'unknown_without_reason'],
    ],
    [
      'an accepted bet whose stake is not in the ledger',
      (e) => {
        e.ledger = e.ledger.filter((line) => line.txId !== 'bet:b1');
        e.wallet = e.wallet.filter((line) => line.txId !== 'bet:b1');
        e.balances.p1! += 100;
        e.statements = [statementOf(e.ledger)];
      },
      ['lost', 'stake'],
    ],
    [
      'a bet whose initial credit was never owed',
      (e) => {
        e.ledger = e.ledger.filter((line) => line.txId !== 'payout:b2:1');
        e.wallet = e.wallet.filter((line) => line.txId !== 'payout:b2:1');
        e.statements = [statementOf(e.ledger)];
      },
      ['lost'],
    ],
    ['a correction that is missing', (e) => (e.results.m1!.s2 = 'void'), ['return']],
    [
      'a cash-out the player was confirmed that is not applied',
      (e) => (e.bets[2]!.cashOutTxIds = ['cashout:b4', 'cashout:b4:p1']),
      ['cashout', 'lost'],
    ],
    [
      'a cancelled movement with no reason',
      (e) => {
        Object.assign(ledgerRow(e, 'payout:b2:1'), { status: 'cancelled', decidedBecause: null });
        e.wallet = e.wallet.filter((line) => line.txId !== 'payout:b2:1');
        e.statements = [statementOf(e.ledger)];
      },
      ['decided_without_reason'],
    ],
    [
      'a statement that leaves a movement out',
      (e) => e.statements[0]!.document.movements.splice(3, 1),
      ['statement_missing', 'statement_totals'],
    ],
    [
      'a statement whose totals do not add up',
      (e) => (e.statements[0]!.document.totals[1]!.amount += 1),
      ['statement_totals'],
    ],
    [
      'a statement listing an amount the ledger does not count',
      (e) => {
        e.statements[0]!.document.movements[0]!.amount += 1;
        e.statements[0]!.document.totals[0]!.amount += 1;
        e.statements[0]!.document.summary.debited += 1;
      },
      ['statement_differs'],
    ],
    [
      'a statement whose signature does not verify',
      (e) => (e.statements[0]!.signatureValid = false),
      ['statement_signature'],
    ],
  ];
  for (const [what, doctor, checks] of doctored) {
    it(`find ${what}`, () => {
      const evidence = consistent();
      doctor(evidence);
      assert.deepEqual(checksOf(evidence), checks);
    });
  }
});
