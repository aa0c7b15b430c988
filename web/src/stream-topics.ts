import { applyChange, keepNewerOdds, type Change, type TopicBody } from './live-changes.ts';
import { sessionStore } from './session.ts';

/**
 * The topics screens follow on the change stream (stream.ts): each topic's listeners and its state, the snapshot
 * with the changes since applied (live-changes.ts), or why it cannot be followed. What the stream's connection
 * sends and resumes is stream.ts's; this is what the screens hear.
 */

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

/** The player's own topics: followed only with a session. */
const PLAYER_TOPICS = new Set(['bets', 'offers']);

function notify(entry: Followed, change?: TopicUpdate['change']): void {
  const update: TopicUpdate = { change, state: entry.state, unavailable: entry.unavailable };
  for (const listener of [...entry.listeners]) listener(update);
}

/** Adds a topic's listener, which hears the topic's current state at once (when there is one); returns its removal. */
export function addListener(topic: string, listener: Listener): () => void {
  let entry = followed.get(topic);
  if (!entry) {
    entry = { listeners: new Set() };
    followed.set(topic, entry);
  }
  entry.listeners.add(listener);
  if (entry.state || entry.unavailable) listener({ state: entry.state, unavailable: entry.unavailable });
  return () => entry.listeners.delete(listener);
}

/** Forgets a followed topic's `unavailable`; false when the topic is not followed. */
export function clearUnavailable(topic: string): boolean {
  const entry = followed.get(topic);
  if (!entry) return false;
  entry.unavailable = undefined;
  return true;
}

/** Forgets the topics no screen listens to any more. */
export function forgetUnfollowed(): void {
  for (const [topic, entry] of followed) if (entry.listeners.size === 0) followed.delete(topic);
}

/** The topics followed now (the player's only with a session). */
export function wanted(): string[] {
  const player = sessionStore.get() !== null;
  return [...followed.entries()]
    .filter(([topic, entry]) => entry.listeners.size > 0 && (player || !PLAYER_TOPICS.has(topic)))
    .map(([topic]) => topic);
}

/** Forgets the states of the player's topics (the session ended or changed); returns those followed. */
export function forgetPlayerStates(): string[] {
  const forgotten: string[] = [];
  for (const topic of PLAYER_TOPICS) {
    const entry = followed.get(topic);
    if (!entry) continue;
    entry.state = undefined;
    forgotten.push(topic);
  }
  return forgotten;
}

/** Whether a screen follows the topic (its messages are for someone). */
export function isFollowed(topic: string): boolean {
  return followed.has(topic);
}

/** A stream message for a followed topic (`snapshot`, `unavailable` or a change): its state follows, its listeners hear. */
export function receive(topic: string, type: string, body: Record<string, unknown>): void {
  const entry = followed.get(topic);
  if (!entry) return;
  if (type === 'snapshot') {
    const { topic: _topic, ...snapshot } = body;
    entry.state = keepNewerOdds(entry.state, snapshot);
    entry.unavailable = undefined;
    notify(entry, { type: 'snapshot' });
    return;
  }
  if (type === 'unavailable') {
    entry.unavailable = { code: String(body.code), message: String(body.message) };
    notify(entry);
    return;
  }
  const change = { type, data: body } as Change;
  if (entry.state) entry.state = applyChange(entry.state, change);
  notify(entry, change);
}
