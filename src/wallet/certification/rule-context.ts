/**
 * A rule's context: the calls it makes through the run's wire, each recorded, with the helpers rules use (txIds of
 * the run, balance reads, movements, replays, hand-written bodies); a movement whose outcome stayed unknown is kept
 * to be resolved after the rule (clean-up.ts).
 */
import { movementBody, type Movement, type WalletEndpoint } from '../ledger/movement.ts';
import type { RuleContext } from './rules.ts';
import type { Tamper, Wire, WireCall } from './wire.ts';

/** What the rules of one run share. */
export interface CertificationRun {
  wire: Wire;
  runId: string;
  currency: string;
  /** Where each player's balance was found: its first balance read of the run, before anything moved it. */
  baseline: Map<string, number>;
}

/** A movement whose outcome stayed unknown, resolved after its rule. */
export interface Pending {
  endpoint: WalletEndpoint;
  body: string;
  movement: Movement;
}

/** A rule's context as the runner holds it: its player's balance before the rule, and the recording of a call. */
export type RunContext = RuleContext & {
  before: number;
  balanceReadable: boolean;
  record: (call: WireCall, movement?: Movement) => WireCall;
};

/** The calls of one rule, with the helpers its context offers. */
export function ruleContext(
  { wire, runId, currency, baseline }: CertificationRun,
  ruleId: string,
  playerId: string,
  calls: WireCall[],
  pending: Map<string, Pending>,
): RunContext {
  let balanceReads = 0;
  const tx = (name: string) => `cert:${runId}:${ruleId}:${name}`;
  const record = (call: WireCall, movement?: Movement) => {
    calls.push(call);
    if (call.outcome.outcome === 'applied' && call.endpoint === 'balance' && movement) {
      if (!baseline.has(movement.playerId)) baseline.set(movement.playerId, call.outcome.balance);
    }
    // Money may have moved without our knowing: resolved after the rule, as the service would.
    if (call.outcome.outcome === 'unknown' && movement && movement.amount > 0 && call.endpoint !== 'balance') {
      pending.set(movement.txId, { endpoint: call.endpoint, body: call.request.body, movement });
    }
    return call;
  };
  const send = async (step: string, endpoint: WalletEndpoint, movement: Movement, tamper?: Tamper) => {
    const body = movementBody(movement);
    return record(await wire.send(step, endpoint, body, { txId: movement.txId, currency }, tamper), movement);
  };
  const ctx: RunContext = {
    player: playerId,
    before: 0,
    balanceReadable: true,
    currency,
    tx,
    record,
    balance: (step, player = playerId) =>
      send(step, 'balance', {
        txId: tx(`balance-${(balanceReads += 1)}`),
        playerId: player,
        amount: 0,
        currency,
        kind: 'balance',
      }),
    move: (step, endpoint, movement, tamper) =>
      send(step, endpoint, { ...movement, playerId: movement.playerId ?? playerId, currency }, tamper),
    replay: async (step, call) => {
      const movement = JSON.parse(call.request.body) as Movement;
      return record(
        await wire.send(step, call.endpoint, call.request.body, { txId: movement.txId, currency }),
        movement,
      );
    },
    sendText: async (step, endpoint, body, txId, tamper) =>
      record(await wire.send(step, endpoint, body, { txId, currency }, tamper)),
    concurrently: (work) => Promise.all(work.map((run) => run())),
  };
  return ctx;
}
