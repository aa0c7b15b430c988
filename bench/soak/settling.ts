// Settling and resettling the rounds' markets: a resettlement is sent amid the operator's and the casino's decisions.
import { setTimeout as sleep } from 'node:timers/promises';
import type { SelectionResult } from '../../src/catalog/tables.ts';
import type { Random } from '../soak-support.ts';
import { admin } from './access.ts';
import { resettleAmidDecisions } from './decisions.ts';
import type { Action, Market } from './rounds.ts';
import { choices, figures, progress } from './run-state.ts';

const OUTCOMES = ['home', 'draw', 'away', 'void'];
const otherOutcome = (rng: Random, not: string | undefined) => rng.pick(OUTCOMES.filter((o) => o !== not));

const resultsOf = (market: Market, outcome: string): Record<string, SelectionResult> =>
  Object.fromEntries(
    market.selections.map((selection) => [
      selection.id,
      outcome === 'void' ? 'void' : selection.outcome === outcome ? 'won' : 'lost',
    ]),
  );

export async function act(action: Action): Promise<void> {
  const { market } = action;
  if (!market.hasBets) return;
  if (action.kind === 'resettle') {
    if (!market.outcome) return;
    action.outcome = otherOutcome(choices.results, market.outcome);
  }
  progress.actions += 1;
  const results = resultsOf(market, action.outcome);
  const body = { results: Object.entries(results).map(([selectionId, result]) => ({ selectionId, result })) };
  // A resettlement is sent with the operator's and the casino's decisions on the market's bets, once.
  let amid = action.kind === 'resettle';
  for (;;) {
    const send = () => admin('POST', `/api/v1/admin/trading/markets/${market.id}/${action.kind}`, body);
    const answer = amid ? await resettleAmidDecisions(market, send) : await send();
    amid = false;
    const code = answer.body?.error?.code;
    if (answer.status === 200 || (action.kind === 'settle' && code === 'market_settled')) break;
    if (code === 'bets_pending') {
      await sleep(500);
      continue;
    }
    throw new Error(`${action.kind} ${market.id}: ${answer.status} ${answer.text}`);
  }
  market.outcome = action.outcome;
  market.results = results;
  if (action.kind === 'settle') figures.markets.settled += 1;
  else figures.markets.resettled += 1;
  await sleep(choices.results.int(0, 300));
}
