import { useEffect, useState } from 'preact/hooks';

/** A value that components follow: set() re-renders every component that read it with useValue(). */
export class Value<T> {
  #value: T;
  readonly #listeners = new Set<(value: T) => void>();

  constructor(initial: T) {
    this.#value = initial;
  }

  get(): T {
    return this.#value;
  }

  set(value: T): void {
    this.#value = value;
    for (const listener of this.#listeners) listener(value);
  }

  subscribe(listener: (value: T) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

export function useValue<T>(value: Value<T>): T {
  const [current, setCurrent] = useState(value.get());
  useEffect(() => {
    setCurrent(value.get());
    return value.subscribe(setCurrent);
  }, [value]);
  return current;
}
