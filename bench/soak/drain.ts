// The drain: waiting until every movement owed has been delivered or decided, while the operator decides the held
// ones and the casino asks again for those due late.
import { setTimeout as sleep } from 'node:timers/promises';
import { http } from '../soak-support.ts';
import { access, admin, casino, obligations } from './access.ts';
import { deadline, discrepancies, figures, progress, retries } from './run-state.ts';
import { service, wallet } from './service.ts';

export async function queueDepth(): Promise<{ unsettled: number; held: number } | undefined> {
  const { url } = await service.ready();
  const answer = await http(url, 'GET', `/api/v1/admin/obligations/counts?tenantId=${access.tenantId}`, {
    token: access.staffToken,
    timeoutMs: 5_000,
  });
  if (answer.status !== 200) return undefined;
  const states = answer.body.states;
  return { unsettled: states.sending + states.pending + states.held, held: states.held };
}

/**
 * What an operator does with a held movement: asks the casino (the wallet's journal) whether a superseded one was
 * applied, and resolves or cancels it accordingly; sends a refused one again; cancels a correction the player could
 * not pay (and says so: it should never happen here).
 */
async function decideHeld(): Promise<void> {
  const held = (await obligations('held')).filter((row) => !row.inFlight);
  if (held.length === 0) return;
  // Nothing may be on its way to the wallet while its journal is read: a delayed request could still apply.
  if ((await wallet.control('GET', '/stats')).inFlight > 0) return;
  const journal = new Map<string, number>(
    (await wallet.control('GET', '/transactions')).transactions.map((tx: any) => [tx.tx_id, tx.status]),
  );
  if ((await wallet.control('GET', '/stats')).inFlight > 0) return;
  for (const row of held) {
    const decide = async (action: 'resolve' | 'cancel' | 'retry', reason?: string) => {
      const answer = await admin('POST', `/api/v1/admin/obligations/${row.id}/${action}`, reason ? { reason } : {});
      const code = answer.body?.error?.code;
      if (answer.status === 200) {
        figures.operator[action === 'retry' ? 'retried' : action === 'resolve' ? 'resolved' : 'cancelled'] += 1;
      } else if (code === 'sent_again_too_soon') {
        // Sent again moments ago (by a decision during a resettlement): not one of its tries; asked again later.
        retries.set(row.txId, (retries.get(row.txId) ?? 1) - 1);
      } else if (code !== 'obligation_not_held' && code !== 'obligation_in_flight') {
        discrepancies.push({ check: 'operator', detail: `${action} ${row.txId}: ${answer.status} ${answer.text}` });
      }
    };
    switch (row.holdReason) {
      case 'obsolete_credit_requires_review':
      case 'obsolete_debit_requires_review':
        if (!row.requestSent) await decide('cancel');
        else if (journal.get(row.txId) === 200) await decide('resolve', "the casino's journal shows it applied");
        else await decide('cancel', "the casino's journal has no applied movement of this txId");
        break;
      case 'refused': {
        const count = (retries.get(row.txId) ?? 0) + 1;
        retries.set(row.txId, count);
        if (count <= 3) await decide('retry', 'sent again by the soak operator');
        else {
          discrepancies.push({ check: 'refused', detail: `${row.txId} refused again and again (${row.operatorCode})` });
          await decide('cancel', 'refused again and again');
        }
        break;
      }
      case 'correction_insufficient_funds':
        discrepancies.push({
          check: 'insufficient_funds',
          detail: `${row.txId}: a correction the player could not pay`,
        });
        await decide('cancel', 'the player could not pay the correction');
        break;
      default:
      // destination_changed or refused_address: nothing the soak causes; left held, and reported as not drained.
    }
  }
}

/** Movements whose next attempt is far off (30 s after the fifth): the casino asks for them now. */
async function redeliverLate(): Promise<void> {
  for (const row of await obligations('pending')) {
    if (row.inFlight || !row.nextAttemptAt || Date.parse(row.nextAttemptAt) < Date.now() + 2_000) continue;
    const answer = await casino('POST', `/api/v1/integration/obligations/${row.id}/redeliver`, {});
    if (answer.status === 202) figures.redeliveries += 1;
  }
}

export async function drain(): Promise<boolean> {
  for (let pass = 0; performance.now() < deadline; pass += 1) {
    const depth = await queueDepth().catch(() => undefined);
    const walletBusy = (await wallet.control('GET', '/stats')).inFlight > 0;
    if (depth && depth.unsettled === 0 && !walletBusy && !service.down && progress.killsPending === 0) return true;
    if (depth && depth.held > 0) await decideHeld();
    if (depth && depth.unsettled > depth.held && pass % 4 === 3) await redeliverLate();
    await sleep(500);
  }
  return false;
}
