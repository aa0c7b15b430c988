import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock } from '../platform/clock.ts';
import type { StreamSettings } from '../platform/config.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import { channelKey, Channels, type Channel, type ChannelReader } from './channels.ts';
import { StreamConnection } from './connection.ts';
import { streamErrors } from './errors.ts';
import { encodeMessage, HEARTBEAT, Replay } from './messages.ts';
import { PLAYER_TOPICS, type Topic } from './topics.ts';

type HubDeps = {
  settings: StreamSettings;
  clock: Clock;
  read: ChannelReader;
  /** Told of each message encoded and each stream the service closes. */
  counted?: { sent(type: string): void; closed(reason: string): void };
  /** A player's session that looks over is checked again (the player may have been active since). */
  recheck: (session: SessionPrincipal) => Promise<SessionPrincipal | undefined>;
  log: { warn(object: object, message: string): void };
};

/**
 * The open streams and the channels feeding them: one sequence for every message, the last messages kept for
 * streams that resume, limits per address and in all, heartbeats, idle and slow streams closed.
 */
export class StreamHub {
  readonly #deps: HubDeps;
  readonly #epoch = randomBytes(4).toString('hex');
  #seq = 0;
  readonly #replay: Replay;
  readonly #connections = new Map<string, StreamConnection>();
  readonly #perAddress = new Map<string, number>();
  readonly #channels = new Channels();
  /** The sockets of the streams, ended or not: a stream's socket may outlive it, and must not hold a shutdown. */
  readonly #sockets = new Set<Socket>();
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(deps: HubDeps) {
    this.#deps = deps;
    this.#replay = new Replay(deps.settings.replayMessages);
    this.#timer = setInterval(() => void this.#beat(), deps.settings.heartbeatSeconds * 1000);
    this.#timer.unref();
  }

  get size(): number {
    return this.#connections.size;
  }

  /** Channels watched now, or kept a while after their last reader left. */
  get channelCount(): number {
    return this.#channels.size;
  }

