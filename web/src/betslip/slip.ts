import { api, ApiError, newRequestId } from '../api.ts';
import { post } from '../bridge.ts';
import { parseMajor } from '../i18n/index.ts';
import { launchParams } from '../launch.ts';
import { PAGE_POLL_MS } from '../poll.ts';
import { betsVersion, loggedIn, requireLogin, setBalance } from '../session.ts';
import { createStore } from '../store.ts';
import type { Bet, EventHeader, EventStatus, Market, MarketType, Selection } from '../types.ts';
import { noteBet } from '../watch.ts';

/**
 * The bet slip: singles (one bet per selection, each with its stake) or one accumulator (two or more selections
 * from different events). The slip keeps reading the odds of its selections every PAGE_POLL_MS while it has any;
 * a price that moved is shown as old → new and must be accepted before the bet goes. The slip (not the session)
 * survives a reload of the iframe in sessionStorage.
 */
export const MAX_SELECTIONS = 20;

export interface SlipItem {
  selectionId: string;
  eventId: string;
  home: string;
  away: string;
  startsAt: string;
  live: boolean;
  marketType: MarketType;
  line: string | null;
  selectionName: string;
  /** the current price */
  odds: string;
  /** the price the player has seen and accepted: the one sent with the bet */
  accepted: string;
  status: 'open' | 'suspended' | 'unavailable';
  /** the singles stake as typed, in major units */
  stakeText: string;
}

export interface SlipError {
  code: string;
  details: Record<string, unknown>;
  selectionId?: string;
}

export interface SlipState {
  items: SlipItem[];
  mode: 'singles' | 'acca';
  accaStakeText: string;
  placing: boolean;
  error: SlipError | null;
  receipt: { bets: Bet[]; items: SlipItem[] } | null;
}

const storageKey = () => `bookmaker.slip.${launchParams.tenant ?? ''}`;

function restore(): SlipState {
  const empty: SlipState = {
    items: [],
    mode: 'singles',
    accaStakeText: '',
    placing: false,
    error: null,
    receipt: null,
  };
  try {
    const saved = JSON.parse(sessionStorage.getItem(storageKey()) ?? 'null') as Partial<SlipState> | null;
    if (!saved || !Array.isArray(saved.items)) return empty;
    return {
      ...empty,
      items: saved.items.slice(0, MAX_SELECTIONS),
      mode: saved.mode === 'acca' ? 'acca' : 'singles',
      accaStakeText: typeof saved.accaStakeText === 'string' ? saved.accaStakeText : '',
    };
  } catch {
    return empty;
  }
}

export const slipStore = createStore<SlipState>(restore());
/** The mobile bet slip sheet is open. */
export const slipOpen = createStore(false);

slipStore.subscribe((state) => {
  try {
    const { items, mode, accaStakeText } = state;
    sessionStorage.setItem(storageKey(), JSON.stringify({ items, mode, accaStakeText }));
  } catch {
    // no storage: the slip lives as long as the page
  }
});

function update(change: (state: SlipState) => Partial<SlipState>): void {
  slipStore.set((state) => ({ ...state, ...change(state) }));
}

export function inSlip(selectionId: string): boolean {
  return slipStore.get().items.some((item) => item.selectionId === selectionId);
}

export function accaPossible(items: SlipItem[]): boolean {
  return items.length >= 2 && new Set(items.map((item) => item.eventId)).size === items.length;
}

export function hasOddsChanges(items: SlipItem[]): boolean {
  return items.some((item) => item.odds !== item.accepted);
}

/** Decimal odds "2.15" as thousandths (2150), exactly. */
export function oddsMilli(odds: string): bigint {
  const [whole = '0', fraction = ''] = odds.split('.');
  return BigInt(whole) * 1000n + BigInt((fraction + '000').slice(0, 3));
}

/** What a stake pays at these odds: floor(stake × odds…), as the service computes it (minor units). */
export function payout(stake: number, odds: string[]): number {
  let numerator = BigInt(stake);
  let denominator = 1n;
  for (const price of odds) {
    numerator *= oddsMilli(price);
    denominator *= 1000n;
  }
  return Number(numerator / denominator);
}

/**
 * Combined odds of an accumulator, to three decimals (rounded down), in exact integers as the service computes
 * them: a long accumulator's product is past what a float holds exactly.
 */
