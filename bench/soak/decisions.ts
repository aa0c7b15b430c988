// The operator's and the casino's decisions sent at the same moment as a resettlement, on the held and owed
// movements of the market's bets, and how their answers are counted.
import { isObsolete } from '../../src/wallet/states.ts';
import type { HttpAnswer } from '../soak-support.ts';
import { casino, everyPage, operator } from './access.ts';
import { accepted } from './betting.ts';
import type { Decision, Mode } from './figures.ts';
import type { Market } from './rounds.ts';
import { choices, discrepancies, figures, retries } from './run-state.ts';
import { wallet } from './service.ts';

/** At each resettlement, the most held movements the operator decides, and the most the casino asks again for. */
const OPERATOR_AT_ONCE = 12;
const CASINO_AT_ONCE = 8;

/**
 * The answers a decision may get besides success when the resettlement (or the other side's decision, or the engine)
 * changed its movement first, with their HTTP status: the service refuses what no longer applies, it never decides
 * on what it did not read under the bet's lock (docs/ledger.md, the lock order).
 */
const RACE_REFUSALS: Record<Decision, Record<string, number>> = {
  retry: { obligation_not_held: 409, obligation_in_flight: 409, retry_not_allowed: 409, sent_again_too_soon: 429 },
  resolve: { obligation_not_held: 409, obligation_in_flight: 409 },
  cancel: { obligation_not_held: 409, obligation_in_flight: 409 },
  redeliver: { redelivery_not_allowed: 409, obligation_in_flight: 409, sent_again_too_soon: 429 },
};

interface Intent {
  decision: Decision;
  txId: string;
  send: () => Promise<HttpAnswer>;
}

/**
 * A resettlement sent at the same moment as what the operator and the casino decide, from their screens, on the held
 * and owed movements of the market's bets. They race on purpose: whichever takes the bet's lock first decides, and
 * the other must find the movement as that decision left it. Every answer is counted; one that is neither success
 * nor a refusal the race explains is a discrepancy.
 */
export async function resettleAmidDecisions(market: Market, resettle: () => Promise<HttpAnswer>): Promise<HttpAnswer> {
  const bets = new Set(
    accepted.filter((bet) => bet.legs.some((leg) => leg.marketId === market.id)).map((bet) => bet.betId),
  );
  const intents = [...(await operatorIntents(bets)), ...(await casinoIntents(bets))];
  if (intents.length > 0) figures.duringResettlements.resettlements += 1;
  const [answer] = await Promise.all([resettle(), ...intents.map((intent) => decideAmid(market, intent))]);
  return answer;
}

/**
 * What the operator decides on the bets' held movements, as in the drain: a superseded one resolved when the casino's
 * journal shows it applied and cancelled when it does not (never while an attempt is on its way, nor while a request
 * of it may still apply in the wallet), a refused one sent again (three times at most; the drain reports the rest).
 */
async function operatorIntents(bets: Set<string>): Promise<Intent[]> {
  const held = (
    await everyPage((query) => operator('GET', `/api/v1/admin/obligations?state=held&${query}`), 'held')
  ).filter((row) => bets.has(row.betId) && !row.inFlight);
  const chosen = choices.decisions.shuffle(held).slice(0, OPERATOR_AT_ONCE);
  const journal = chosen.some((row) => isObsolete(row.holdReason) && row.requestSent) ? await journalNow() : undefined;
  const intents: Intent[] = [];
  for (const row of chosen) {
    const decide = (decision: 'retry' | 'resolve' | 'cancel', reason?: string) =>
      intents.push({
        decision,
        txId: row.txId,
        send: () => operator('POST', `/api/v1/admin/obligations/${row.id}/${decision}`, reason ? { reason } : {}),
      });
    if (isObsolete(row.holdReason)) {
      if (!row.requestSent) decide('cancel');
      else if (journal!.applied.has(row.txId)) decide('resolve', "the casino's journal shows it applied");
      else if (!journal!.mayStillApply.has(row.txId))
        decide('cancel', "the casino's journal has no applied movement of this txId");
    } else if (row.holdReason === 'refused' && (retries.get(row.txId) ?? 0) < 3) {
      decide('retry', 'sent again by the soak operator during a resettlement');
    }
  }
  return intents;
}

/**
 * What the casino asks again for, from its own view (integration API): the bets' movements it may redeliver now,
 * failed ones first, then some still owed (most are due already: `already_due` changes nothing).
 */
async function casinoIntents(bets: Set<string>): Promise<Intent[]> {
  const listed = async (state: 'failed' | 'pending') =>
    (
      await everyPage((query) => casino('GET', `/api/v1/integration/obligations?state=${state}&${query}`), state)
    ).filter((row) => bets.has(row.betId) && row.redeliverable);
  const failed = await listed('failed');
  const pending = choices.decisions.shuffle(await listed('pending'));
  return [...failed, ...pending].slice(0, CASINO_AT_ONCE).map((row) => ({
    decision: 'redeliver',
    txId: row.txId,
    send: () => casino('POST', `/api/v1/integration/obligations/${row.id}/redeliver`, {}),
  }));
}

/**
 * What the casino's journal (the wallet's) says now: the txIds it applied, and those a request may still apply. A
 * `delay` fault that applies holds its request in the wallet for up to 6.4 s, past the service's 5 s timeout and past
 * a SIGKILL: once the engine has given up on the attempt, nothing in the ledger says it is still on its way, and a
 * cancel would be wrong if it then applied. The journal is read before the faults that hit, so that a request delayed
 * in between is seen.
 */
async function journalNow(): Promise<{ applied: Set<string>; mayStillApply: Set<string> }> {
  const journal: Array<{ tx_id: string; status: number | string }> = (await wallet.control('GET', '/transactions'))
    .transactions;
  const { hits } = (await wallet.control('GET', '/faults')) as {
    hits: Array<{ mode: Mode; apply: boolean; txId: string }>;
  };
  const answered = new Set(journal.map((tx) => tx.tx_id));
  return {
    applied: new Set(journal.filter((tx) => Number(tx.status) === 200).map((tx) => tx.tx_id)),
    mayStillApply: new Set(
      hits.filter((hit) => hit.mode === 'delay' && hit.apply && !answered.has(hit.txId)).map((hit) => hit.txId),
    ),
  };
}

/** Sends one decision and counts its answer. */
async function decideAmid(market: Market, intent: Intent): Promise<void> {
  const tally = figures.duringResettlements;
  const mine = tally.byAction[intent.decision];
  tally.sent += 1;
  mine.sent += 1;
  const answer = await intent.send();
  const code: string | undefined = answer.body?.error?.code;
  if (answer.status === (intent.decision === 'redeliver' ? 202 : 200)) {
    tally.done += 1;
    mine.done += 1;
    if (intent.decision === 'retry') retries.set(intent.txId, (retries.get(intent.txId) ?? 0) + 1);
  } else if (code !== undefined && RACE_REFUSALS[intent.decision][code] === answer.status) {
    // Per decision, with what the movement had become (details.reason or details.status): who changed it first.
    const details = answer.body.error.details ?? {};
    const why = details.reason ?? details.status;
    const key = typeof why === 'string' ? `${code}: ${why}` : code;
    tally.refused[code] = (tally.refused[code] ?? 0) + 1;
    mine.refused[key] = (mine.refused[key] ?? 0) + 1;
  } else {
    tally.unexpected += 1;
    discrepancies.push({
      check: 'decision_during_resettlement',
      detail: `${intent.decision} ${intent.txId} during the resettlement of ${market.id}: ${answer.status} ${answer.text.slice(0, 500)}`,
    });
  }
}