  /** Refuses a stream past the limits, before anything is written. */
  admit(address: string): void {
    if (this.#connections.size >= this.#deps.settings.maxConnections) throw streamErrors.stream_capacity();
    if ((this.#perAddress.get(address) ?? 0) >= this.#deps.settings.maxPerAddress)
      throw streamErrors.too_many_streams();
  }

  /** A new stream: `ready`, then what it missed since `lastEventId` when that can be resumed, else snapshots. */
  open(
    response: ServerResponse,
    options: {
      address: string;
      session: SessionPrincipal | undefined;
      topics: Topic[];
      lastEventId: string | undefined;
    },
  ): StreamConnection {
    this.admit(options.address);
    const connection = new StreamConnection(response, {
      address: options.address,
      session: options.session,
      bufferBytes: this.#deps.settings.bufferBytes,
      onSlow: (slow) => this.close(slow, 'slow'),
    });
    this.#connections.set(connection.id, connection);
    this.#perAddress.set(options.address, (this.#perAddress.get(options.address) ?? 0) + 1);
    const socket = response.socket;
    if (socket) {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    }
    response.on('close', () => {
      this.#forget(connection);
      // A client that leaves may half-close its side; ours would stay open for a response that never ends.
      socket?.destroy();
    });
    connection.write(
      encodeMessage('ready', {
        streamId: connection.id,
        topics: options.topics.map((topic) => topic.key),
        heartbeatSeconds: this.#deps.settings.heartbeatSeconds,
      }),
    );
    this.#follow(connection, options.topics, this.#resumePoint(options.lastEventId));
    return connection;
  }

  find(streamId: string): StreamConnection | undefined {
    const connection = this.#connections.get(streamId);
    return connection?.closed ? undefined : connection;
  }

  /** The stream now follows exactly `topics`: new ones start with their snapshot, dropped ones stop at once. */
  follow(connection: StreamConnection, topics: Topic[]): void {
    this.#follow(connection, topics, undefined);
  }

  /** Stops a stream's player topics (its session ended), telling it so. */
  endSession(connection: StreamConnection): void {
    connection.session = undefined;
    for (const topic of PLAYER_TOPICS) this.#unfollow(connection, topic);
    connection.write(encodeMessage('session_ended', {}));
  }

  connections(): IterableIterator<StreamConnection> {
    return this.#connections.values();
  }

  channels(): IterableIterator<Channel> {
    return this.#channels.values();
  }

  channel(key: string): Channel | undefined {
    return this.#channels.get(key);
  }

  /** Lets go of every channel nobody follows now (channels.ts says why). */
  dropUnwatched(): void {
    this.#channels.dropUnwatched();
  }

  /** Changes of a channel, each with the next sequence, written to its readers together: one write per reader. */
  publish(channel: Channel, messages: Array<{ type: string; data: object }>): void {
    if (messages.length === 0) return;
    const encoded = messages.map(({ type, data }) => {
      this.#deps.counted?.sent(type);
      const seq = ++this.#seq;
      const bytes = encodeMessage(type, { topic: channel.topic.key, ...data }, `${this.#epoch}-${seq}`);
      this.#replay.keep({ seq, channel: channel.key, bytes });
      return bytes;
    });
    const bytes = encoded.length === 1 ? encoded[0]! : Buffer.concat(encoded);
    for (const reader of channel.readers) reader.write(bytes);
  }

  /** A new snapshot of a channel (its first, or a change its readers cannot patch), for readers and waiters. */
  snapshot(channel: Channel, snapshot: object, state: unknown): void {
    channel.snapshot = snapshot;
    channel.state = state;
    this.#deps.counted?.sent('snapshot');
    const bytes = this.#snapshotBytes(channel);
    for (const reader of [...channel.readers, ...channel.waiting]) {
      reader.write(bytes);
      channel.readers.add(reader);
    }
    channel.waiting.clear();
  }

  close(connection: StreamConnection, reason: string): void {
    if (!connection.closed) this.#deps.counted?.closed(reason);
    connection.close(reason);
    this.#forget(connection);
  }

  /** Every stream ends (the service stops). */
  closeAll(): void {
    clearInterval(this.#timer);
    for (const connection of [...this.#connections.values()]) this.close(connection, 'shutdown');
    // Their last bytes are written; a socket the client left without closing would otherwise hold the shutdown.
    setImmediate(() => this.#sockets.forEach((socket) => socket.destroy()));
  }

  /** The channel's snapshot with the current sequence: its body encoded once per snapshot, whoever joins. */
  #snapshotBytes(channel: Channel): Buffer {
    let encoded = channel.encoded;
    if (!encoded || encoded.of !== channel.snapshot) {
      encoded = {
        of: channel.snapshot,
        bytes: encodeMessage('snapshot', { topic: channel.topic.key, ...channel.snapshot }),
      };
      channel.encoded = encoded;
    }
    return Buffer.concat([Buffer.from(`id: ${this.#epoch}-${this.#seq}\n`), encoded.bytes]);
  }

  /** The sequence a stream last saw, when it is one of this run's. */
  #resumePoint(lastEventId: string | undefined): number | undefined {
    const match = /^([0-9a-f]{8})-(\d{1,15})$/.exec(lastEventId ?? '');
    if (!match || match[1] !== this.#epoch) return undefined;
    const seq = Number(match[2]);
    return seq <= this.#seq ? seq : undefined;
  }

  #follow(connection: StreamConnection, topics: Topic[], resumeFrom: number | undefined): void {
    const wanted = new Map(topics.map((topic) => [topic.key, topic]));
    for (const key of [...connection.topics.keys()]) if (!wanted.has(key)) this.#unfollow(connection, key);
    const fresh = topics.filter((topic) => !connection.topics.has(topic.key));
    const resumable = new Map<string, Channel>();
    for (const topic of fresh) {
      const key = channelKey(connection, topic);
      connection.topics.set(topic.key, key);
      const existing = this.#channels.get(key);
      if (resumeFrom !== undefined && existing?.snapshot && !existing.loading && existing.since <= resumeFrom)
        resumable.set(key, existing);
    }
    const missed =
      resumeFrom === undefined ? undefined : this.#replay.after(resumeFrom, new Set(resumable.keys()), this.#seq);
    if (missed) {
      for (const message of missed) connection.write(message.bytes);
      for (const channel of resumable.values()) this.#channels.join(channel, connection);
    }
    for (const topic of fresh) {
      const key = connection.topics.get(topic.key)!;
      if (missed && resumable.has(key)) continue;
      this.#subscribe(connection, topic, key);
    }
    connection.quietSince = connection.topics.size === 0 ? performance.now() : undefined;
  }

  #subscribe(connection: StreamConnection, topic: Topic, key: string): void {
    const channel = this.#channels.watch(key, connection, topic, this.#seq);
    if (channel.snapshot && !channel.loading) {
      connection.write(this.#snapshotBytes(channel));
      channel.readers.add(connection);
      return;
    }
    channel.waiting.add(connection);
    if (!channel.loading) void this.#load(channel, connection);
  }

  async #load(channel: Channel, reader: StreamConnection): Promise<void> {
    channel.loading = true;
    try {
      const { snapshot, state } = await this.#deps.read(channel, reader);
      channel.loading = false;
      this.snapshot(channel, snapshot, state);
    } catch (error) {
      channel.loading = false;
      const refusal = error as { code?: string; message?: string };
      const unavailable = encodeMessage('unavailable', {
        topic: channel.topic.key,
        code: refusal.code ?? 'internal_error',
        message: refusal.code ? refusal.message : 'The topic could not be read; follow it again later.',
      });
      if (!refusal.code) this.#deps.log.warn({ err: error, topic: channel.key }, 'a stream topic could not be read');
      for (const waiting of channel.waiting) {
        waiting.write(unavailable);
        waiting.topics.delete(channel.topic.key);
      }
      channel.waiting.clear();
      this.#channels.delete(channel.key);
    }
  }

  #unfollow(connection: StreamConnection, topicKey: string): void {
    const key = connection.topics.get(topicKey);
    if (key === undefined) return;
    connection.topics.delete(topicKey);
    this.#channels.leave(key, connection);
  }

  #forget(connection: StreamConnection): void {
    if (!this.#connections.delete(connection.id)) return;
    for (const topic of [...connection.topics.keys()]) this.#unfollow(connection, topic);
    const left = (this.#perAddress.get(connection.address) ?? 1) - 1;
    if (left === 0) this.#perAddress.delete(connection.address);
    else this.#perAddress.set(connection.address, left);
  }

  /** The heartbeat, and what it is also the moment for: idle streams closed, sessions looked at, channels let go. */
  async #beat(): Promise<void> {
    const now = performance.now();
    const idleMs = this.#deps.settings.idleSeconds * 1000;
    for (const connection of [...this.#connections.values()]) {
      if (connection.quietSince !== undefined && now - connection.quietSince >= idleMs) this.close(connection, 'idle');
      else connection.write(HEARTBEAT);
    }
    this.#channels.expire(now);
    await this.#checkSessions();
  }

  /** A session past its idle or absolute end is checked again; one that is over stops its player topics. */
  async #checkSessions(): Promise<void> {
    const now = this.#deps.clock.now().getTime();
    for (const connection of this.#connections.values()) {
      const session = connection.session;
      if (!session) continue;
      if (session.idleExpiresAt.getTime() > now && session.expiresAt.getTime() > now) continue;
      const live = await this.#deps.recheck(session);
      if (connection.session !== session) continue;
      if (live) connection.session = live;
      else this.endSession(connection);
    }
  }
}
