/**
 * `bookmaker reconcile`: the casino's check of a daily statement against its wallet's own journal. It needs no
 * database and no configuration: only files. It verifies the statement's signature first (nothing is compared when
 * it does not verify), then lists every difference; the exit code is 0 when there is none, 1 otherwise.
 */
import { readFileSync } from 'node:fs';
import type { KeyObject } from 'node:crypto';
import { reconciliationErrors } from '../wallet/errors.ts';
import {
  compare,
  readStatement,
  readWalletExport,
  type Booked,
  type Difference,
} from '../wallet/partner/statement-check.ts';
import { statementKeyId, statementPublicKey, verifyStatement } from '../wallet/partner/statement-signing.ts';
import { exitCodeOf, type Output, type StandaloneCommandSpec } from '../commands/definitions.ts';

type Values = Record<string, string | boolean | undefined>;

export const RECONCILE_COMMAND: StandaloneCommandSpec = {
  words: ['reconcile'],
  synopsis: '--statement FILE --wallet-export FILE --public-key FILE [--signature FILE] [--json]',
  summary: "compare a signed daily statement with your wallet's own journal",
  details: [
    '--statement: the statement as served (GET /api/v1/integration/statements/{day}, JSON or CSV), byte for byte.',
    '--signature: its X-Statement-Signature header, base64 (or the 64 raw bytes); default: the statement file + .sig',
    '--public-key: the platform key (PEM), or the saved answer of GET /api/v1/integration/statement-keys.',
    '--wallet-export: your journal of the same UTC day: CSV with a header naming txId, amount, currency, direction',
    '  (debit or credit; kind optional), or JSON [{ "txId", "amount", "currency", "direction", "kind"? }].',
    '',
    'The signature is verified first; then every difference is printed, one a line: missing on either side, amount,',
    'currency, direction or kind that differ, a txId twice. --json prints one JSON object a line instead, then a',
    'summary. Exit code: 0 when they match, 1 when they differ or the signature does not verify, 2 for a usage error.',
    'See docs/reconciliation.md.',
    '',
    'Example:',
    '  npx bookmaker reconcile --statement statement-2026-03-01.json --public-key statement-keys.json \\',
    '    --wallet-export journal-2026-03-01.csv',
  ].join('\n'),
  options: {
    statement: { type: 'string' },
    'wallet-export': { type: 'string' },
    'public-key': { type: 'string' },
    signature: { type: 'string' },
    json: { type: 'boolean' },
  },
  required: ['statement', 'wallet-export', 'public-key'],
  standalone: (values, out) => exitCodeOf(RECONCILE_COMMAND, () => reconcile(values, out), { out }),
};

