import { api, ApiError, newRequestId } from '../api.ts';
import type { ApiRequest } from '../api-shapes.ts';
import { post } from '../bridge.ts';
import { minorDigits, parseMajor } from '../i18n/index.ts';
import { launchParams } from '../launch.ts';
import { PAGE_POLL_MS } from '../poll.ts';
import { betsVersion, loggedIn, requireLogin, sessionStore, setBalance } from '../session.ts';
import { createStore } from '../store.ts';
import type { Bet, EventHeader, EventStatus, Market, MarketType, Selection } from '../types.ts';
import { noteBet } from '../watch.ts';

/**
 * The bet slip: every selection is a single with its own stake, and two or more selections from different events
 * are also an accumulator with a stake of its own; placing sends one request per staked bet. The slip keeps reading
 * the odds of its selections every PAGE_POLL_MS while it has any; a moved price the player's choice of odds changes
 * (none, higher, any) does not accept is shown as old → new and must be accepted before the bets go. Selections,
 * stakes and the choice survive a reload and a new launch token in localStorage, per tenant.
 */
const MAX_SELECTIONS = 20;

/** The key of the accumulator among the slip's bets (a single's key is its selection id). */
export const ACCA = 'acca';

export type OddsAcceptance = NonNullable<ApiRequest<'placeBet'>['acceptOddsChanges']>;
export const ODDS_ACCEPTANCES: readonly OddsAcceptance[] = ['none', 'higher', 'any'];
/** What the service assumes when a slip does not say, and what a new slip starts with. */
const DEFAULT_ACCEPTANCE: OddsAcceptance = 'higher';

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
  /** the price the player has seen and accepted (or their choice accepted for them): the one sent with the bet */
  accepted: string;
  /** the price before the last move, for its direction */
  previous?: string;
  status: 'open' | 'suspended' | 'unavailable';
  /** the single's stake as typed, in major units */
  stakeText: string;
}

export interface SlipError {
  code: string;
  details: Record<string, unknown>;
  selectionId?: string;
}

interface SlipState {
  items: SlipItem[];
  accaStakeText: string;
  acceptance: OddsAcceptance;
  placing: boolean;
  /** what stops the whole slip (log in, no stake, a moved price, the session ended) */
  error: SlipError | null;
  /** why a bet of the last placement was not placed, by its key (ACCA or a single's selection id) */
  failed: Record<string, SlipError>;
  receipt: { bets: Bet[]; items: SlipItem[] } | null;
}

/** One bet the slip would place: a single, or the accumulator of every selection. */
export interface SlipBet {
  key: string;
  stake: number | null;
  items: SlipItem[];
}

// ---- the arithmetic: the service's rules, exactly (src/catalog/odds.ts) ----

/** Decimal odds "2.15" as thousandths (2150), exactly. */
export function oddsMilli(odds: string): bigint {
  const [whole = '0', fraction = ''] = odds.split('.');
  return BigInt(whole) * 1000n + BigInt((fraction + '000').slice(0, 3));
}

