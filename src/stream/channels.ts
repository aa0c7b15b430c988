/**
 * The channels feeding the streams, by key, and who reads each: a channel is made when a first stream follows its
 * topic, starts its time unwatched when its last reader leaves, and is forgotten a while later (or at once, when the
 * service asks), so that a stream that comes back quickly resumes it. The hub (hub.ts) decides what is written to
 * whom and when; this keeps the channels' bookkeeping apart from that, in one place.
 */
import type { StreamConnection } from './connection.ts';
import { PLAYER_TOPICS, type Topic } from './topics.ts';

/**
 * What feeds a topic: a catalog topic has one channel for every stream; a player's topic one per player. A channel
 * holds its last snapshot, encoded once for every reader, and what its source compares the next reading with.
 */
export interface Channel {
  readonly key: string;
  readonly topic: Topic;
  readonly playerId: string | undefined;
  /** Streams that have its snapshot and get its changes. */
  readonly readers: Set<StreamConnection>;
  /** Streams waiting for its first snapshot. */
  readonly waiting: Set<StreamConnection>;
  /** The sequence when it began to be watched: a stream that last saw an earlier one cannot resume it. */
  since: number;
  snapshot: object | undefined;
  /** The snapshot's message body as last encoded, and the snapshot it encodes. */
  encoded?: { of: object | undefined; bytes: Buffer };
  /** What the source compares the next reading with. */
  state: unknown;
  loading: boolean;
  /** When its last reader left (performance.now()); it is forgotten a while later. */
  unwatchedAt: number | undefined;
}

/** Reads a channel's snapshot and its state; a player's channel reads as the given stream's session. */
export type ChannelReader = (
  channel: Channel,
  reader: StreamConnection,
) => Promise<{ snapshot: object; state: unknown }>;

/** A channel nobody follows is kept this long, so a stream that comes back quickly resumes it. */
const KEEP_UNWATCHED_MS = 60_000;

/** The key of the channel that feeds a topic to a stream: a player's topic has one per player. */
export function channelKey(connection: StreamConnection, topic: Topic): string {
  return PLAYER_TOPICS.includes(topic.kind) ? `${topic.key}@${connection.session!.playerId}` : topic.key;
}

export class Channels {
  readonly #byKey = new Map<string, Channel>();

  get size(): number {
    return this.#byKey.size;
  }

  values(): IterableIterator<Channel> {
    return this.#byKey.values();
  }

  get(key: string): Channel | undefined {
    return this.#byKey.get(key);
  }

  /** The channel of `key`, made for the stream's topic at sequence `since` when there is none; watched either way. */
  watch(key: string, connection: StreamConnection, topic: Topic, since: number): Channel {
    let channel = this.#byKey.get(key);
    if (!channel) {
      channel = {
        key,
        topic,
        playerId: connection.session && PLAYER_TOPICS.includes(topic.kind) ? connection.session.playerId : undefined,
        readers: new Set(),
        waiting: new Set(),
        since,
        snapshot: undefined,
        state: undefined,
        loading: false,
        unwatchedAt: undefined,
      };
      this.#byKey.set(key, channel);
    }
    channel.unwatchedAt = undefined;
    return channel;
  }

  /** A stream reads the channel again (it resumed), which is watched again. */
  join(channel: Channel, connection: StreamConnection): void {
    channel.readers.add(connection);
    channel.unwatchedAt = undefined;
  }

  /** A stream stops reading or waiting for the channel of `key`; the last to leave starts its time unwatched. */
  leave(key: string, connection: StreamConnection): void {
    const channel = this.#byKey.get(key);
    if (!channel) return;
    channel.readers.delete(connection);
    channel.waiting.delete(connection);
    if (channel.readers.size === 0 && channel.waiting.size === 0) channel.unwatchedAt = performance.now();
  }

  delete(key: string): void {
    this.#byKey.delete(key);
  }

  /**
   * Lets go of every channel nobody follows now: what they hold may be older than the database (notifications
   * missed), so a stream coming back to one reads it afresh instead of resuming it.
   */
  dropUnwatched(): void {
    for (const channel of [...this.#byKey.values()]) {
      if (channel.readers.size === 0 && channel.waiting.size === 0) this.#byKey.delete(channel.key);
    }
  }

  /** Forgets the channels nobody has followed for a while, as of `now` (performance.now()). */
  expire(now: number): void {
    for (const channel of [...this.#byKey.values()]) {
      if (channel.unwatchedAt !== undefined && now - channel.unwatchedAt >= KEEP_UNWATCHED_MS)
        this.#byKey.delete(channel.key);
    }
  }
}