/** The command's work on its flags; throws a catalogued error (exit 1) when the signature or the comparison fails. */
async function reconcile(values: Values, out: Output): Promise<void> {
  const statementFile = values.statement as string;
  const statementBytes = readInput(statementFile, '--statement');
  const signature = signatureOf(values.signature === undefined ? `${statementFile}.sig` : (values.signature as string));
  const statement = readStatement(statementBytes.toString('utf8'));
  const keys = publicKeys(readInput(values['public-key'] as string, '--public-key').toString('utf8'), statement.keyId);
  const verifiedBy = keys.find((key) => verifyStatement(statementBytes, signature, key));
  if (!verifiedBy) throw reconciliationErrors.signature_invalid({ statement: statementFile });
  const keyId = statementKeyId(verifiedBy);
  out.progress(`bookmaker reconcile: the signature of ${statementFile} verifies with key ${keyId}`);
  if (statement.preview) {
    out.progress(
      `bookmaker reconcile: note: this is a sandbox preview of ${statement.day}, cut at ${statement.preview.to}: ` +
        'your wallet export should stop there too, or what came after will show as differences',
    );
  }

  const wallet = readWalletExport(readInput(values['wallet-export'] as string, '--wallet-export').toString('utf8'));
  const { differences, reversed } = compare(statement.movements, wallet);
  const json = values.json === true;
  for (const { txId, wallet: booked, rollback } of reversed) {
    out.progress(
      `bookmaker reconcile: note: ${txId} (${booked.direction} ${booked.amount} ${booked.currency}) is in the wallet ` +
        `export only: its outcome was unknown to us, and ${rollback} in the statement reverses it; not a difference`,
    );
  }
  for (const difference of differences) out.result(json ? JSON.stringify(difference) : describe(difference));
  const summary = {
    statement: { tenantId: statement.tenantId, day: statement.day, movements: statement.movements.length, keyId },
    walletExport: { movements: wallet.length },
    reversed: reversed.map(({ txId, rollback }) => ({ txId, rollback })),
    differences: differences.length,
  };
  if (json) out.result(JSON.stringify(summary));
  else {
    out.result(
      `statement ${statement.tenantId} ${statement.day}: ${statement.movements.length} movements; wallet export: ` +
        `${wallet.length}; ${differences.length === 0 ? 'no difference' : `${differences.length} differences`}`,
    );
  }
  if (differences.length > 0) throw reconciliationErrors.differences_found({ count: differences.length });
}

function readInput(path: string, flag: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw reconciliationErrors.unreadable_input({ flag, path }, `cannot read ${flag} ${path} (${code})`);
  }
}

/** The signature: 64 raw bytes (as `base64 -d` writes them), or their base64 text (the header's value). */
function signatureOf(path: string): Buffer {
  const bytes = readInput(path, '--signature');
  if (bytes.length === 64) return bytes;
  const text = bytes.toString('utf8').trim();
  const decoded = /^[A-Za-z0-9+/]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (decoded.length !== 64) {
    throw reconciliationErrors.unreadable_input(
      { flag: '--signature', path },
      `--signature ${path} is neither an Ed25519 signature in base64 (the X-Statement-Signature header) nor its 64 bytes`,
    );
  }
  return decoded;
}

/**
 * The public keys to verify with: one PEM key, or the keys endpoint's answer (the statement's own key when it names
 * one that is there, else every key listed: each is the platform's).
 */
function publicKeys(text: string, keyId: string | null): KeyObject[] {
  try {
    if (!text.trimStart().startsWith('{')) return [statementPublicKey(text)];
    const listed = (JSON.parse(text) as { keys?: Array<{ keyId?: unknown; publicKey?: unknown }> }).keys ?? [];
    const keys = listed.filter((key): key is { keyId: string; publicKey: string } => typeof key.publicKey === 'string');
    const named = keys.filter((key) => key.keyId === keyId);
    return (named.length > 0 ? named : keys).map((key) => statementPublicKey(key.publicKey));
  } catch (error) {
    throw reconciliationErrors.unreadable_input(
      { flag: '--public-key' },
      `--public-key holds no Ed25519 public key in PEM, nor the statement-keys answer (${(error as Error).message})`,
    );
  }
}

function describe(difference: Difference): string {
  const side = (booked: Booked | null) =>
    booked ? `${booked.direction} ${booked.amount} ${booked.currency}${booked.kind ? ` (${booked.kind})` : ''}` : '';
  const { txId, statement, wallet } = difference;
  switch (difference.difference) {
    case 'missing_in_wallet':
      return `missing in the wallet export: ${txId}: ${side(statement)}`;
    case 'missing_in_statement':
      return `missing in the statement: ${txId}: ${side(wallet)}`;
    case 'duplicate_in_statement':
      return `${txId} is ${difference.count} times in the statement`;
    case 'duplicate_in_wallet':
      return `${txId} is ${difference.count} times in the wallet export`;
    default:
      return `${difference.difference.replace('_mismatch', '')} differs: ${txId}: statement ${side(statement)}, wallet ${side(wallet)}`;
  }
}
