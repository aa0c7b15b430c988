import { api, ApiError, shared } from './api.ts';
import { applyMarkets } from './betslip/slip.ts';
import { createStore } from './store.ts';
import type { EventSummary, SportSummary } from './types.ts';

/** The sports with their event counts: the sports menu and chips. Refreshed by the pages that read them. */
export const sportsStore = createStore<SportSummary[]>([]);
/** Whether the sports have been read yet: until then home cannot tell which sports' topics to follow. */
export const sportsKnown = createStore(false);

/** Reads the sports into sportsStore; the app's start-up, its menu and its pages share a read on its way. */
export const readSports = shared(async () => {
  const { sports } = await api.sports();
  sportsStore.set(sports);
  sportsKnown.set(true);
  return sports;
});

const prefetched = new Map<string, Promise<unknown>>();

/** Starts a read before the page that needs it exists (at start-up, alongside the config). */
export function prefetch<T>(key: string, read: () => Promise<T>): void {
  const promise = read();
  promise.catch(() => undefined);
  prefetched.set(key, promise);
}

/** A prefetched read, once, if there is one. */
export function takeEarly<T>(key: string): Promise<T> | undefined {
  const promise = prefetched.get(key) as Promise<T> | undefined;
  prefetched.delete(key);
  return promise;
}

/** A prefetched read, once; else a fresh one. */
export function early<T>(key: string, read: () => Promise<T>): Promise<T> {
  const promise = prefetched.get(key) as Promise<T> | undefined;
  prefetched.delete(key);
  return promise ?? read();
}

/** Hands fresh prices of listed events to the bet slip. */
export function feedSlip(events: EventSummary[]): EventSummary[] {
  for (const event of events) if (event.mainMarket) applyMarkets(event, [event.mainMarket], false);
  return events;
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}

export function byStart(a: { startsAt: string }, b: { startsAt: string }): number {
  return a.startsAt.localeCompare(b.startsAt);
}
