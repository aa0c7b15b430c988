import { useEffect } from 'preact/hooks';

/** Changes that are this close together reload the page once. */
const GATHER_MS = 400;
const CHANGES = ['odds', 'market', 'event'] as const;

/**
 * Calls `changed` when the server says the event changed (a feed's price, another trader's status, a settlement):
 * the players' change stream (docs/stream.md), which anyone may follow, tells the page to read it again, so a price
 * on screen is never older than the server's by more than a moment.
 */
export function useEventChanges(eventId: string, changed: () => void): void {
  useEffect(() => {
    if (typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(`/api/v1/stream?topics=${encodeURIComponent(`event:${eventId}`)}`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const gathered = () => {
      clearTimeout(timer);
      timer = setTimeout(changed, GATHER_MS);
    };
    for (const type of CHANGES) source.addEventListener(type, gathered);
    return () => {
      clearTimeout(timer);
      source.close();
    };
    // `changed` is the page's reload: the same for the page's life, so only the event restarts the stream
  }, [eventId]);
}
