import { sessionStore } from './session.ts';
import { serverSentEvents, type ServerSentEvent } from './sse.ts';
import { createStore } from './store.ts';
import {
  addListener,
  clearUnavailable,
  forgetPlayerStates,
  forgetUnfollowed,
  isFollowed,
  receive,
  wanted,
  type TopicUpdate,
} from './stream-topics.ts';

/**
 * The change stream (GET /api/v1/stream, server-sent events read with a streaming fetch so that the session token
 * stays in the Authorization header): one per iframe, opened when a screen first follows a topic. Screens follow
 * topics (`event:<id>`, `live`, `competition:<id>`, `sport:<id>`, `bets`, `offers`); the topics followed are sent
 * by one PUT, TOPICS_DEBOUNCE_MS after the last change, as the player moves. Each topic's state is its snapshot with
 * the changes since applied (stream-topics.ts).
 *
 * A broken stream comes back with backoff and jitter, resuming with Last-Event-ID when every topic had its
 * snapshot. When `ready` does not come within READY_TIMEOUT_MS, or the stream breaks BREAKS_TO_POLL times within
 * BREAKS_WINDOW_MS (a proxy that buffers or cuts it), the app polls instead (`streamState` 'polling': the pages
 * read over HTTP every PAGE_POLL_MS) for POLL_FOR_MS, then tries the stream again. A log-in or log-out reopens it
 * (an anonymous stream cannot follow the player's topics).
 */
export type StreamState = 'connecting' | 'live' | 'polling';

const READY_TIMEOUT_MS = 5_000;
const BREAKS_TO_POLL = 3;
const BREAKS_WINDOW_MS = 60_000;
const POLL_FOR_MS = 5 * 60_000;
const TOPICS_DEBOUNCE_MS = 50;
const BACKOFF_MIN_MS = 500;
const BACKOFF_MAX_MS = 30_000;

/** connecting (no stream yet, or coming back), live (ready), polling (the fallback: the pages read over HTTP). */
export const streamState = createStore<StreamState>('connecting');

/** Counts the stream's `session_ended`: the player's session is over on the service (watch.ts checks it). */
export const sessionEndedStore = createStore(0);

interface Connection {
  controller: AbortController;
  token: string | null;
  streamId?: string;
  /** the topics the server follows for this stream, as last sent */
  sent: Set<string>;
  /** topics that had their snapshot on this connection */
  snapshotted: Set<string>;
}

let connection: Connection | null = null;
let lastEventId: string | undefined;
/** The topics that had their snapshot on the last connection: Last-Event-ID is sent when every topic did. */
let resumable = new Set<string>();
let flushTimer: ReturnType<typeof setTimeout> | undefined;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let readyTimer: ReturnType<typeof setTimeout> | undefined;
let attempts = 0;
let breaks: number[] = [];
let sessionToken: string | null = sessionStore.get()?.token ?? null;
/**
 * Whether the stream may open: not before the app knows whose it is. At start-up the launch token is exchanged while
 * the first screen renders; a stream opened then was anonymous, and opened again a moment later for the player (its
 * snapshots read twice). Until then the pages show their HTTP reads.
 */
let started = false;

/** Lets the stream open, once the session the app started with is known (main.tsx). */
export function startStreaming(): void {
  started = true;
  scheduleFlush();
}

/** Follows a topic: the listener hears its current state at once (when there is one), then every change. */
export function follow(topic: string, listener: (update: TopicUpdate) => void): () => void {
  const remove = addListener(topic, listener);
  scheduleFlush();
  return () => {
    remove();
    scheduleFlush();
  };
}

/** Asks for a topic again (after `unavailable`): it is sent as new on the next PUT and gets a snapshot. */
export function retry(topic: string): void {
  if (!clearUnavailable(topic)) return;
  connection?.sent.delete(topic);
  scheduleFlush();
}

function scheduleFlush(): void {
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, TOPICS_DEBOUNCE_MS);
}

/** Sends what is followed now: opens the stream, or replaces its topics. */
function flush(): void {
  forgetUnfollowed();
  const topics = wanted();
  if (streamState.get() === 'polling') return;
  if (!connection) {
    if (started && topics.length > 0 && reconnectTimer === undefined) open();
    return;
  }
  if (!connection.streamId) return; // ready sends what changed meanwhile
  if (topics.length === connection.sent.size && topics.every((topic) => connection!.sent.has(topic))) return;
  void putTopics(connection, topics);
}

async function putTopics(current: Connection, topics: string[]): Promise<void> {
  const previous = current.sent;
  current.sent = new Set(topics);
  for (const topic of previous) if (!current.sent.has(topic)) current.snapshotted.delete(topic);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (current.token) headers.authorization = `Bearer ${current.token}`;
  try {
    const response = await fetch(`/api/v1/stream/${encodeURIComponent(current.streamId!)}/topics`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ topics }),
      cache: 'no-store',
    });
    // read to its end: a body left unread keeps the request open in the browser (and Lighthouse waiting for it)
    await response.text();
    if (!response.ok) throw new Error(`topics: ${response.status}`);
  } catch {
    // the stream is gone (or going): open it again with what is followed now
    if (connection === current) broken(current);
  }
}

