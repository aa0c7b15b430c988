import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../platform/clock.ts';
import { VERSION } from '../../platform/version.ts';
import { movementBody, type Movement, type WalletEndpoint } from '../ledger/movement.ts';
import { TransportRefused, type Resolver } from '../delivery/transport.ts';
import type { CertificationReport, RuleResult, SandboxTarget } from './report.ts';
import { describeOutcome, RULES, RuleFailure, type Rule, type RuleContext } from './rules.ts';
import { Wire, type Tamper, type WireCall } from './wire.ts';

/**
 * Runs the certification rules one after the other against one wallet and builds the report. Each rule that moves
 * money has its player's balance read before and after it; a movement whose outcome stayed unknown is resolved the
 * way the service resolves it (a stake is rolled back, anything else is sent again with the same txId and body),
 * and whatever a failing rule left moved is put back with an adjustment, so the next rule starts clean and the
 * players end where they were found.
 */
export interface CertificationOptions {
  walletUrl: string;
  secret: string;
  currency: string;
  /** A funded test player. */
  player: string;
  /** A test player with no money, for the insufficient-funds rules (skipped without it). */
  emptyPlayer?: string | undefined;
  /** Per call; at most the contract's 5 s. */
  timeoutMs: number;
  target: SandboxTarget;
  clock: Clock;
  /** Tests resolve names their own way; the transport's rules are the service's. */
  resolver?: Resolver;
  /** Told of each rule as soon as it is decided. */
  onRule?: (result: RuleResult, position: number, total: number) => void;
}

/** The wallet URL cannot be called at all (scheme, port, address, name): nothing was sent. */
export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/** What the contract does with an unknown outcome: three attempts, 200 ms then 400 ms apart ("Limits"). */
const RESEND_WAITS_MS = [200, 400];

interface AnswerRule {
  id: string;
  title: string;
  contract: string;
  /** Why this call breaks the rule, or null. */
  offence(call: WireCall): boolean;
  what: string;
}

function answerRules(timeoutMs: number): AnswerRule[] {
  const unknown = (call: WireCall, reason: string) =>
    call.outcome.outcome === 'unknown' && call.outcome.reason === reason;
  const status = (call: WireCall) => call.outcome.status ?? 0;
  return [
    {
      id: 'answers.success-shape',
      title: 'Every 2xx answer is a JSON object with an integer balance and a currency',
      contract: 'Wallet movement (success body); Wallet movement delivery (a malformed or incomplete body is unknown)',
      offence: (call) => unknown(call, 'malformed_body') && status(call) < 300,
      what: '2xx answers were well formed',
    },
    {
      id: 'answers.txid-echo',
      title: "Every 2xx answer of /debit, /credit and /rollback echoes the request's txId",
      contract: 'Wallet movement (success body); Versioning (the txId echo is required)',
      offence: (call) => unknown(call, 'txid_mismatch'),
      what: 'movement answers echoed their txId',
    },
    {
      id: 'answers.currency',
      title: "Every 2xx answer is in the request's currency",
      contract: 'Wallet movement (success body); Wallet movement delivery (a mismatching currency is unknown)',
      offence: (call) => unknown(call, 'currency_mismatch'),
      what: 'answers were in the currency',
    },
    {
      id: 'answers.error-envelope',
      title: 'Every refusal (a 4xx but 408 and 429) carries { error: { code, message } }',
      contract: 'Wallet movement (error body); Wallet errors (a 4xx with an empty or malformed body counts as unknown)',
      offence: (call) => unknown(call, 'malformed_body') && status(call) >= 400,
      what: 'refusals carried the error envelope',
    },
    {
      id: 'answers.within-timeout',
      title: `Every call is answered within ${timeoutMs} ms`,
      contract: 'Limits (wallet timeout 5 s per attempt)',
      offence: (call) => unknown(call, 'timeout'),
      what: `calls were answered within ${timeoutMs} ms`,
    },
  ];
}

interface Pending {
  endpoint: WalletEndpoint;
  body: string;
  movement: Movement;
}