export function combinedOdds(odds: string[]): string {
  const milli = odds.reduce((product, price) => product * oddsMilli(price), 1000n) / 1000n ** BigInt(odds.length);
  const fraction = String(milli % 1000n)
    .padStart(3, '0')
    .replace(/0$/, '');
  return `${milli / 1000n}.${fraction}`;
}

export function stakeOf(text: string): number | null {
  const value = parseMajor(text);
  return value !== null && value > 0 ? value : null;
}

export function toggleSelection(selection: Selection, market: Market, event: EventHeader): void {
  const state = slipStore.get();
  if (inSlip(selection.id)) {
    removeSelection(selection.id);
    return;
  }
  if (state.items.length >= MAX_SELECTIONS) {
    update(() => ({ error: { code: 'max_selections', details: {} } }));
    return;
  }
  const item: SlipItem = {
    selectionId: selection.id,
    eventId: event.id,
    home: event.home,
    away: event.away,
    startsAt: event.startsAt,
    live: event.status === 'live',
    marketType: market.type,
    line: market.line,
    selectionName: selection.name,
    odds: selection.odds,
    accepted: selection.odds,
    status: market.status === 'open' ? 'open' : 'suspended',
    stakeText: state.items[0]?.stakeText ?? '',
  };
  const items = [...state.items, item];
  // two or more events: the accumulator is what most players want; one event twice cannot be one
  const mode = items.length === 2 && accaPossible(items) ? 'acca' : accaPossible(items) ? state.mode : 'singles';
  update(() => ({ items, mode, error: null, receipt: null }));
}

export function removeSelection(selectionId: string): void {
  update((state) => {
    const items = state.items.filter((item) => item.selectionId !== selectionId);
    return {
      items,
      mode: accaPossible(items) ? state.mode : 'singles',
      error: state.error?.selectionId === selectionId ? null : state.error,
    };
  });
}

export function clearSlip(): void {
  update(() => ({ items: [], mode: 'singles', error: null }));
}

export function setStakeText(selectionId: string, stakeText: string): void {
  update((state) => ({
    items: state.items.map((item) => (item.selectionId === selectionId ? { ...item, stakeText } : item)),
    error: null,
  }));
}

export function setAccaStakeText(accaStakeText: string): void {
  update(() => ({ accaStakeText, error: null }));
}

export function setMode(mode: 'singles' | 'acca'): void {
  update((state) => ({ mode: mode === 'acca' && !accaPossible(state.items) ? 'singles' : mode, error: null }));
}

export function acceptOddsChanges(): void {
  update((state) => ({
    items: state.items.map((item) => ({ ...item, accepted: item.odds })),
    error: state.error?.code === 'odds_changed' ? null : state.error,
  }));
}

export function closeReceipt(keepSelections: boolean): void {
  update((state) => {
    if (!keepSelections || !state.receipt) return { receipt: null };
    const present = new Set(state.items.map((item) => item.selectionId));
    const back = state.receipt.items.filter((item) => !present.has(item.selectionId));
    return { receipt: null, items: [...state.items, ...back].slice(0, MAX_SELECTIONS) };
  });
}

function itemStatus(market: Market | undefined, eventStatus: EventStatus): SlipItem['status'] {
  if (!market || !['scheduled', 'live'].includes(eventStatus)) return 'unavailable';
  if (market.status === 'open') return 'open';
  return market.status === 'suspended' ? 'suspended' : 'unavailable';
}

/** Fresh catalog data (a page's poll, the slip's own): new prices and market states of the slip's selections. */
export function applyMarkets(event: EventHeader, markets: Market[], complete: boolean): void {
  const state = slipStore.get();
  let changed = false;
  const items = state.items.map((item) => {
    if (item.eventId !== event.id) return item;
    const market = markets.find((candidate) => candidate.selections.some((s) => s.id === item.selectionId));
    if (!market && !complete) return item;
    const selection = market?.selections.find((s) => s.id === item.selectionId);
    const next: SlipItem = {
      ...item,
      odds: selection?.odds ?? item.odds,
      status: itemStatus(market, event.status),
      live: event.status === 'live',
    };
    if (next.odds === item.odds && next.status === item.status && next.live === item.live) return item;
    changed = true;
    return next;
  });
  if (changed) slipStore.set({ ...state, items });
}