/** What a stake pays at these odds: floor(stake × odds…), one floor at the end, as the service pays it. */
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
 * Combined odds of an accumulator as the service records them: the product of the legs, floored to thousandths, in
 * exact integers (a long accumulator's product is past what a float holds exactly). formatOdds shows them as the
 * bookmaker does (two decimals, cut); the payout is computed from the legs, never from this figure.
 */
export function combinedOdds(odds: string[]): string {
  const milli = odds.reduce((product, price) => product * oddsMilli(price), 1000n) / 1000n ** BigInt(odds.length);
  const fraction = String(milli % 1000n)
    .padStart(3, '0')
    .replace(/0$/, '');
  return `${milli / 1000n}.${fraction}`;
}

/** The odds acceptance policy of the service (src/betting/slip-rules.ts): may `current` stand for `seen`? */
export function acceptsChange(acceptance: OddsAcceptance, seen: string, current: string): boolean {
  switch (acceptance) {
    case 'none':
      return oddsMilli(current) === oddsMilli(seen);
    case 'higher':
      return oddsMilli(current) >= oddsMilli(seen);
    case 'any':
      return true;
  }
}

export function stakeOf(text: string): number | null {
  const value = parseMajor(text);
  return value !== null && value > 0 ? value : null;
}

export function accaPossible(items: SlipItem[]): boolean {
  return items.length >= 2 && new Set(items.map((item) => item.eventId)).size === items.length;
}

/** A price moved in a way the player has not accepted. */
export function hasOddsChanges(items: SlipItem[]): boolean {
  return items.some((item) => item.odds !== item.accepted);
}

/** The bets of the slip, staked or not: each selection's single, then the accumulator when one is possible. */
export function slipBets(state: Pick<SlipState, 'items' | 'accaStakeText'>): SlipBet[] {
  const bets: SlipBet[] = state.items.map((item) => ({
    key: item.selectionId,
    stake: stakeOf(item.stakeText),
    items: [item],
  }));
  if (accaPossible(state.items)) bets.push({ key: ACCA, stake: stakeOf(state.accaStakeText), items: state.items });
  return bets;
}

/** What a bet pays if it wins: its stake at the current odds of its legs, the odds it is placed at. */
export function betPayout(bet: SlipBet): number {
  return bet.stake
    ? payout(
        bet.stake,
        bet.items.map((item) => item.odds),
      )
    : 0;
}

/** The staked bets, their total stake and their total potential payout. */
export function slipTotals(state: Pick<SlipState, 'items' | 'accaStakeText'>) {
  const staked = slipBets(state).filter((bet) => bet.stake !== null);
  return {
    count: staked.length,
    stake: staked.reduce((sum, bet) => sum + bet.stake!, 0),
    payout: staked.reduce((sum, bet) => sum + betPayout(bet), 0),
  };
}

// ---- the tenant's stake range and the quick stakes ----

/** The tenant's stake range in minor units, when the app knows it (the config, or the service's last refusal). */
export const stakeLimits = createStore<{ minStake: number; maxStake: number } | null>(null);

/** The player's own quick stakes in minor units (their settings); null: DEFAULT_QUICK_STAKES. */
export const quickStakesStore = createStore<number[] | null>(null);
/** In major units of the tenant currency. */
const DEFAULT_QUICK_STAKES = [5, 10, 25, 50];

export function quickStakes(): number[] {
  return quickStakesStore.get() ?? DEFAULT_QUICK_STAKES.map((amount) => amount * 10 ** minorDigits());
}

/** A quick stake added to what is typed, kept within the stake range. */
export function addQuickStake(current: number | null, amount: number): number {
  const limits = stakeLimits.get();
  const sum = (current ?? 0) + amount;
  if (!limits) return sum;
  return Math.min(Math.max(sum, limits.minStake), limits.maxStake);
}

/** The stake is outside the tenant's range, as the service would refuse it. */
function outOfRange(stake: number): SlipError | null {
  const limits = stakeLimits.get();
  if (!limits || (stake >= limits.minStake && stake <= limits.maxStake)) return null;
  return { code: 'stake_out_of_range', details: { ...limits } };
}

// ---- what survives a reload: localStorage, per tenant, checked when read back ----

/** The stored form's version: a value of another version (an older app's) is dropped. */
const STORED_VERSION = 2;
/** Bounds of what is read back: anything longer is not ours. */
const MAX_STORED_CHARS = 64_000;
const MAX_TEXT = 200;
const MAX_STAKE_TEXT = 24;
const ODDS = /^\d{1,4}(\.\d{1,3})?$/;
const MARKET_TYPE = /^[a-z0-9_]{1,40}$/;

const storageKey = () => `bookmaker.slip.${launchParams.tenant ?? ''}`;

const text = (value: unknown, max = MAX_TEXT): value is string => typeof value === 'string' && value.length <= max;
const id = (value: unknown): value is string => text(value, 64) && value.length > 0;
const odds = (value: unknown): value is string => typeof value === 'string' && ODDS.test(value);

/** One stored selection, if it is one; anything else is dropped. */
function storedItem(value: unknown): SlipItem | null {
  if (typeof value !== 'object' || value === null) return null;
  const item = value as Record<string, unknown>;
  const valid =
    id(item.selectionId) &&
    id(item.eventId) &&
    text(item.home) &&
    text(item.away) &&
    text(item.startsAt, 40) &&
    typeof item.live === 'boolean' &&
    typeof item.marketType === 'string' &&
    MARKET_TYPE.test(item.marketType) &&
    (item.line === null || text(item.line, 12)) &&
    text(item.selectionName) &&
    odds(item.odds) &&
    odds(item.accepted) &&
    (item.status === 'open' || item.status === 'suspended' || item.status === 'unavailable') &&
    text(item.stakeText, MAX_STAKE_TEXT);
  if (!valid) return null;
  return {
    selectionId: item.selectionId,
    eventId: item.eventId,
    home: item.home,
    away: item.away,
    startsAt: item.startsAt,
    live: item.live,
    marketType: item.marketType as MarketType,
    line: item.line as string | null,
    selectionName: item.selectionName,
    odds: item.odds,
    accepted: item.accepted,
    status: item.status,
    stakeText: item.stakeText,
  } as SlipItem;
}

const EMPTY: SlipState = {
  items: [],
  accaStakeText: '',
  acceptance: DEFAULT_ACCEPTANCE,
  placing: false,
  error: null,
  failed: {},
  receipt: null,
};

/**
 * The slip as stored: selections (each once, MAX_SELECTIONS at most), stakes and the choice of odds changes. A value
 * that is not one (corrupt, too long, of another version) is dropped whole; a selection that is not one, alone.
 */
export function readStored(raw: string | null): SlipState {
  if (!raw || raw.length > MAX_STORED_CHARS) return EMPTY;
  let saved: unknown;
  try {
    saved = JSON.parse(raw);
  } catch {
    return EMPTY;
  }
  if (typeof saved !== 'object' || saved === null) return EMPTY;
  const { v, items, accaStakeText, acceptance } = saved as Record<string, unknown>;
  if (v !== STORED_VERSION || !Array.isArray(items)) return EMPTY;
  const seen = new Set<string>();
  const kept: SlipItem[] = [];
  for (const value of items.slice(0, MAX_SELECTIONS)) {
    const item = storedItem(value);
    if (!item || seen.has(item.selectionId)) continue;
    seen.add(item.selectionId);
    kept.push(item);
  }
  return {
    ...EMPTY,
    items: kept,
    accaStakeText: text(accaStakeText, MAX_STAKE_TEXT) ? accaStakeText : '',
    acceptance: ODDS_ACCEPTANCES.includes(acceptance as OddsAcceptance)
      ? (acceptance as OddsAcceptance)
      : DEFAULT_ACCEPTANCE,
  };
}

/** What is stored of the slip; null when there is nothing worth keeping (nothing is written then). */
function toStored(state: SlipState): string | null {
  const { items, accaStakeText, acceptance } = state;
  if (items.length === 0 && acceptance === DEFAULT_ACCEPTANCE) return null;
  // the direction of the last move is for the moment only
  const kept = items.map(({ previous: _previous, ...item }) => item);
  return JSON.stringify({ v: STORED_VERSION, items: kept, accaStakeText, acceptance });
}

function restore(): SlipState {
  try {
    return readStored(localStorage.getItem(storageKey()));
  } catch {
    // no storage (blocked third-party storage, private mode): the slip lives as long as the page
    return EMPTY;
  }
}

export const slipStore = createStore<SlipState>(restore());
/** The mobile bet slip sheet is open. */
export const slipOpen = createStore(false);

let written = toStored(slipStore.get());
slipStore.subscribe((state) => {
  const next = toStored(state);
  if (next === written) return;
  written = next;
  try {
    if (next === null) localStorage.removeItem(storageKey());
    else localStorage.setItem(storageKey(), next);
  } catch {
    // no storage, or full: the slip lives as long as the page
  }
});

// a log-in answers "log in to place a bet" (and "your session ended"): the prompt goes
sessionStore.subscribe((session) => {
  const code = slipStore.get().error?.code;
  if (session && (code === 'login' || code === 'session')) update(() => ({ error: null }));
});

function update(change: (state: SlipState) => Partial<SlipState>): void {
  slipStore.set((state) => ({ ...state, ...change(state) }));
}

/** The failures of the last placement, less those of these bets. */
function without(failed: Record<string, SlipError>, ...keys: string[]): Record<string, SlipError> {
  if (!keys.some((key) => key in failed)) return failed;
  return Object.fromEntries(Object.entries(failed).filter(([key]) => !keys.includes(key)));
}

function inSlip(selectionId: string): boolean {
  return slipStore.get().items.some((item) => item.selectionId === selectionId);
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
    stakeText: '',
  };
  update((current) => ({
    items: [...current.items, item],
    error: null,
    failed: without(current.failed, ACCA),
    receipt: null,
  }));
}

