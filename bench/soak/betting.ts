// Placing each round's slips from concurrent clients (sent again, for a while, when a fed market moved or was held)
// and the cash-outs that follow some of them.
import { setTimeout as sleep } from 'node:timers/promises';
import { parseMilli } from '../../src/catalog/odds.ts';
import type { SoakBet } from '../soak-check.ts';
import { expect, players, sessions } from './access.ts';
import type { Market, Round, Slip } from './rounds.ts';
import { activeUntil, discrepancies, figures, opts } from './run-state.ts';
import { call } from './service.ts';

const PLACERS = 6;
/**
 * How long a player keeps sending a slip on a fed market the feed moved or held, and how long between tries: long
 * enough to outlast a restart on a loaded machine (service, then simulator, then a tick), which refused a sixth of
 * the bets of a CI run when a refusal was final.
 */
const FED_PATIENCE_MS = 20_000;
const FED_RETRY_MS = 1_000;

/** Every bet the service accepted, as the checks and the decisions during resettlements read them. */
export const accepted: SoakBet[] = [];

function recordBet(round: Round, slip: Slip, bet: any): void {
  figures.bets.accepted += 1;
  const record = {
    betId: bet.id as string,
    player: players[slip.player]!,
    stake: bet.stake as number,
    remainingStake: bet.remainingStake as number,
    fullyCashedOut: false,
    cashOutTxIds: [] as string[],
    legs: (bet.legs as Array<{ marketId: string; selectionId: string; odds: string }>).map((leg) => ({
      marketId: leg.marketId,
      selectionId: leg.selectionId,
      oddsMilli: parseMilli(leg.odds),
    })),
    busy: false,
  };
  round.bets.push(record);
  accepted.push(record);
}

async function place(round: Round, slip: Slip): Promise<void> {
  figures.bets.sent += 1;
  if (slip.legs.length === 1) figures.bets.singles += 1;
  else figures.bets.accumulators += 1;
  for (const leg of slip.legs) leg.market.hasBets = true;
  const fed = slip.legs.some((leg) => leg.market.fedEvent);
  const placeUntil = performance.now() + FED_PATIENCE_MS;
  let again = 0;
  let body = await slipBody(slip, again);
  for (;;) {
    const answer = await call('POST', '/api/v1/bets', { token: sessions[slip.player]!, body });
    if (answer.status === 201 || answer.status === 200) return recordBet(round, slip, answer.body.bet);
    const code: string = answer.body?.error?.code ?? `http_${answer.status}`;
    if (code === 'bet_in_progress') {
      await sleep(300);
      continue;
    }
    // a fed market moves while the soak bets: its price changed, or it was held for its producer's silence (after a
    // restart, until the simulator is back); the player reads the price again and sends the slip again, for a while
    const fedRefusal = fed && (code === 'odds_changed' || code === 'market_unavailable');
    if (fedRefusal && performance.now() < Math.min(placeUntil, activeUntil)) {
      figures.bets.sentAgain[code] = (figures.bets.sentAgain[code] ?? 0) + 1;
      await sleep(FED_RETRY_MS);
      body = await slipBody(slip, (again += 1));
      continue;
    }
    if (answer.status === 402 || answer.status === 503 || fedRefusal) {
      figures.bets.refused[code] = (figures.bets.refused[code] ?? 0) + 1;
      return;
    }
    discrepancies.push({
      check: 'unexpected_answer',
      detail: `placing ${body.requestId}: ${answer.status} ${answer.text}`,
    });
    return;
  }
}

/**
 * The slip's request, at the price players read now on its fed markets. A refusal is final for its request, so a slip
 * sent again after one is a new request (`again` > 0); one still in progress is the same request.
 */
async function slipBody(slip: Slip, again: number) {
  for (const leg of slip.legs)
    if (leg.market.fedEvent) leg.selection.odds = await fedOdds(leg.market, leg.selection.id);
  return {
    requestId: `soak-${opts.seed}-${slip.index}${again ? `-again-${again}` : ''}`,
    stake: slip.stake,
    legs: slip.legs.map((leg) => ({ selectionId: leg.selection.id, odds: leg.selection.odds })),
  };
}

/** A fed selection's price now, as players read it. */
async function fedOdds(market: Market, selectionId: string): Promise<string> {
  const { event } = expect(await call('GET', `/api/v1/catalog/events/${market.fedEvent}`), 200, 'fed event');
  const now = event.markets.find((one: { id: string }) => one.id === market.id);
  const selection = now?.selections.find((one: { id: string }) => one.id === selectionId);
  return selection?.odds ?? market.selections.find((one) => one.id === selectionId)!.odds;
}

async function cashOut(round: Round, plan: NonNullable<Slip['cashOut']>, index: number): Promise<void> {
  const open = round.bets.filter((bet) => !bet.fullyCashedOut && !bet.busy);
  if (open.length === 0) return;
  const bet = open[Math.floor(plan.pick * open.length)]!;
  const part = plan.full ? undefined : Math.floor(bet.remainingStake * plan.fraction);
  if (part !== undefined && (part < 1 || part >= bet.remainingStake)) return;
  bet.busy = true;
  try {
    const token = sessions[players.indexOf(bet.player)]!;
    const offer = await call('GET', `/api/v1/bets/${bet.betId}/cashout${part ? `?stake=${part}` : ''}`, { token });
    if (offer.status !== 200) {
      figures.cashOuts.unavailable += 1;
      return;
    }
    const body = {
      requestId: `soak-${opts.seed}-co-${index}`,
      amount: offer.body.offer.amount,
      ...(part ? { stake: part } : {}),
    };
    const answer = await call('POST', `/api/v1/bets/${bet.betId}/cashout`, { token, body });
    if (answer.status !== 200) {
      figures.cashOuts.unavailable += 1;
      return;
    }
    const after = answer.body.bet;
    bet.remainingStake = after.remainingStake;
    bet.fullyCashedOut = after.status === 'cashed_out';
    bet.cashOutTxIds = (after.movements as Array<{ txId: string; kind: string }>)
      .filter((movement) => movement.kind === 'cashout')
      .map((movement) => movement.txId);
    if (part) figures.cashOuts.partial += 1;
    else figures.cashOuts.full += 1;
  } finally {
    bet.busy = false;
  }
}

export async function placeRound(round: Round): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: PLACERS }, async () => {
      while (next < round.slips.length && performance.now() < activeUntil) {
        const slip = round.slips[next++]!;
        await place(round, slip);
        if (slip.cashOut) await cashOut(round, slip.cashOut, slip.index);
      }
    }),
  );
}
