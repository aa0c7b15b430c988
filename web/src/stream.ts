import { applyChange, keepNewerOdds, type Change, type TopicBody } from './live-changes.ts';
import { sessionStore } from './session.ts';
import { createStore } from './store.ts';

/**
 * The change stream (GET /api/v1/stream, server-sent events read with a streaming fetch so that the session token
 * stays in the Authorization header): one per iframe, opened when a screen first follows a topic. Screens follow
 * topics (`event:<id>`, `live`, `competition:<id>`, `sport:<id>`, `bets`, `offers`); the topics followed are sent
 * by one PUT, TOPICS_DEBOUNCE_MS after the last change, as the player moves. Each topic's state is its snapshot with
 * the changes since applied (live-changes.ts).
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

/** What a follower hears: the message (undefined for the state it is given on following) and the topic's state. */
export interface TopicUpdate {
  change?: Change | { type: 'snapshot' };
  state: TopicBody | undefined;
  /** the topic cannot be followed (the stream's `unavailable`: not found) */
  unavailable?: { code: string; message: string };
}
type Listener = (update: TopicUpdate) => void;

interface Followed {
  listeners: Set<Listener>;
  state?: TopicBody;
  unavailable?: { code: string; message: string };
}

const followed = new Map<string, Followed>();

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

function notify(topic: string, entry: Followed, change?: TopicUpdate['change']): void {
  const update: TopicUpdate = { change, state: entry.state, unavailable: entry.unavailable };
  for (const listener of [...entry.listeners]) listener(update);
}

/** Follows a topic: the listener hears its current state at once (when there is one), then every change. */
export function follow(topic: string, listener: Listener): () => void {
  let entry = followed.get(topic);
  if (!entry) {
    entry = { listeners: new Set() };
    followed.set(topic, entry);
  }
  entry.listeners.add(listener);
  if (entry.state || entry.unavailable) listener({ state: entry.state, unavailable: entry.unavailable });
  scheduleFlush();
  return () => {
    entry.listeners.delete(listener);
    scheduleFlush();
  };
}

/** Asks for a topic again (after `unavailable`): it is sent as new on the next PUT and gets a snapshot. */
export function retry(topic: string): void {
  const entry = followed.get(topic);
  if (!entry) return;
  entry.unavailable = undefined;
  connection?.sent.delete(topic);
  scheduleFlush();
}

const PLAYER_TOPICS = new Set(['bets', 'offers']);

/** The topics followed now (the player's only with a session). */
function wanted(): string[] {
  const player = sessionStore.get() !== null;
  return [...followed.entries()]
    .filter(([topic, entry]) => entry.listeners.size > 0 && (player || !PLAYER_TOPICS.has(topic)))
    .map(([topic]) => topic);
}

function scheduleFlush(): void {
  clearTimeout(flushTimer);
  flushTimer = setTimeout(flush, TOPICS_DEBOUNCE_MS);
}

/** Sends what is followed now: opens the stream, or replaces its topics. */
function flush(): void {
  for (const [topic, entry] of followed) if (entry.listeners.size === 0) followed.delete(topic);
  const topics = wanted();
  if (streamState.get() === 'polling') return;
  if (!connection) {
    if (topics.length > 0 && reconnectTimer === undefined) open();
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
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.search(/\r?\n\r?\n/)) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + (buffer[end] === '\r' ? 4 : 2));
        if (connection !== current) return;
        handleBlock(current, block);
      }
    }
    if (connection === current) broken(current);
  } catch {
    if (connection !== current || current.controller.signal.aborted) return;
    // a stream that was up and broke counts towards falling back; no network at all is only tried again later
    if (current.streamId) broken(current);
    else end(current, backoff());
  }
}

/** One message: `id:`, `event:`, `data:` lines (comments, the heartbeat, start with `:`). */
function handleBlock(current: Connection, block: string): void {
  let type = 'message';
  let data = '';
  let id: string | undefined;
  for (const line of block.split(/\r?\n/)) {
    if (line === '' || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') id = value;
    else if (field === 'event') type = value;
    else if (field === 'data') data += data ? `\n${value}` : value;
  }
  if (!data) return;
  if (id !== undefined) lastEventId = id;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(data) as Record<string, unknown>;
  } catch {
    return;
  }
  handleMessage(current, type, body);
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
      for (const topic of PLAYER_TOPICS) {
        const entry = followed.get(topic);
        if (!entry) continue;
        entry.state = undefined;
        current.sent.delete(topic);
        current.snapshotted.delete(topic);
      }
      sessionEndedStore.set((count) => count + 1);
      return;
    }
  }
  const topic = body.topic as string | undefined;
  const entry = topic === undefined ? undefined : followed.get(topic);
  if (!topic || !entry) return;
  if (type === 'snapshot') {
    const { topic: _topic, ...snapshot } = body;
    entry.state = keepNewerOdds(entry.state, snapshot);
    entry.unavailable = undefined;
    current.snapshotted.add(topic);
    notify(topic, entry, { type: 'snapshot' });
    return;
  }
  if (type === 'unavailable') {
    entry.unavailable = { code: String(body.code), message: String(body.message) };
    current.sent.delete(topic);
    notify(topic, entry);
    return;
  }
  const change = { type, data: body } as Change;
  if (entry.state) entry.state = applyChange(entry.state, change);
  notify(topic, entry, change);
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
  for (const topic of PLAYER_TOPICS) {
    const entry = followed.get(topic);
    if (entry) entry.state = undefined;
  }
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
