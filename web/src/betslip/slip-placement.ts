import { api, ApiError, newRequestId } from '../api.ts';
import type { ApiRequest } from '../../../ui-shared/api-shapes.ts';
import { post } from '../bridge.ts';
import { betsVersion, loggedIn, requireLogin, setBalance } from '../session.ts';
import type { Bet } from '../types.ts';
import { noteBet } from '../watch.ts';
import { outOfRange, slipStore, stakeLimits, updateSlip } from './slip.ts';
import {
  ACCA,
  hasOddsChanges,
  isDecimalOdds,
  slipBets,
  type OddsAcceptance,
  type SlipBet,
  type SlipError,
} from './slip-rules.ts';

/**
 * Placing the slip's staked bets: one request each, retried without ever placing a bet twice, each outcome its own;
 * what was placed becomes the receipt and leaves the slip, what was not stays with its reason.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One bet, with its request id kept across retries so a lost answer never places it twice. */
async function placeOne(bet: SlipBet, acceptOddsChanges: OddsAcceptance) {
  const body: ApiRequest<'placeBet'> = {
    requestId: newRequestId('slip'),
    stake: bet.stake!,
    legs: bet.items.map((item) => ({ selectionId: item.selectionId, odds: item.accepted })),
    acceptOddsChanges,
  };
  for (let attempt = 1; ; attempt++) {
    try {
      return await api.placeBet(body);
    } catch (error) {
      const retry =
        error instanceof ApiError &&
        ((error.code === 'network' && attempt < 3) || (error.code === 'bet_in_progress' && attempt < 6));
      if (!retry) throw error;
      await sleep(1000);
    }
  }
}

function asSlipError(error: unknown): SlipError {
  if (!(error instanceof ApiError)) return { code: 'generic', details: {} };
  const selectionId = typeof error.details.selectionId === 'string' ? error.details.selectionId : undefined;
  if (error.status === 401) return { code: 'session', details: {} };
  if (['account_blocked', 'account_paused', 'account_closed'].includes(error.code)) {
    return { code: 'account', details: error.details };
  }
  return { code: error.code, details: error.details, ...(selectionId ? { selectionId } : {}) };
}

/** A refusal that every other bet of the slip would meet too: the placement stops there. */
const STOPS_ALL = new Set(['session', 'account']);

/** The current prices the service gave with its odds_changed refusals, by selection. */
function refusedPrices(failures: SlipError[]): Map<string, string> {
  const prices = new Map<string, string>();
  for (const failure of failures) {
    if (failure.code !== 'odds_changed' || !Array.isArray(failure.details.legs)) continue;
    for (const leg of failure.details.legs as Array<{ selectionId?: unknown; odds?: unknown }>) {
      if (typeof leg.selectionId === 'string' && isDecimalOdds(leg.odds)) prices.set(leg.selectionId, leg.odds);
    }
  }
  return prices;
}

/**
 * Places every staked bet of the slip, one request each, in order (the singles, then the accumulator); each bet's
 * outcome is its own: a refused one does not stop the others, except when the session or the account stops them
 * all. Anonymous players are sent to the host's log-in (login_required: place_bet). What was placed leaves the slip;
 * what was not stays with its stake and the reason.
 */
export async function placeBets(): Promise<void> {
  const state = slipStore.get();
  if (state.placing || state.items.length === 0) return;
  if (!loggedIn()) {
    requireLogin('place_bet');
    updateSlip(() => ({ error: { code: 'login', details: {} } }));
    return;
  }
  if (hasOddsChanges(state.items)) {
    updateSlip(() => ({ error: { code: 'odds_changed', details: {} } }));
    return;
  }
  const bets = slipBets(state).filter((bet) => bet.stake !== null);
  if (bets.length === 0) {
    updateSlip(() => ({ error: { code: 'enter_stake', details: {} } }));
    return;
  }
  const blocked = bets.flatMap((bet) => bet.items).find((item) => item.status !== 'open');
  if (blocked) {
    const code = blocked.status === 'suspended' ? 'market_unavailable' : 'selection_unavailable';
    updateSlip(() => ({ error: { code, details: {}, selectionId: blocked.selectionId } }));
    return;
  }
  const outside = bets.flatMap((bet) => {
    const failure = outOfRange(bet.stake!);
    return failure ? [[bet.key, failure] as const] : [];
  });
  if (outside.length > 0) {
    updateSlip(() => ({ error: null, failed: Object.fromEntries(outside) }));
    return;
  }

  updateSlip(() => ({ placing: true, error: null, failed: {}, receipt: null }));
  const placed: Array<{ bet: Bet; slipBet: SlipBet }> = [];
  const failed: Record<string, SlipError> = {};
  let stopped: SlipError | null = null;
  for (const slipBet of bets) {
    try {
      const answer = await placeOne(slipBet, state.acceptance);
      const { bet } = answer;
      placed.push({ bet, slipBet });
      // 201 has the balance after the stake; 200 (an earlier request's bet, replayed) has none
      if ('balance' in answer) setBalance(answer.balance.balance, answer.balance.currency);
      post('bet_placed', {
        betId: bet.id,
        stake: bet.stake,
        currency: bet.currency,
        potentialPayout: bet.potentialPayout,
        legs: bet.legs.length,
      });
      noteBet(bet);
    } catch (error) {
      const failure = asSlipError(error);
      if (STOPS_ALL.has(failure.code)) {
        stopped = failure;
        break;
      }
      failed[slipBet.key] = failure;
      if (failure.code === 'stake_out_of_range') {
        const { minStake, maxStake } = failure.details;
        if (typeof minStake === 'number' && typeof maxStake === 'number') stakeLimits.set({ minStake, maxStake });
      }
    }
  }
  if (placed.length > 0) betsVersion.set((version) => version + 1);

  const placedKeys = new Set(placed.map(({ slipBet }) => slipBet.key));
  const selectionsOf = (list: SlipBet[]) => new Set(list.flatMap((bet) => bet.items.map((item) => item.selectionId)));
  // a selection leaves the slip once every bet staked on it is placed
  const notPlaced = selectionsOf(bets.filter((bet) => !placedKeys.has(bet.key)));
  const done = selectionsOf(placed.map(({ slipBet }) => slipBet));
  const prices = refusedPrices(Object.values(failed));
  const unavailable = Object.values(failed).filter((failure) => failure.selectionId);
  slipStore.set((current) => ({
    ...current,
    placing: false,
    error: stopped,
    failed,
    receipt:
      placed.length > 0
        ? { bets: placed.map(({ bet }) => bet), items: state.items.filter((item) => done.has(item.selectionId)) }
        : null,
    accaStakeText: placedKeys.has(ACCA) ? '' : current.accaStakeText,
    items: current.items
      .filter((item) => !done.has(item.selectionId) || notPlaced.has(item.selectionId))
      .map((item) => {
        let next = placedKeys.has(item.selectionId) ? { ...item, stakeText: '' } : item;
        const price = prices.get(item.selectionId);
        // refused by the service: a move the player's choice does not accept, shown to be accepted
        if (price && price !== item.odds) next = { ...next, odds: price, previous: item.odds };
        const refusal = unavailable.find((failure) => failure.selectionId === item.selectionId);
        if (refusal?.code === 'market_unavailable') next = { ...next, status: 'suspended' };
        if (refusal?.code === 'selection_unavailable') next = { ...next, status: 'unavailable' };
        return next;
      }),
  }));
}
