// What the run says: a progress line on stderr every 3 s, and the figures on stdout at the end.
import { figures, opts, progress, started } from './run-state.ts';
import { service } from './service.ts';

export function progressLine(depth: { unsettled: number; held: number } | undefined): string {
  const seconds = Math.round((performance.now() - started) / 1000);
  return (
    `[${String(seconds).padStart(4)} s] ${progress.phase.padEnd(14)} bets ${figures.bets.sent}/${opts.bets} ` +
    `(accepted ${figures.bets.accepted})  restarts ${figures.restarts}/${opts.restarts}` +
    `${service?.down ? ' (restarting)' : ''}  queue ${depth ? `${depth.unsettled} (held ${depth.held})` : '?'}  ` +
    `faults ${figures.faults.injected}`
  );
}

export function printFigures(): void {
  const lines: string[] = [];
  const line = (name: string, value: string | number) => lines.push(`${name.padEnd(26)} ${value}`);
  lines.push('', `fault soak, seed ${figures.seed}, database: ${figures.database}`);
  const bets = figures.bets;
  line(
    'bets',
    `${bets.sent} sent of ${bets.requested} (${bets.singles} singles, ${bets.accumulators} accumulators): ` +
      `${bets.accepted} accepted, ${Object.values(bets.refused).reduce((a, b) => a + b, 0)} refused ` +
      `${JSON.stringify(bets.refused)}, sent again ${JSON.stringify(bets.sentAgain)}`,
  );
  line(
    'cash-outs',
    `${figures.cashOuts.full} full, ${figures.cashOuts.partial} partial, ${figures.cashOuts.unavailable} not offered`,
  );
  line('markets', `${figures.markets.settled} settled, ${figures.markets.resettled} resettled`);
  const { feed: fed } = figures;
  line(
    'demo feed',
    `${fed.ticks} ticks, ${fed.messages} messages (${fed.applied} applied, ${fed.kept} kept, ${fed.refused} refused), ` +
      `${fed.failedTicks} ticks failed, ${fed.outages} outages, ${fed.recovered} recovered`,
  );
  lines.push('movements that count (kind/endpoint: how many, amount)');
  for (const [kind, { movements, amount }] of Object.entries(figures.movements)) {
    line(`  ${kind}`, `${String(movements).padStart(6)}  ${String(amount).padStart(12)}`);
  }
  line('obligations by state', JSON.stringify(figures.obligations));
  line(
    'faults hit',
    `${figures.faults.injected} (${figures.faults.appliedBeforeAnswer} applied before the faulty answer; ` +
      `${figures.faults.notHit} injected but never hit)`,
  );
  for (const [mode, count] of Object.entries(figures.faults.byMode)) line(`  ${mode}`, count);
  line(
    'restarts (SIGKILL)',
    `${figures.restarts}${figures.unexpectedExits ? `, ${figures.unexpectedExits} unexpected exits` : ''}`,
  );
  line(
    'operator decisions',
    `${figures.operator.resolved} resolved, ${figures.operator.cancelled} cancelled, ${figures.operator.retried} retried; ` +
      `${figures.redeliveries} redeliveries asked by the casino`,
  );
  const amid = figures.duringResettlements;
  const refusals = (refused: Record<string, number>) =>
    `${Object.values(refused).reduce((a, b) => a + b, 0)} refused ${JSON.stringify(refused)}`;
  line(
    'during resettlements',
    `${amid.sent} decisions sent beside ${amid.resettlements} of ${figures.markets.resettled} resettlements: ` +
      `${amid.done} done, ${refusals(amid.refused)}${amid.unexpected ? `, ${amid.unexpected} unexpected` : ''}`,
  );
  for (const [decision, tally] of Object.entries(amid.byAction)) {
    const who = decision === 'redeliver' ? 'casino' : 'operator';
    line(`  ${who} ${decision}`, `${tally.sent} sent, ${tally.done} done, ${refusals(tally.refused)}`);
  }
  line('wallet requests', `${figures.wallet.requests} (${figures.wallet.resent} movements sent more than once)`);
  line('statements', `${figures.statements.days.join(', ')}: ${figures.statements.movements} movements`);
  line('partner reconcile', figures.reconcile);
  line('wall time', `${(figures.wallMs / 1000).toFixed(1)} s`);
  line('discrepancies', figures.discrepancies);
  for (const found of figures.discrepancyList.slice(0, 50)) lines.push(`  ${found.check}: ${found.detail}`);
  if (figures.discrepancyList.length > 50)
    lines.push(`  ... and ${figures.discrepancyList.length - 50} more (--json lists all)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}
