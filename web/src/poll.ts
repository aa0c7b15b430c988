import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/**
 * A page's data read over HTTP: again every PAGE_POLL_MS (5 s) while the iframe is visible, or only when asked
 * (`interval` null). A hidden page stops polling and reads at once when shown again. Catalog pages follow the change
 * stream instead (live-data.ts) and poll only while the stream is unavailable.
 */
export const PAGE_POLL_MS = 5_000;

export interface Polled<T> {
  data: T | undefined;
  /** the last failure while there is no data to show (a failed refresh keeps the data on screen) */
  error: unknown;
  reload: () => void;
}

export function usePoll<T>(
  load: (signal: AbortSignal, background: boolean) => Promise<T>,
  key: string,
  interval: number | null = PAGE_POLL_MS,
  enabled = true,
): Polled<T> {
  const [state, setState] = useState<{ key: string; data?: T; error?: unknown }>({ key });
  const loadRef = useRef(load);
  loadRef.current = load;
  const kick = useRef<() => void>(() => {});

  useEffect(() => {
    let active = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let controller: AbortController | null = null;
    setState({ key });
    if (!enabled) return;

    // `background`: a timer's or the tab's return, not the player's doing (not session activity)
    const run = async (background = false) => {
      clearTimeout(timer);
      if (!active) return;
      if (document.hidden) return;
      controller?.abort();
      controller = new AbortController();
      const signal = controller.signal;
      try {
        const data = await loadRef.current(signal, background);
        if (active && !signal.aborted) setState({ key, data });
      } catch (error) {
        if (active && !signal.aborted) setState((current) => ({ key, data: current.data, error }));
      }
      if (active && !signal.aborted && interval !== null) timer = setTimeout(() => void run(true), interval);
    };
    const onVisibility = () => {
      if (!document.hidden) void run(true);
    };
    kick.current = () => void run();
    document.addEventListener('visibilitychange', onVisibility);
    void run();
    return () => {
      active = false;
      clearTimeout(timer);
      controller?.abort();
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [key, interval, enabled]);

  const reload = useCallback(() => kick.current(), []);
  const current = state.key === key ? state : { key };
  return { data: current.data, error: current.data === undefined ? current.error : undefined, reload };
}
