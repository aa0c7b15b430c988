import { api, shared } from './api.ts';
import { feedSlip } from './catalog.ts';
import { requireLogin, sessionStore } from './session.ts';
import { createStore } from './store.ts';
import type { ApiResponse } from '../../ui-shared/api-shapes.ts';

export type Favourites = ApiResponse<'listFavourites'>;
export type FavouriteKind = 'events' | 'competitions';

/**
 * The player's favourite events and competitions, kept by the server so they follow the player to any device
 * and launch. Read when a session starts, changed at once when the player taps a star (and put back if the
 * server refuses), emptied when the session ends.
 */
export const favouritesStore = createStore<Favourites | null>(null);
/** The ids marked, by kind: what the stars show while the full list (with the events) is read again. */
export const favouriteIds = createStore<Record<FavouriteKind, ReadonlySet<string>>>({
  events: new Set(),
  competitions: new Set(),
});

function idsOf(favourites: Favourites): Record<FavouriteKind, ReadonlySet<string>> {
  return {
    events: new Set(favourites.events.map((favourite) => favourite.id)),
    competitions: new Set(favourites.competitions.map((favourite) => favourite.id)),
  };
}

/**
 * Reads the favourites again; their events' prices go to the bet slip, as every fresh list's do. A session's start
 * and home both ask as the app opens: they share one read.
 */
export const loadFavourites = shared(async (): Promise<Favourites | null> => {
  try {
    const favourites = await api.favourites();
    feedSlip(favourites.events.map((favourite) => favourite.event));
    favouritesStore.set(favourites);
    favouriteIds.set(idsOf(favourites));
    return favourites;
  } catch {
    // the stars stay as they were; the next read puts them right
    return favouritesStore.get();
  }
});

sessionStore.subscribe((session) => {
  if (session) void loadFavourites();
  else {
    favouritesStore.set(null);
    favouriteIds.set({ events: new Set(), competitions: new Set() });
  }
});

/** Marks or unmarks one; an anonymous player is asked to log in first. */
export async function toggleFavourite(kind: FavouriteKind, id: string): Promise<void> {
  if (!sessionStore.get()) {
    requireLogin('login_button');
    return;
  }
  const before = favouriteIds.get();
  const marked = before[kind].has(id);
  const next = new Set(before[kind]);
  if (marked) next.delete(id);
  else next.add(id);
  favouriteIds.set({ ...before, [kind]: next });
  try {
    await (marked ? api.removeFavourite(kind, id) : api.addFavourite(kind, id));
    await loadFavourites();
  } catch {
    favouriteIds.set(before);
  }
}
