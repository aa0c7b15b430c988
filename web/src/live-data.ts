import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api.ts';
import type { TopicBody } from './live-changes.ts';
import { usePoll, type Polled } from './poll.ts';
import { follow, retry, streamState } from './stream.ts';
import { useStore } from './store.ts';

/**
 * A page's data from the change stream: the topics' snapshots with their changes applied (stream.ts), made into
 * what the page shows by `view`. While the stream is unavailable (`streamState` 'polling'), or when there is no
 * topic to follow, the page reads over HTTP every PAGE_POLL_MS as before (`read`, usePoll). What was shown stays on
 * screen while the source changes. A topic the stream cannot follow (`unavailable`: not found) is the page's error,
 * as the read's 404 would be. While the stream is not live yet, the page is also read once over HTTP and shown
 * until its snapshot comes (the snapshot then takes over).
 */
export function useLive<T>(options: {
  key: string;
  topics: string[];
  read: (signal: AbortSignal, background: boolean) => Promise<T>;
  view: (bodies: TopicBody[]) => T;
  /** a read started before the page (index.html's early reads): shown until the stream's snapshot comes */
  early?: () => Promise<T> | undefined;
  /** nothing is read yet: what to read (the topics) waits for something else (home's sports) */
  paused?: boolean;
}): Polled<T> {
  const { key, topics } = options;
  const mode = useStore(streamState);
  const polling = mode === 'polling' || topics.length === 0;
  const polled = usePoll(options.read, key, undefined, polling && !options.paused);
  const viewRef = useRef(options.view);
  viewRef.current = options.view;
  const earlyRef = useRef(options.early);
  const readRef = useRef(options.read);
  readRef.current = options.read;
  const topicsKey = topics.join(',');

  const [streamed, setStreamed] = useState<{ key: string; data?: T; error?: unknown }>({ key });
  useEffect(() => {
    setStreamed({ key });
    if (topics.length === 0) return;
    const states = new Map<string, TopicBody | undefined>();
    let scheduled = false;
    let active = true;
    let fromStream = false;
    // While the stream is still coming up (the app's first screen), the page is read over HTTP as well and shown
    // until the snapshot comes: the first content waits for one read, not for the stream's connection.
    const controller = new AbortController();
    const first =
      earlyRef.current?.() ?? (streamState.get() === 'live' ? undefined : readRef.current(controller.signal, true));
    first?.then(
      (data) => {
        if (active && !fromStream) setStreamed({ key, data });
      },
      () => undefined,
    );
    earlyRef.current = undefined;
    // several topics may change at once (a snapshot each): the view is made once for them
    const update = () => {
      if (scheduled) return;
      scheduled = true;
      queueMicrotask(() => {
        scheduled = false;
        if (!active) return;
        const bodies = topics.map((topic) => states.get(topic));
        if (bodies.every((body): body is TopicBody => body !== undefined)) {
          fromStream = true;
          setStreamed({ key, data: viewRef.current(bodies) });
        }
      });
    };
    const stops = topics.map((topic) =>
      follow(topic, ({ state, unavailable }) => {
        if (unavailable) {
          setStreamed((current) => ({
            key,
            data: current.key === key ? current.data : undefined,
            error: new ApiError(404, unavailable.code, unavailable.message),
          }));
          return;
        }
        states.set(topic, state);
        if (state) update();
      }),
    );
    return () => {
      active = false;
      controller.abort();
      stops.forEach((stop) => stop());
    };
  }, [key, topicsKey]);

  // what was shown last for this key: kept while the source changes (stream to polling and back)
  const shown = useRef<{ key: string; data?: T }>({ key });
  const current = streamed.key === key ? streamed : { key };
  const fresh = polling ? polled.data : current.data;
  if (shown.current.key !== key) shown.current = { key };
  if (fresh !== undefined) shown.current = { key, data: fresh };
  const data = fresh ?? shown.current.data;
  const error = data !== undefined ? undefined : polling ? polled.error : current.error;
  const reload = useCallback(() => {
    if (streamState.get() === 'polling' || topics.length === 0) polled.reload();
    else topics.forEach(retry);
  }, [topicsKey, polled.reload]);
  return { data, error, reload };
}
