// The SIGKILLs: when each restart fires (after so many bets, during a settlement request, or while its credits are
// delivered), and firing them one at a time.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Round } from './rounds.ts';
import { choices, figures, opts, progress, say } from './run-state.ts';
import { service } from './service.ts';

interface KillPlan {
  /** When it may fire: once so many bets were sent, or so many settlement actions, or the drain has begun. */
  after: { bets: number } | { actions: number };
  delayMs: number;
}

export function killPlans(rounds: Round[]): KillPlan[] {
  const rng = choices.kills;
  const actions = rounds.reduce((sum, round) => sum + round.actions.length + round.late.length, 0);
  const kinds = ['action', 'bet', 'delivery'] as const;
  const offset = rng.int(0, kinds.length - 1);
  return Array.from({ length: opts.restarts }, (_, i): KillPlan => {
    const kind = kinds[(i + offset) % kinds.length]!;
    if (kind === 'bet')
      return { after: { bets: Math.floor(opts.bets * (0.1 + 0.8 * rng.next())) }, delayMs: rng.int(0, 150) };
    const at = { actions: rng.int(1, Math.max(1, actions)) };
    // During the settlement request itself, or while its credits are being delivered.
    return { after: at, delayMs: kind === 'action' ? rng.int(0, 60) : rng.int(300, 2_500) };
  });
}

/** Fires the kills, one at a time, each once its moment has come (or the drain has begun). */
export function runKills(plans: KillPlan[]): Promise<void> {
  let chain = Promise.resolve();
  const due = (plan: KillPlan) =>
    progress.drain ||
    ('bets' in plan.after ? figures.bets.sent >= plan.after.bets : progress.actions >= plan.after.actions);
  return Promise.all(
    plans.map(async (plan) => {
      while (!due(plan)) await sleep(10);
      await sleep(plan.delayMs);
      const mine = chain.then(async () => {
        say(`SIGKILL (restart ${figures.restarts + 1}/${opts.restarts}) during ${progress.phase}`);
        await service.kill();
      });
      chain = mine;
      await mine;
    }),
  ).then(() => undefined);
}
