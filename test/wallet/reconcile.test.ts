import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, it } from 'node:test';
import { parseCommandLine, UsageError } from '../../src/commands/definitions.ts';
import { RECONCILE_COMMAND } from '../../src/cli/reconcile.ts';
import { StatementSigner } from '../../src/wallet/partner/statement-signing.ts';
import type { TestApp } from '../helpers/app.ts';
import { freshSportsbookPerTest, type Sportsbook } from '../helpers/sportsbook.ts';
import { aDayOfMovements, AFTER_THE_DAY, getStatement } from '../helpers/statements.ts';
import type { TestWallet } from '../helpers/wallet.ts';

/**
 * `bookmaker reconcile`: a statement served by the real server, checked against the reference wallet's own journal.
 * The command runs in this process, as the CLI runs it (parsed flags, runCommand's exit code).
 */
const fresh = freshSportsbookPerTest('reconcile-player', 1_000_00);
let t: TestApp;
let wallet: TestWallet;
let book: Sportsbook;
let dir: string;

interface ExportLine {
  txId: string;
  amount: number;
  currency: string;
  direction: string;
  kind: string;
}
let journal: ExportLine[];

beforeEach(async () => {
  ({ t, wallet, book } = fresh);
  await aDayOfMovements(t, book, wallet, fresh.token);
  t.clock.set(AFTER_THE_DAY);
  dir = mkdtempSync(join(tmpdir(), 'reconcile-'));
  for (const [format, query] of [
    ['json', ''],
    ['csv', '?format=csv'],
  ] as const) {
    const response = await getStatement(t, book.tenant, undefined, query);
    assert.equal(response.status, 200, response.text);
    writeFileSync(join(dir, `statement.${format}`), response.text);
    writeFileSync(join(dir, `statement.${format}.sig`), `${response.headers.get('x-statement-signature')}\n`);
  }
  writeFileSync(join(dir, 'keys.json'), (await t.request('GET', '/api/v1/integration/statement-keys')).text);
  // The wallet's own journal of this test's player: every movement it answered with a success (in BRL).
  journal = (await wallet.wallet.store.transactions())
    .filter((row) => row.player_id === fresh.player && Number(row.status) < 300)
    .map((row) => ({
      txId: row.tx_id as string,
      amount: Number(row.amount),
      currency: 'BRL',
      direction: row.endpoint === 'debit' ? 'debit' : row.endpoint === 'rollback' ? 'rollback' : 'credit',
      kind: row.kind as string,
    }));
});

const csvOf = (lines: ExportLine[]) =>
  ['txId,amount,currency,direction,kind', ...lines.map((l) => [l.txId, l.amount, l.currency, l.direction, l.kind])]
    .map((cells) => [cells].flat().join(','))
    .join('\n');

async function reconcile(args: string[]): Promise<{ exit: number; stdout: string[]; stderr: string[] }> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const parsed = parseCommandLine([RECONCILE_COMMAND], ['reconcile', ...args]);
  const out = { result: (line: string) => stdout.push(line), progress: (line: string) => stderr.push(line) };
  const exit = await parsed.spec.standalone(parsed.values, out, {});
  return { exit, stdout, stderr };
}

const file = (name: string) => join(dir, name);
const standard = (exportFile: string, statement = 'statement.json') => [
  '--statement',
  file(statement),
  '--public-key',
  file('keys.json'),
  '--wallet-export',
  file(exportFile),
];

