import { useEffect, useRef, useState } from 'preact/hooks';

/** A value components can watch: the app's whole state management (no library). */
export interface Store<T> {
  get: () => T;
  set: (next: T | ((current: T) => T)) => void;
  subscribe: (listener: (value: T) => void) => () => void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const listeners = new Set<(value: T) => void>();
  return {
    get: () => value,
    set(next) {
      const resolved = typeof next === 'function' ? (next as (current: T) => T)(value) : next;
      if (Object.is(resolved, value)) return;
      value = resolved;
      for (const listener of [...listeners]) listener(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The store's current value; the component renders again when it changes. */
export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(store.get);
  useEffect(() => {
    setValue(() => store.get());
    return store.subscribe((next) => setValue(() => next));
  }, [store]);
  return value;
}

/**
 * A part of the store's value (`select`'s answer); the component renders again only when that part changes, not on
 * every change of the store (an odds button follows whether its selection is in the slip, not the whole slip).
 */
export function useStoreSelect<T, S>(store: Store<T>, select: (value: T) => S): S {
  const value = select(store.get());
  const latest = useRef({ select, value });
  latest.current = { select, value };
  const [, rerender] = useState(0);
  useEffect(() => {
    const check = (next: T) => {
      if (!Object.is(latest.current.select(next), latest.current.value)) rerender((n) => n + 1);
    };
    check(store.get()); // a change between the render and now
    return store.subscribe(check);
  }, [store]);
  return value;
}