async function refreshSlip(): Promise<void> {
  const events = [...new Set(slipStore.get().items.map((item) => item.eventId))];
  await Promise.all(
    events.map(async (id) => {
      try {
        const { event } = await api.event(id);
        applyMarkets(event, event.markets, true);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          slipStore.set((state) => ({
            ...state,
            items: state.items.map((item) => (item.eventId === id ? { ...item, status: 'unavailable' } : item)),
          }));
        }
      }
    }),
  );
}

/** Keeps the slip's prices fresh while it holds selections and the page is visible. */
export function startSlipRefresh(): void {
  const tick = () => {
    const { items, placing } = slipStore.get();
    const next = () => setTimeout(tick, PAGE_POLL_MS);
    if (items.length === 0 || placing || document.hidden) {
      next();
      return;
    }
    void refreshSlip().finally(next);
  };
  setTimeout(tick, 1000);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One bet, with its request id kept across retries so a lost answer never places it twice. */
async function placeOne(stake: number, items: SlipItem[]) {
  const requestId = newRequestId('slip');
  const body = {
    requestId,
    stake,
    legs: items.map((item) => ({ selectionId: item.selectionId, odds: item.accepted })),
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

/** Places what the slip holds. Anonymous players are sent to the host's log-in (login_required: place_bet). */
export async function placeBets(): Promise<void> {
  const state = slipStore.get();
  if (state.placing || state.items.length === 0) return;
  if (!loggedIn()) {
    requireLogin('place_bet');
    update(() => ({ error: { code: 'login', details: {} } }));
    return;
  }
  if (hasOddsChanges(state.items)) {
    update(() => ({ error: { code: 'odds_changed', details: {} } }));
    return;
  }
  const blocked = state.items.find((item) => item.status !== 'open');
  if (blocked) {
    const code = blocked.status === 'suspended' ? 'market_unavailable' : 'selection_unavailable';
    update(() => ({ error: { code, details: {}, selectionId: blocked.selectionId } }));
    return;
  }
  const slips: Array<{ stake: number; items: SlipItem[] }> = [];
  if (state.mode === 'acca' && accaPossible(state.items)) {
    const stake = stakeOf(state.accaStakeText);
    if (stake) slips.push({ stake, items: state.items });
  } else {
    for (const item of state.items) {
      const stake = stakeOf(item.stakeText);
      if (stake) slips.push({ stake, items: [item] });
    }
  }
  if (slips.length === 0) {
    update(() => ({ error: { code: 'enter_stake', details: {} } }));
    return;
  }

  update(() => ({ placing: true, error: null, receipt: null }));
  const placed: Bet[] = [];
  const placedItems: SlipItem[] = [];
  let failure: SlipError | null = null;
  for (const slip of slips) {
    try {
      const answer = await placeOne(slip.stake, slip.items);
      const { bet } = answer;
      // 201 has the balance after the stake; 200 (an earlier request's bet, replayed) has none
      const balance = 'balance' in answer ? answer.balance : undefined;
      placed.push(bet);
      placedItems.push(...slip.items);
      if (balance) setBalance(balance.balance, balance.currency);
      post('bet_placed', {
        betId: bet.id,
        stake: bet.stake,
        currency: bet.currency,
        potentialPayout: bet.potentialPayout,
        legs: bet.legs.length,
      });
      noteBet(bet);
    } catch (error) {
      failure = asSlipError(error);
      break;
    }
  }
  if (placed.length > 0) betsVersion.set((version) => version + 1);

  const done = new Set(placedItems.map((item) => item.selectionId));
  const changedOdds = new Map<string, string>();
  if (failure?.code === 'odds_changed' && Array.isArray(failure.details.legs)) {
    for (const leg of failure.details.legs as Array<{ selectionId?: unknown; odds?: unknown }>) {
      if (typeof leg.selectionId === 'string' && typeof leg.odds === 'string')
        changedOdds.set(leg.selectionId, leg.odds);
    }
  }
  slipStore.set((current) => ({
    ...current,
    placing: false,
    error: failure,
    receipt: placed.length > 0 ? { bets: placed, items: placedItems } : null,
    items: current.items
      .filter((item) => !done.has(item.selectionId))
      .map((item) => {
        const odds = changedOdds.get(item.selectionId);
        if (odds) return { ...item, odds };
        if (failure?.selectionId !== item.selectionId) return item;
        if (failure.code === 'market_unavailable') return { ...item, status: 'suspended' as const };
        if (failure.code === 'selection_unavailable') return { ...item, status: 'unavailable' as const };
        return item;
      }),
  }));
}