function open(): void {
  clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  const topics = wanted();
  if (topics.length === 0) return;
  const token = sessionStore.get()?.token ?? null;
  const resume = lastEventId !== undefined && topics.every((topic) => resumable.has(topic));
  const current: Connection = {
    controller: new AbortController(),
    token,
    sent: new Set(topics),
    // resumed: the topics go on from their snapshots of before
    snapshotted: resume ? new Set(topics) : new Set(),
  };
  connection = current;
  streamState.set('connecting');
  const headers: Record<string, string> = { accept: 'text/event-stream' };
  if (token) headers.authorization = `Bearer ${token}`;
  if (resume) headers['last-event-id'] = lastEventId!;
  resumable = new Set();
  clearTimeout(readyTimer);
  readyTimer = setTimeout(() => {
    // no ready: something between here and the service holds the stream back
    if (connection === current && !current.streamId) fallBack();
  }, READY_TIMEOUT_MS);
  void read(current, topics, headers);
}

async function read(current: Connection, topics: string[], headers: Record<string, string>): Promise<void> {
  try {
    const response = await fetch(`/api/v1/stream?topics=${topics.map(encodeURIComponent).join(',')}`, {
      headers,
      cache: 'no-store',
      // open for as long as the page is shown: it must not hold back the requests of the first screen, and a tool
      // that waits for the page's important requests to end (Lighthouse) does not wait for it
      priority: 'low',
      signal: current.controller.signal,
    });
    if (!response.ok || !response.body) {
      // refused (a proxy's error page, a limit): counts as a break
      if (connection === current) broken(current);
      return;
    }
    for await (const event of serverSentEvents(response.body)) {
      if (connection !== current) return;
      handleEvent(current, event);
    }
    if (connection === current) broken(current);
  } catch {
    if (connection !== current || current.controller.signal.aborted) return;
    // a stream that was up and broke counts towards falling back; no network at all is only tried again later
    if (current.streamId) broken(current);
    else end(current, backoff());
  }
}

/** One event: its id is where the stream resumes; its data, JSON, is the message. */
function handleEvent(current: Connection, event: ServerSentEvent): void {
  if (event.id !== undefined) lastEventId = event.id;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(event.data) as Record<string, unknown>;
  } catch {
    return;
  }
  handleMessage(current, event.type, body);
}

function handleMessage(current: Connection, type: string, body: Record<string, unknown>): void {
  switch (type) {
    case 'ready': {
      clearTimeout(readyTimer);
      current.streamId = body.streamId as string;
      attempts = 0;
      streamState.set('live');
      flush();
      return;
    }
    case 'closed': {
      // the service ends the stream (slow, idle, shutdown): come back, from where it was when it can
      const reason = body.reason as string;
      end(current, reason === 'shutdown' ? backoff() : jitter(BACKOFF_MIN_MS));
      return;
    }
    case 'session_ended': {
      for (const topic of forgetPlayerStates()) {
        current.sent.delete(topic);
        current.snapshotted.delete(topic);
      }
      sessionEndedStore.set((count) => count + 1);
      return;
    }
  }
  const topic = body.topic as string | undefined;
  if (!topic || !isFollowed(topic)) return;
  if (type === 'snapshot') current.snapshotted.add(topic);
  else if (type === 'unavailable') current.sent.delete(topic);
  receive(topic, type, body);
}

function jitter(ms: number): number {
  return Math.round(ms * (0.5 + Math.random()));
}

function backoff(): number {
  attempts += 1;
  return jitter(Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** attempts));
}

/** Stops the connection and opens another after `delay`. */
function end(current: Connection, delay: number): void {
  clearTimeout(readyTimer);
  resumable = current.snapshotted;
  current.controller.abort();
  if (connection === current) connection = null;
  clearTimeout(reconnectTimer);
  reconnectTimer = setTimeout(() => {
    reconnectTimer = undefined;
    open();
  }, delay);
}

/** The stream broke (an error, an end the service did not announce): again soon, or polling after too many. */
function broken(current: Connection): void {
  const now = Date.now();
  breaks = [...breaks.filter((at) => now - at < BREAKS_WINDOW_MS), now];
  if (breaks.length >= BREAKS_TO_POLL) {
    fallBack();
    return;
  }
  end(current, backoff());
}

/** Polling for POLL_FOR_MS, then the stream again. */
function fallBack(): void {
  clearTimeout(readyTimer);
  clearTimeout(reconnectTimer);
  if (connection) connection.controller.abort();
  connection = null;
  breaks = [];
  attempts = 0;
  resumable = new Set();
  streamState.set('polling');
  reconnectTimer = setTimeout(() => {
    reconnectTimer = undefined;
    streamState.set('connecting');
    open();
  }, POLL_FOR_MS);
}

// a log-in or log-out: an anonymous stream cannot follow the player's topics, and a player's must stop at once
sessionStore.subscribe((session) => {
  const token = session?.token ?? null;
  if (token === sessionToken) return;
  sessionToken = token;
  forgetPlayerStates();
  if (!connection) {
    scheduleFlush();
    return;
  }
  const current = connection;
  current.controller.abort();
  connection = null;
  clearTimeout(readyTimer);
  resumable = new Set();
  if (streamState.get() !== 'polling') open();
});
