/**
 * What follows a rule: a movement whose outcome stayed unknown is resolved the way the service resolves it (a stake
 * is rolled back, anything else is sent again with the same txId and body), and whatever the rule left moved is put
 * back with an adjustment, so the next rule starts clean.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { movementBody, type Movement, type WalletEndpoint } from '../ledger/movement.ts';
import type { CertificationRun, Pending, RunContext } from './rule-context.ts';
import { describeOutcome } from './rules.ts';
import type { WireCall } from './wire.ts';

/** What the contract does with an unknown outcome: three attempts, 200 ms then 400 ms apart ("Limits"). */
const RESEND_WAITS_MS = [200, 400];

/**
 * Sends one body until the wallet answers for sure, as the delivery engine would (a short burst): the same
 * bytes each time, with a fresh timestamp and signature.
 */
async function untilDefinitive(
  { wire, currency }: CertificationRun,
  ctx: RunContext,
  step: string,
  endpoint: WalletEndpoint,
  body: string,
  txId: string,
): Promise<WireCall> {
  let call = ctx.record(await wire.send(step, endpoint, body, { txId, currency }));
  for (const [index, wait] of RESEND_WAITS_MS.entries()) {
    if (call.outcome.outcome !== 'unknown') break;
    await sleep(wait);
    call = ctx.record(await wire.send(`${step} (attempt ${index + 2})`, endpoint, body, { txId, currency }));
  }
  return call;
}

/** The unknown outcomes of a rule, resolved: a stake rolled back, anything else sent again as it was. */
export async function resolveUnknownOutcomes(
  run: CertificationRun,
  ctx: RunContext,
  pending: Map<string, Pending>,
  notes: string[],
) {
  const { currency } = run;
  for (const { endpoint, body, movement } of pending.values()) {
    let call: WireCall;
    if (endpoint === 'debit' && movement.kind === 'bet') {
      const rollback: Movement = {
        txId: `${movement.txId}:rollback`,
        playerId: movement.playerId,
        amount: movement.amount,
        currency,
        kind: 'rollback',
        betId: movement.betId,
        ref: movement.txId,
      };
      const step = 'recovery: roll back the unconfirmed stake';
      call = await untilDefinitive(run, ctx, step, 'rollback', movementBody(rollback), rollback.txId);
    } else {
      const step = `recovery: ${endpoint} sent again with the same txId and body`;
      call = await untilDefinitive(run, ctx, step, endpoint, body, movement.txId);
    }
    notes.push(`${movement.txId} had an unknown outcome; ${call.step}: ${describeOutcome(call)}`);
  }
}

/** The rule's player as it found it: whatever is left moved is put back with an adjustment. */
export async function restoreBalance(
  run: CertificationRun,
  ctx: RunContext,
  before: number,
  notes: string[],
): Promise<string | null> {
  const { currency } = run;
  const read = await ctx.balance('balance after the rule');
  if (read.outcome.outcome !== 'applied') {
    notes.push(`the balance after the rule could not be read: ${describeOutcome(read)}`);
    return null;
  }
  const after = read.outcome.balance;
  if (after === before) return null;
  const difference = before - after;
  const adjustment: Movement = {
    txId: ctx.tx('compensation'),
    playerId: ctx.player,
    amount: Math.abs(difference),
    currency,
    kind: 'adjustment',
  };
  const endpoint = difference > 0 ? 'credit' : 'debit';
  const step = 'compensation: put the balance back';
  const fix = await untilDefinitive(run, ctx, step, endpoint, movementBody(adjustment), adjustment.txId);
  notes.push(`the rule left the balance at ${after} instead of ${before}; compensation: ${describeOutcome(fix)}`);
  return `the balance should be back at ${before} after the rule; it was ${after}`;
}
