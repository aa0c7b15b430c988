// The signed daily statements, read the next morning as the casino would, and the casino's own reconciliation of a
// statement against the wallet's journal.
import { createPublicKey, verify } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../src/platform/config.ts';
import { startServer } from '../../src/server.ts';
import { runCli } from '../../test/helpers/process.ts';
import type { StatementEvidence, WalletRow } from '../soak-check.ts';
import { http } from '../soak-support.ts';
import { access, CURRENCY } from './access.ts';
import { discrepancies, figures } from './run-state.ts';

export function dayOf(iso: string | number): string {
  return new Date(iso).toISOString().slice(0, 10);
}

/**
 * The signed statements of every UTC day of the run. A day's statement is served only once that day is over, so
 * after the service has stopped they are read from the same database by the service started once more in this
 * process, its clock set to just after the run's last day: as the casino would download them the next morning.
 */
export async function readStatements(
  env: Record<string, string>,
  days: string[],
  publicKeys: Array<{ keyId: string; publicKey: string; current: boolean }>,
  directory: string,
): Promise<StatementEvidence[]> {
  const lastDay = days.at(-1)!;
  const after = new Date(Date.parse(`${lastDay}T00:00:00.000Z`) + 86_400_000 + 6 * 60_000);
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const reader = await startServer(loadConfig({ ...env, PORT: '0', LOG_LEVEL: 'error' }), {
    clock: { now: () => new Date(after) },
    logStream: silent,
  });
  try {
    const statements: StatementEvidence[] = [];
    for (const day of days) {
      const answer = await http(reader.url, 'GET', `/api/v1/integration/statements/${day}`, {
        headers: { 'x-tenant-id': access.tenantId, 'x-api-key': access.integrationKey },
      });
      if (answer.status !== 200) throw new Error(`statement ${day}: ${answer.status} ${answer.text}`);
      const signature = answer.headers.get('x-statement-signature') ?? '';
      const keyId = answer.headers.get('x-statement-key-id');
      const key = publicKeys.find((published) => published.keyId === keyId);
      const signatureValid =
        !!key &&
        verify(null, Buffer.from(answer.text), createPublicKey(key.publicKey), Buffer.from(signature, 'base64'));
      writeFileSync(join(directory, `statement-${day}.json`), answer.text);
      writeFileSync(join(directory, `statement-${day}.json.sig`), signature);
      statements.push({ day, signatureValid, document: JSON.parse(answer.text) });
    }
    return statements;
  } finally {
    await reader.stop();
  }
}

/** `bookmaker reconcile`, the casino's own tool, on the statement and the wallet's journal (a one-day run). */
export async function partnerReconcile(
  env: Record<string, string>,
  day: string,
  journal: WalletRow[],
  keys: unknown,
  directory: string,
): Promise<void> {
  const lines = ['txId,amount,currency,direction,kind'];
  for (const row of journal.filter((tx) => tx.status === 200)) {
    lines.push([row.txId, row.amount, CURRENCY, row.endpoint, row.kind].join(','));
  }
  writeFileSync(join(directory, `journal-${day}.csv`), `${lines.join('\n')}\n`);
  writeFileSync(join(directory, 'statement-keys.json'), JSON.stringify(keys));
  const run = await runCli(env, [
    'reconcile',
    '--statement',
    join(directory, `statement-${day}.json`),
    '--public-key',
    join(directory, 'statement-keys.json'),
    '--wallet-export',
    join(directory, `journal-${day}.csv`),
    '--json',
  ]);
  const records = run.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const summary = records.find((record) => 'walletExport' in record) as { reversed?: unknown[] } | undefined;
  const differences = records.filter((record) => !('walletExport' in record));
  figures.reconcile =
    run.code === 0
      ? `no differences (${summary?.reversed?.length ?? 0} stakes reversed by their rollback, noted)`
      : `exit ${run.code}: ${differences.length} differences`;
  if (run.code !== 0) {
    discrepancies.push({
      check: 'partner_reconcile',
      detail: `bookmaker reconcile (${day}) exited ${run.code}: ${run.stdout.slice(0, 2_000)} ${run.stderr.slice(0, 500)}`,
    });
  }
}
