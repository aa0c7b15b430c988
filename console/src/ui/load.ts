import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export type Loaded<T> =
  { state: 'loading'; data?: T } | { state: 'ready'; data: T } | { state: 'failed'; error: Error; data?: T };

/**
 * Loads what a screen shows, again whenever `key` changes (its filters), cancelling a load that a newer one
 * replaced. `reload()` after a change the screen made.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, key: string): Loaded<T> & { reload: () => void } {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const [generation, setGeneration] = useState(0);
  const loadRef = useRef(load);
  loadRef.current = load;
  useEffect(() => {
    const controller = new AbortController();
    setLoaded((previous) => ({ state: 'loading', data: previous.data }));
    loadRef.current(controller.signal).then(
      (data) => !controller.signal.aborted && setLoaded({ state: 'ready', data }),
      (error: Error) =>
        !controller.signal.aborted && setLoaded((previous) => ({ state: 'failed', error, data: previous.data })),
    );
    return () => controller.abort();
  }, [key, generation]);
  const reload = useCallback(() => setGeneration((value) => value + 1), []);
  return { ...loaded, reload };
}
