import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { VERSION } from '../../platform/version.ts';
import { TransportRefused, type Resolver } from '../delivery/transport.ts';
import { answerRules, judged } from './answer-rules.ts';
import { resolveUnknownOutcomes, restoreBalance } from './clean-up.ts';
import type { CertificationReport, RuleResult, SandboxTarget } from './report.ts';
import { ruleContext, type CertificationRun, type Pending } from './rule-context.ts';
import { describeOutcome, RULES, RuleFailure, type Rule } from './rules.ts';
import { Wire, type WireCall } from './wire.ts';

/**
 * Runs the certification rules one after the other against one wallet and builds the report. Each rule that moves
 * money has its player's balance read before and after it; a movement whose outcome stayed unknown is resolved the
 * way the service resolves it (a stake is rolled back, anything else is sent again with the same txId and body),
 * and whatever a failing rule left moved is put back with an adjustment (clean-up.ts), so the next rule starts
 * clean and the players end where they were found.
 */
export interface CertificationOptions {
  walletUrl: string;
  secret: string;
  currency: string;
  /** A funded test player. */
  player: string;
  /** A test player with no money, for the insufficient-funds rules (skipped without it). */
  emptyPlayer?: string | undefined;
  /** A test player blocked in the wallet, for the blocked-player rule (skipped without it). */
  blockedPlayer?: string | undefined;
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

  const run: CertificationRun = { wire, runId, currency, baseline };

  async function runRule(rule: Rule): Promise<RuleResult> {
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
    if (rule.player === 'blocked' && !options.blockedPlayer) {
      return result('skip', 'no --player-blocked given: this rule needs a test player blocked in the sandbox wallet');
    }
    if (rule.player === 'funded' && fundedProblem !== null && rule.id !== 'setup.funded-player') {
      return result('skip', `the funded player cannot be used: ${fundedProblem}`);
    }
    const playerId =
      rule.player === 'empty'
        ? options.emptyPlayer!
        : rule.player === 'blocked'
          ? options.blockedPlayer!
          : options.player;
    const pending = new Map<string, Pending>();
    const ctx = ruleContext(run, rule.id, playerId, calls, pending);
    if (rule.player) {
      const read = await ctx.balance('balance before the rule');
      if (rule.player === 'blocked' && read.outcome.outcome === 'refused' && read.outcome.code === 'player_blocked') {
        // The contract does not say whether a blocked player's balance may be read: the rule runs without it.
        ctx.balanceReadable = false;
        notes.push(
          'the wallet refuses balance reads of the blocked player (player_blocked): only the answers show that no ' +
            'money moved',
        );
      } else if (read.outcome.outcome !== 'applied') {
        const failure = new RuleFailure(
          `the balance before the rule could not be read: ${describeOutcome(read)}`,
          read,
        );
        if (rule.id === 'setup.funded-player')
          fundedProblem = 'its balance could not be read (see setup.funded-player)';
        return result('fail', failure.message, failure);
      } else {
        ctx.before = read.outcome.balance;
      }
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
    await resolveUnknownOutcomes(run, ctx, pending, notes);
    if (rule.player && ctx.balanceReadable) {
      const moved = await restoreBalance(run, ctx, ctx.before, notes);
      if (moved && outcome.status === 'pass') outcome = { ...outcome, status: 'fail', detail: moved };
    }
    return { ...outcome, durationMs: Math.round(performance.now() - started) };
  }

  async function restored(): Promise<RuleResult> {
    const started = performance.now();
    const calls: WireCall[] = [];
    const ctx = ruleContext(run, 'balance.restored', options.player, calls, new Map());
    const players = [options.player, options.emptyPlayer, options.blockedPlayer].filter(
      (player): player is string => player !== undefined && baseline.has(player),
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

  try {
    try {
      await wire.checkDestination();
    } catch (error) {
      if (error instanceof TransportRefused) throw new DestinationRefused(error.message);
      throw error;
    }
    for (const rule of RULES) decided(await runRule(rule));
    decided(await restored());
    for (const rule of answers) decided(judged(rule, wire.calls));
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
      blockedPlayer: options.blockedPlayer ?? null,
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
