import { api, ApiError } from '../api.ts';
import { minorDigits } from '../i18n/index.ts';
import { PAGE_POLL_MS } from '../poll.ts';
import { sessionStore } from '../session.ts';
import { createStore } from '../store.ts';
import type { EventHeader, Market, Selection } from '../types.ts';
import {
  ACCA,
  acceptsChange,
  itemStatus,
  MAX_SELECTIONS,
  repriced,
  type OddsAcceptance,
  type SlipError,
  type SlipItem,
  type SlipState,
} from './slip-rules.ts';
import { keepInStorage, restoreSlip } from './slip-storage.ts';

export type { OddsAcceptance } from './slip-rules.ts';

/**
 * The bet slip: every selection is a single with its own stake, and two or more selections from different events
 * are also an accumulator with a stake of its own; placing sends one request per staked bet. The slip keeps reading
 * the odds of its selections every PAGE_POLL_MS while it has any; a moved price the player's choice of odds changes
 * (none, higher, any) does not accept is shown as old → new and must be accepted before the bets go. Selections,
 * stakes and the choice survive a reload and a new launch token in localStorage, per tenant.
 *
 * This file is the slip's state and what changes it; its rules and arithmetic are slip-rules.ts (pure), what survives a
 * reload slip-storage.ts, placing the bets slip-placement.ts.
 */

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
export function outOfRange(stake: number): SlipError | null {
  const limits = stakeLimits.get();
  if (!limits || (stake >= limits.minStake && stake <= limits.maxStake)) return null;
  return { code: 'stake_out_of_range', details: { ...limits } };
}

// ---- the slip ----

export const slipStore = createStore<SlipState>(restoreSlip());
/** The mobile bet slip sheet is open. */
export const slipOpen = createStore(false);

keepInStorage(slipStore);

// a log-in answers "log in to place a bet" (and "your session ended"): the prompt goes
sessionStore.subscribe((session) => {
  const code = slipStore.get().error?.code;
  if (session && (code === 'login' || code === 'session')) updateSlip(() => ({ error: null }));
});

/** Changes part of the slip. */
export function updateSlip(change: (state: SlipState) => Partial<SlipState>): void {
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
    updateSlip(() => ({ error: { code: 'max_selections', details: {} } }));
    return;
  }
  const item: SlipItem = {
    selectionId: selection.id,
    eventId: event.id,
    home: event.home,
    away: event.away,
    startsAt: event.startsAt,
    live: event.status === 'live',
    delaySeconds: event.betDelaySeconds,
    marketType: market.type,
    line: market.line,
    selectionName: selection.name,
    odds: selection.odds,
    accepted: selection.odds,
    status: market.status === 'open' ? 'open' : 'suspended',
    stakeText: '',
  };
  updateSlip((current) => ({
    items: [...current.items, item],
    error: null,
    failed: without(current.failed, ACCA),
    receipt: null,
  }));
}

export function removeSelection(selectionId: string): void {
  updateSlip((state) => ({
    items: state.items.filter((item) => item.selectionId !== selectionId),
    error: state.error?.selectionId === selectionId ? null : state.error,
    failed: without(state.failed, selectionId, ACCA),
  }));
}

export function clearSlip(): void {
  updateSlip(() => ({ items: [], accaStakeText: '', error: null, failed: {} }));
}

export function setStakeText(selectionId: string, stakeText: string): void {
  updateSlip((state) => ({
    items: state.items.map((item) => (item.selectionId === selectionId ? { ...item, stakeText } : item)),
    error: null,
    failed: without(state.failed, selectionId),
  }));
}

export function setAccaStakeText(accaStakeText: string): void {
  updateSlip((state) => ({ accaStakeText, error: null, failed: without(state.failed, ACCA) }));
}

/** The player's choice of odds changes; moves it now accepts are accepted at once. */
export function setAcceptance(acceptance: OddsAcceptance): void {
  updateSlip((state) => ({
    acceptance,
    items: state.items.map((item) =>
      item.odds !== item.accepted && acceptsChange(acceptance, item.accepted, item.odds)
        ? { ...item, accepted: item.odds }
        : item,
    ),
  }));
}

export function acceptOddsChanges(): void {
  updateSlip((state) => ({
    items: state.items.map((item) => ({ ...item, accepted: item.odds })),
    error: state.error?.code === 'odds_changed' ? null : state.error,
    failed: Object.fromEntries(Object.entries(state.failed).filter(([, failure]) => failure.code !== 'odds_changed')),
  }));
}

export function closeReceipt(keepSelections: boolean): void {
  updateSlip((state) => {
    if (!keepSelections || !state.receipt) return { receipt: null };
    const present = new Set(state.items.map((item) => item.selectionId));
    const back = state.receipt.items
      .filter((item) => !present.has(item.selectionId))
      .map((item) => ({ ...item, stakeText: '' }));
    return { receipt: null, items: [...state.items, ...back].slice(0, MAX_SELECTIONS) };
  });
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
      ...repriced(item, selection?.odds ?? item.odds, state.acceptance),
      status: itemStatus(market, event.status),
      live: event.status === 'live',
      delaySeconds: event.betDelaySeconds,
    };
    const same = next.odds === item.odds && next.status === item.status && next.live === item.live;
    if (same && next.delaySeconds === item.delaySeconds) return item;
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