describe('bookmaker reconcile', () => {
  it('passes on a matching export: exit 0, the signature verified, no difference', async () => {
    writeFileSync(file('journal.csv'), csvOf(journal));
    const result = await reconcile(standard('journal.csv'));
    assert.equal(result.exit, 0, [...result.stdout, ...result.stderr].join('\n'));
    assert.match(result.stderr[0]!, /the signature of .*statement\.json verifies with key ed25519:/);
    // The stake the wallet applied but answered with a 503 is in its journal only, reversed by the rollback.
    assert.ok(result.stderr.some((line) => /note: bet:\S+ .* is in the wallet export only/.test(line)));
    assert.match(result.stdout.at(-1)!, /: 7 movements; wallet export: 8; no difference$/);
  });

  it('passes with the CSV statement and a JSON export, the signature as raw bytes', async () => {
    writeFileSync(file('journal.json'), JSON.stringify({ movements: journal }));
    const signature = Buffer.from(readFileSync(file('statement.csv.sig'), 'utf8').trim(), 'base64');
    writeFileSync(file('statement.bin'), signature);
    const result = await reconcile([
      ...standard('journal.json', 'statement.csv'),
      '--signature',
      file('statement.bin'),
      '--json',
    ]);
    assert.equal(result.exit, 0, [...result.stdout, ...result.stderr].join('\n'));
    const summary = JSON.parse(result.stdout.at(-1)!);
    assert.deepEqual([summary.statement.movements, summary.walletExport.movements, summary.differences], [7, 8, 0]);
  });

  it('finds each kind of difference, lists every one, and exits 1', async () => {
    const statement = JSON.parse(readFileSync(file('statement.json'), 'utf8'));
    const byKind = (kind: string) => journal.find((line) => line.kind === kind)!;
    const payouts = journal.filter((line) => line.kind === 'payout');
    const changed = journal
      .filter((line) => line !== byKind('refund'))
      .map((line) => {
        if (line === payouts[0]) return { ...line, amount: line.amount + 1 };
        if (line === payouts[1]) return { ...line, currency: 'USD' };
        if (line === byKind('rollback')) return { ...line, direction: 'debit' };
        return line;
      });
    const stake = changed.find(
      (line) => line.kind === 'bet' && statement.movements.some((m: any) => m.txId === line.txId),
    )!;
    changed.push(
      { ...stake },
      { txId: 'payout:bt_only_in_wallet:1', amount: 5_00, currency: 'BRL', direction: 'credit', kind: 'payout' },
    );
    const wrongKind = changed.findIndex(
      (line) => line.kind === 'bet' && line !== stake && statement.movements.some((m: any) => m.txId === line.txId),
    );
    changed[wrongKind] = { ...changed[wrongKind]!, kind: 'adjustment' };
    writeFileSync(file('journal.csv'), csvOf(changed));
    const result = await reconcile([...standard('journal.csv'), '--json']);
    assert.equal(result.exit, 1);
    const differences = result.stdout.slice(0, -1).map((line) => JSON.parse(line));
    assert.deepEqual(
      differences.map((d) => [d.difference, d.txId]).sort(),
      [
        ['amount_mismatch', payouts[0]!.txId],
        ['currency_mismatch', payouts[1]!.txId],
        ['direction_mismatch', byKind('rollback').txId],
        ['duplicate_in_wallet', stake.txId],
        ['kind_mismatch', changed[wrongKind].txId],
        ['missing_in_statement', 'payout:bt_only_in_wallet:1'],
        ['missing_in_wallet', byKind('refund').txId],
      ].sort(),
    );
    const amount = differences.find((d) => d.difference === 'amount_mismatch');
    assert.deepEqual([amount.statement.amount, amount.wallet.amount], [payouts[0]!.amount, payouts[0]!.amount + 1]);
    assert.equal(JSON.parse(result.stdout.at(-1)!).differences, 7);
    assert.match(result.stderr.at(-1)!, /^bookmaker reconcile: differences_found: /);
    // The same, said in words without --json.
    const words = await reconcile(standard('journal.csv'));
    assert.equal(words.exit, 1);
    assert.ok(words.stdout.some((line) => line.startsWith(`missing in the wallet export: ${byKind('refund').txId}`)));
    assert.ok(words.stdout.some((line) => line.startsWith('missing in the statement: payout:bt_only_in_wallet:1')));
    assert.match(words.stdout.at(-1)!, /7 differences$/);
  });

  it('verifies the signature first: a changed byte, another key or no signature stops it before any comparison', async () => {
    writeFileSync(file('journal.csv'), csvOf(journal.slice(1)));
    const original = readFileSync(file('statement.json'), 'utf8');
    writeFileSync(
      file('changed.json'),
      original.replace(/"amount": (\d+)/, (_m, n: string) => `"amount": ${Number(n) + 1}`),
    );
    writeFileSync(file('changed.json.sig'), readFileSync(file('statement.json.sig')));
    const changed = await reconcile(standard('journal.csv', 'changed.json'));
    assert.equal(changed.exit, 1);
    assert.deepEqual(changed.stdout, [], 'nothing compared');
    assert.match(changed.stderr.at(-1)!, /signature_invalid/);

    const otherKey = new StatementSigner([Buffer.alloc(32, 9)]).published()[0]!.publicKey;
    writeFileSync(file('other.pem'), otherKey);
    const wrongKey = await reconcile([...standard('journal.csv'), '--public-key', file('other.pem')]);
    assert.deepEqual([wrongKey.exit, wrongKey.stdout], [1, []]);
    assert.match(wrongKey.stderr.at(-1)!, /signature_invalid/);

    writeFileSync(file('unsigned.json'), original);
    const unsigned = await reconcile(standard('journal.csv', 'unsigned.json'));
    assert.deepEqual([unsigned.exit, unsigned.stdout], [1, []]);
    assert.match(unsigned.stderr.at(-1)!, /unreadable_input: cannot read --signature .*unsigned\.json\.sig \(ENOENT\)/);
  });

  it('says which line of an export it cannot read', async () => {
    for (const [text, problem] of [
      ['txId,amount,currency\nbet:x,100,BRL', /header has no direction column/],
      ['txId,amount,currency,direction\nbet:x,1.5,BRL,debit', /line 2 of the wallet export: amount must be/],
      ['txId,amount,currency,direction\nbet:x,-100,BRL,debit', /line 2 of the wallet export: amount must be/],
      ['txId,amount,currency,direction\nbet:x,100,BRL,sideways', /line 2 of the wallet export: direction must be/],
      ['txId,amount,currency,direction\n"bet:x,100,BRL,debit', /unclosed quote/],
      ['[{"txId":"bet:x","amount":100,"currency":"BRL"}]', /movement 1 of the wallet export: direction must be/],
      ['{"movements":', /not valid JSON/],
    ] as const) {
      writeFileSync(file('bad.csv'), text);
      const result = await reconcile(standard('bad.csv'));
      assert.equal(result.exit, 1, text);
      assert.match(result.stderr.at(-1)!, problem, text);
    }
  });

  it('needs the statement, the wallet export and the public key (a usage error: exit 2)', async () => {
    assert.throws(
      () => parseCommandLine([RECONCILE_COMMAND], ['reconcile', '--statement', file('statement.json')]),
      (error: unknown) => error instanceof UsageError && /missing --wallet-export, --public-key/.test(error.message),
    );
  });
});