export function removeSelection(selectionId: string): void {
  update((state) => ({
    items: state.items.filter((item) => item.selectionId !== selectionId),
    error: state.error?.selectionId === selectionId ? null : state.error,
    failed: without(state.failed, selectionId, ACCA),
  }));
}

export function clearSlip(): void {
  update(() => ({ items: [], accaStakeText: '', error: null, failed: {} }));
}

export function setStakeText(selectionId: string, stakeText: string): void {
  update((state) => ({
    items: state.items.map((item) => (item.selectionId === selectionId ? { ...item, stakeText } : item)),
    error: null,
    failed: without(state.failed, selectionId),
  }));
}

export function setAccaStakeText(accaStakeText: string): void {
  update((state) => ({ accaStakeText, error: null, failed: without(state.failed, ACCA) }));
}

/** The player's choice of odds changes; moves it now accepts are accepted at once. */
export function setAcceptance(acceptance: OddsAcceptance): void {
  update((state) => ({
    acceptance,
    items: state.items.map((item) =>
      item.odds !== item.accepted && acceptsChange(acceptance, item.accepted, item.odds)
        ? { ...item, accepted: item.odds }
        : item,
    ),
  }));
}

export function acceptOddsChanges(): void {
  update((state) => ({
    items: state.items.map((item) => ({ ...item, accepted: item.odds })),
    error: state.error?.code === 'odds_changed' ? null : state.error,
    failed: Object.fromEntries(Object.entries(state.failed).filter(([, failure]) => failure.code !== 'odds_changed')),
  }));
}

