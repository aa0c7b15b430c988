import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Loaded<T> =
  { state: 'loading'; data?: T } | { state: 'ready'; data: T } | { state: 'failed'; error: Error; data?: T };

/**
 * Loads what a screen shows, again whenever `key` changes (its filters), cancelling a load that a newer one
 * replaced. `reload()` after a change the screen made; `reloaded()` does the same and resolves once the screen has the
 * newer data (or the load failed), so a screen says "saved" only when what it shows is what was saved.
 */
export function useLoad<T>(
  load: (signal: AbortSignal) => Promise<T>,
  key: string,
): Loaded<T> & { reload: () => void; reloaded: () => Promise<void> } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  const waiting = useRef<(() => void)[]>([]);
  useEffect(() => {
    const controller = new AbortController();
    const settle = (next: (previous: Loaded<T>) => Loaded<T>) => {
      if (controller.signal.aborted) return;
      setLoaded(next);
      for (const resolve of waiting.current.splice(0)) resolve();
    };
    setLoaded((previous) => ({ state: 'loading', data: previous.data }));
    loadRef.current(controller.signal).then(
      (data) => settle(() => ({ state: 'ready', data })),
      (error: Error) => settle((previous) => ({ state: 'failed', error, data: previous.data })),
    );
    return () => controller.abort();
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  const reloaded = useCallback(
    () =>
      new Promise<void>((resolve) => {
        waiting.current.push(resolve);
        setGeneration((value) => value + 1);
      }),
    [],
  );
  return { ...loaded, reload, reloaded };
}
