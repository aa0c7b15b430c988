// The checks once the queue has drained: the ledger, the wallet's journal, balances and requests and the signed
// statements are read, and every check of bench/soak-check.ts is run on them.
import { findDiscrepancies, movementsByKind, statesOf, type LedgerRow, type WalletRow } from '../soak-check.ts';
import { OPENING, expect, obligations, players } from './access.ts';
import { accepted } from './betting.ts';
import type { Round } from './rounds.ts';
import { discrepancies, figures } from './run-state.ts';
import { call, service, wallet } from './service.ts';
import { dayOf, partnerReconcile, readStatements } from './statements.ts';

function toLedgerRow(row: any): LedgerRow {
  const last = row.history.at(-1);
  return {
    txId: row.txId,
    betId: row.betId,
    player: row.externalPlayerId,
    endpoint: row.endpoint,
    kind: row.kind,
    amount: row.amount,
    status: row.status,
    holdReason: row.holdReason,
    lastOutcome: row.lastOutcome,
    operatorCode: row.operatorCode,
    resolvedAt: row.resolvedAt,
    decidedBecause: row.review?.reason ?? (last ? [last.cause, last.note].filter(Boolean).join(': ') : null),
  };
}

/** Reads what the run left and adds every difference found to the discrepancies; `directory` keeps the files read. */
export async function readAndCheck(rounds: Round[], env: Record<string, string>, directory: string): Promise<void> {
  const ledger = (await obligations()).map(toLedgerRow);
  const journal: WalletRow[] = (await wallet.control('GET', '/transactions')).transactions.map((tx: any) => ({
    txId: tx.tx_id,
    endpoint: tx.endpoint,
    player: tx.player_id,
    amount: Number(tx.amount),
    kind: tx.kind,
    status: Number(tx.status),
    reversed: tx.reversed === true,
  }));
  const balances: Record<string, number> = {};
  for (const player of players) balances[player] = Number((await wallet.control('GET', `/players/${player}`)).balance);
  const requests: Array<{ txId: string | null }> = (await wallet.control('GET', '/requests')).requests;
  const sends = new Map<string, number>();
  for (const request of requests) if (request.txId) sends.set(request.txId, (sends.get(request.txId) ?? 0) + 1);
  figures.wallet = { requests: requests.length, resent: [...sends.values()].filter((count) => count > 1).length };
  const keys = expect(await call('GET', '/api/v1/integration/statement-keys'), 200, 'statement keys');
  await service.stop();

  const days = new Set([dayOf(Date.now())]);
  for (const row of ledger) if (row.resolvedAt) days.add(dayOf(row.resolvedAt));
  const sortedDays = [...days].sort();
  const statements = await readStatements(env, sortedDays, keys.keys, directory);
  figures.statements = {
    days: sortedDays,
    movements: statements.reduce((sum, statement) => sum + statement.document.movements.length, 0),
  };
  if (sortedDays.length === 1) await partnerReconcile(env, sortedDays[0]!, journal, keys, directory);
  else figures.reconcile = `not run: the run spans ${sortedDays.length} UTC days and the wallet's journal has no dates`;

  discrepancies.push(
    ...findDiscrepancies({
      openingBalance: OPENING,
      balances,
      ledger,
      wallet: journal,
      bets: accepted,
      results: Object.fromEntries(
        rounds
          .flatMap((round) => round.markets)
          .flatMap((market) => (market.results ? [[market.id, market.results]] : [])),
      ),
      statements,
    }),
  );
  figures.movements = movementsByKind(ledger);
  figures.obligations = statesOf(ledger);
}