export function closeReceipt(keepSelections: boolean): void {
  update((state) => {
    if (!keepSelections || !state.receipt) return { receipt: null };
    const present = new Set(state.items.map((item) => item.selectionId));
    const back = state.receipt.items
      .filter((item) => !present.has(item.selectionId))
      .map((item) => ({ ...item, stakeText: '' }));
    return { receipt: null, items: [...state.items, ...back].slice(0, MAX_SELECTIONS) };
  });
}

/** A new price for a selection of the slip: accepted at once if the player's choice accepts the move. */
function moved(item: SlipItem, odds: string, acceptance: OddsAcceptance): SlipItem {
  if (odds === item.odds) return item;
  const accepted = acceptsChange(acceptance, item.accepted, odds) ? odds : item.accepted;
  return { ...item, odds, accepted, previous: item.odds };
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
      ...moved(item, selection?.odds ?? item.odds, state.acceptance),
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
    events.map(async (eventId) => {
      try {
        const { event } = await api.event(eventId);
        applyMarkets(event, event.markets, true);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          slipStore.set((state) => ({
            ...state,
            items: state.items.map((item) => (item.eventId === eventId ? { ...item, status: 'unavailable' } : item)),
          }));
        }
      }
    }),
  );
}

/**
 * Keeps the slip's prices fresh while it holds selections and the page is visible; a slip kept from before (a
 * reload, a new launch) is read at once: its prices may have moved and its selections gone meanwhile.
 */
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
  tick();
}

// ---- placing ----

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
      if (typeof leg.selectionId === 'string' && odds(leg.odds)) prices.set(leg.selectionId, leg.odds);
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
    update(() => ({ error: { code: 'login', details: {} } }));
    return;
  }
  if (hasOddsChanges(state.items)) {
    update(() => ({ error: { code: 'odds_changed', details: {} } }));
    return;
  }
  const bets = slipBets(state).filter((bet) => bet.stake !== null);
  if (bets.length === 0) {
    update(() => ({ error: { code: 'enter_stake', details: {} } }));
    return;
  }
  const blocked = bets.flatMap((bet) => bet.items).find((item) => item.status !== 'open');
  if (blocked) {
    const code = blocked.status === 'suspended' ? 'market_unavailable' : 'selection_unavailable';
    update(() => ({ error: { code, details: {}, selectionId: blocked.selectionId } }));
    return;
  }
  const outside = bets.flatMap((bet) => {
    const failure = outOfRange(bet.stake!);
    return failure ? [[bet.key, failure] as const] : [];
  });
  if (outside.length > 0) {
    update(() => ({ error: null, failed: Object.fromEntries(outside) }));
    return;
  }

  update(() => ({ placing: true, error: null, failed: {}, receipt: null }));
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
