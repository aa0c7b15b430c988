import { launchParams } from '../launch.ts';
import type { Store } from '../store.ts';
import type { MarketType } from '../types.ts';
import {
  DEFAULT_ACCEPTANCE,
  isDecimalOdds,
  MAX_SELECTIONS,
  ODDS_ACCEPTANCES,
  type OddsAcceptance,
  type SlipItem,
  type SlipState,
} from './slip-rules.ts';

/**
 * What survives a reload: the slip's selections, stakes and choice of odds changes in localStorage, per tenant, and
 * checked when read back.
 */

/** The stored form's version: a value of another version (an older app's) is dropped. */
const STORED_VERSION = 2;
/** Bounds of what is read back: anything longer is not ours. */
const MAX_STORED_CHARS = 64_000;
const MAX_TEXT = 200;
const MAX_STAKE_TEXT = 24;
const MARKET_TYPE = /^[a-z0-9_]{1,40}$/;

const storageKey = () => `bookmaker.slip.${launchParams.tenant ?? ''}`;

const text = (value: unknown, max = MAX_TEXT): value is string => typeof value === 'string' && value.length <= max;
const id = (value: unknown): value is string => text(value, 64) && value.length > 0;

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
    isDecimalOdds(item.odds) &&
    isDecimalOdds(item.accepted) &&
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
    // stored by an app before the in-play delay: none known until the event's next read
    delaySeconds:
      Number.isInteger(item.delaySeconds) && (item.delaySeconds as number) >= 0 && (item.delaySeconds as number) <= 30
        ? (item.delaySeconds as number)
        : 0,
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

/** The slip kept for this tenant, or an empty one. */
export function restoreSlip(): SlipState {
  try {
    return readStored(localStorage.getItem(storageKey()));
  } catch {
    // no storage (blocked third-party storage, private mode): the slip lives as long as the page
    return EMPTY;
  }
}

/** Writes the slip to localStorage whenever what is kept of it changes (removed when nothing is worth keeping). */
export function keepInStorage(slip: Store<SlipState>): void {
  let written = toStored(slip.get());
  slip.subscribe((state) => {
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
}