export async function certifyWallet(options: CertificationOptions): Promise<CertificationReport> {
  const { clock, currency } = options;
  const startedAt = clock.now();
  const runId = `${startedAt.toISOString().replace(/[-:]|\.\d+/g, '')}-${randomBytes(4).toString('hex')}`;
  const wire = new Wire(
    { walletUrl: options.walletUrl.replace(/\/+$/, ''), secret: options.secret },
    { allowLoopback: true, requireHttps443: false, timeoutMs: options.timeoutMs },
    clock,
    options.resolver,
  );
  const answers = answerRules(options.timeoutMs);
  const total = RULES.length + 1 + answers.length;
  const results: RuleResult[] = [];
  /** Where each player's balance was found: its first balance read of the run, before anything moved it. */
  const baseline = new Map<string, number>();
  let fundedProblem: string | null = null;

  const decided = (result: RuleResult) => {
    results.push(result);
    options.onRule?.(result, results.length, total);
  };

  /** The calls of one rule, with the helpers its context offers. */
  function context(ruleId: string, playerId: string, calls: WireCall[], pending: Map<string, Pending>) {
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
    const ctx: RuleContext & { before: number; record: typeof record } = {
      player: playerId,
      before: 0,
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

  /**
   * Sends one body until the wallet answers for sure, as the delivery engine would (a short burst): the same
   * bytes each time, with a fresh timestamp and signature.
   */
  async function untilDefinitive(
    ctx: ReturnType<typeof context>,
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
  async function resolve(ctx: ReturnType<typeof context>, pending: Map<string, Pending>, notes: string[]) {
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
        call = await untilDefinitive(ctx, step, 'rollback', movementBody(rollback), rollback.txId);
      } else {
        const step = `recovery: ${endpoint} sent again with the same txId and body`;
        call = await untilDefinitive(ctx, step, endpoint, body, movement.txId);
      }
      notes.push(`${movement.txId} had an unknown outcome; ${call.step}: ${describeOutcome(call)}`);
    }
  }

  /** The rule's player as it found it: whatever is left moved is put back with an adjustment. */
  async function restore(ctx: ReturnType<typeof context>, before: number, notes: string[]): Promise<string | null> {
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
    const fix = await untilDefinitive(ctx, step, endpoint, movementBody(adjustment), adjustment.txId);
    notes.push(`the rule left the balance at ${after} instead of ${before}; compensation: ${describeOutcome(fix)}`);
    return `the balance should be back at ${before} after the rule; it was ${after}`;
  }

  async function run(rule: Rule): Promise<RuleResult> {
    const started = performance.now();
    const calls: WireCall[] = [];
    const notes: string[] = [];
    const result = (status: RuleResult['status'], detail: string, failure?: RuleFailure): RuleResult => ({
      id: rule.id,
      title: rule.title,
      contract: rule.contract,
      status,
      detail,
      ...(failure?.call ? { decidedBy: failure.call.step } : {}),
      notes,
      durationMs: Math.round(performance.now() - started),
      calls,
    });
    if (rule.player === 'empty' && !options.emptyPlayer) {
      return result(
        'skip',
        'no --player-empty given: the insufficient-funds rules need a test player with a zero balance',
      );
    }
    if (rule.player === 'funded' && fundedProblem !== null && rule.id !== 'setup.funded-player') {
      return result('skip', `the funded player cannot be used: ${fundedProblem}`);
    }
    const playerId = rule.player === 'empty' ? options.emptyPlayer! : options.player;
    const pending = new Map<string, Pending>();
    const ctx = context(rule.id, playerId, calls, pending);
    if (rule.player) {
      const read = await ctx.balance('balance before the rule');
      if (read.outcome.outcome !== 'applied') {
        const failure = new RuleFailure(
          `the balance before the rule could not be read: ${describeOutcome(read)}`,
          read,
        );
        if (rule.id === 'setup.funded-player')
          fundedProblem = 'its balance could not be read (see setup.funded-player)';
        return result('fail', failure.message, failure);
      }
      ctx.before = read.outcome.balance;
    }
    let outcome: RuleResult;
    try {
      outcome = result('pass', await rule.run(ctx));
    } catch (error) {
      const failure =
        error instanceof RuleFailure ? error : new RuleFailure(`unexpected error: ${(error as Error).message}`);
      if (rule.id === 'setup.funded-player') fundedProblem = `${failure.message} (see setup.funded-player)`;
      outcome = result('fail', failure.message, failure);
    }
    await resolve(ctx, pending, notes);
    if (rule.player) {
      const moved = await restore(ctx, ctx.before, notes);
      if (moved && outcome.status === 'pass') outcome = { ...outcome, status: 'fail', detail: moved };
    }
    return { ...outcome, durationMs: Math.round(performance.now() - started) };
  }

  async function restored(): Promise<RuleResult> {
    const started = performance.now();
    const calls: WireCall[] = [];
    const ctx = context('balance.restored', options.player, calls, new Map());
    const players = [options.player, ...(options.emptyPlayer ? [options.emptyPlayer] : [])].filter((player) =>
      baseline.has(player),
    );
    const problems: string[] = [];
    const seen: string[] = [];
    for (const player of players) {
      const read = await ctx.balance(`final balance of ${player}`, player);
      const found = baseline.get(player)!;
      if (read.outcome.outcome !== 'applied') problems.push(`${player}: ${describeOutcome(read)}`);
      else if (read.outcome.balance !== found) problems.push(`${player}: found ${found}, left ${read.outcome.balance}`);
      else seen.push(`${player}: ${found}`);
    }
    const base = {
      id: 'balance.restored',
      title: 'The test players are left with the balances they were found with',
      contract: 'certification promise (only its own txIds; every movement undone)',
      notes: [],
      durationMs: Math.round(performance.now() - started),
      calls,
    };
    if (players.length === 0) return { ...base, status: 'skip', detail: 'no balance of a test player could be read' };
    if (problems.length > 0) return { ...base, status: 'fail', detail: problems.join('; ') };
    return { ...base, status: 'pass', detail: `left as found: ${seen.join(', ')}` };
  }

  function judged(rule: AnswerRule): RuleResult {
    const offending = wire.calls.filter((call) => rule.offence(call));
    const base = { id: rule.id, title: rule.title, contract: rule.contract, notes: [], durationMs: 0 };
    if (offending.length === 0) {
      return { ...base, status: 'pass', detail: `checked all ${wire.calls.length} calls: ${rule.what}`, calls: [] };
    }
    return {
      ...base,
      status: 'fail',
      detail: `${offending.length} of ${wire.calls.length} calls did not: ${offending
        .slice(0, 5)
        .map((call) => `${call.step} (${describeOutcome(call)})`)
        .join('; ')}`,
      decidedBy: offending[0]!.step,
      calls: offending,
    };
  }

  try {
    try {
      await wire.checkDestination();
    } catch (error) {
      if (error instanceof TransportRefused) throw new DestinationRefused(error.message);
      throw error;
    }
    for (const rule of RULES) decided(await run(rule));
    decided(await restored());
    for (const rule of answers) decided(judged(rule));
  } finally {
    wire.close();
  }

  const latencies = wire.calls.map((call) => call.latencyMs).sort((a, b) => a - b);
  const count = (status: RuleResult['status']) => results.filter((result) => result.status === status).length;
  const failed = count('fail');
  const skipped = count('skip');
  return {
    tool: 'bookmaker wallet certify',
    version: VERSION,
    runId,
    startedAt: startedAt.toISOString(),
    finishedAt: clock.now().toISOString(),
    wallet: {
      url: options.walletUrl,
      currency,
      player: options.player,
      emptyPlayer: options.emptyPlayer ?? null,
      timeoutMs: options.timeoutMs,
    },
    target: options.target,
    result: failed > 0 ? 'failed' : skipped > 0 ? 'incomplete' : 'certified',
    summary: { rules: results.length, passed: count('pass'), failed, skipped },
    latency: {
      calls: latencies.length,
      medianMs: latencies[Math.floor((latencies.length - 1) / 2)] ?? 0,
      maxMs: latencies.at(-1) ?? 0,
      limitMs: options.timeoutMs,
    },
    rules: results,
  };
}
