import type { CashOut } from '../betting/cashout.ts';
import type { BetViews } from '../betting/views.ts';
import type { CatalogBrowsing } from '../catalog/browsing.ts';
import type { EndedSessions } from '../integration/sessions.ts';
import type { Clock } from '../platform/clock.ts';
import type { StreamSettings } from '../platform/config.ts';
import type { Db } from '../platform/db/database.ts';
import { notificationsOf } from '../platform/db/notifications.ts';
import { validationError } from '../platform/errors.ts';
import type { Metrics } from '../platform/metrics/metrics.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import { CatalogTopics } from './catalog-topics.ts';
import type { Channel } from './channels.ts';
import { streamErrors } from './errors.ts';
import { StreamHub } from './hub.ts';
import { StreamMetrics } from './metrics.ts';
import { PlayerTopics } from './player-topics.ts';
import { parseTopic, PLAYER_TOPICS, type Topic } from './topics.ts';

/** The channel the database's change triggers notify on (migration 0022). */
const CHANGES_CHANNEL = 'bookmaker_changes';
/** Notifications are gathered this long, so a burst (a market's every price) is read once. */
const GATHER_MS = 25;
/** A player's bets are read again every this many sweeps of the catalog's topics (they rarely miss a notification). */
const PLAYER_SWEEP_EVERY = 12;

type StreamDeps = {
  db: Db;
  clock: Clock;
  settings: StreamSettings;
  browsing: CatalogBrowsing;
  betViews: BetViews;
  cashOut: CashOut;
  /** A player session checked again, as the app's background call; undefined when it is over. */
  recheck: (session: SessionPrincipal) => Promise<SessionPrincipal | undefined>;
  log: { warn(object: object, message: string): void };
  metrics: Metrics;
};

/**
 * Players' screens pushed, not polled (docs/stream.md): what changed in the database, whoever wrote it, is read
 * again once per topic watched and written to every stream that follows it.
 */
export class StreamService {
  readonly #deps: StreamDeps;
  readonly hub: StreamHub;
  readonly #catalog: CatalogTopics;
  readonly #players: PlayerTopics;
  readonly #dirtyEvents = new Set<string>();
  readonly #dirtyPlayers = new Map<string, number | undefined>();
  #sweeps = 0;
  #everything = false;
  #gathering: ReturnType<typeof setTimeout> | undefined;
  #running: Promise<void> | undefined;
  #sweeper: ReturnType<typeof setInterval> | undefined;
  #unlisten: (() => Promise<void>) | undefined;

  constructor(deps: StreamDeps) {
    this.#deps = deps;
    this.hub = new StreamHub({
      settings: deps.settings,
      clock: deps.clock,
      log: deps.log,
      recheck: deps.recheck,
      read: (channel, reader) => this.#read(channel, reader),
      counted: new StreamMetrics(deps.metrics, {
        streams: () => this.hub.size,
        channels: () => this.hub.channelCount,
      }),
    });
    this.#catalog = new CatalogTopics({ hub: this.hub, browsing: deps.browsing });
    this.#players = new PlayerTopics({ hub: this.hub, views: deps.betViews, cashOut: deps.cashOut });
  }

  /** Listens for the database's changes and starts the sweep. */
  async start(): Promise<void> {
    const notifications = notificationsOf(this.#deps.db);
    if (notifications) {
      this.#unlisten = await notifications.listen(
        CHANGES_CHANNEL,
        (payload) => this.#noted(payload),
        () => this.resync(),
      );
    }
    this.#sweeper = setInterval(() => this.#sweep(false), this.#deps.settings.sweepSeconds * 1000);
    this.#sweeper.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#sweeper);
    clearTimeout(this.#gathering);
    this.hub.closeAll();
    await this.#unlisten?.();
    await this.#running;
  }

  /** Whatever was missed (a broken listener, tables emptied): reads and unwatched topics start afresh. */
  resync(): void {
    this.#deps.browsing.forget();
    this.hub.dropUnwatched();
    this.#sweep(true);
  }

  /** The topics of a query or a body, checked: known names, within the limit, a player's only with a session. */
  topics(names: string[], session: SessionPrincipal | undefined): Topic[] {
    if (names.length > this.#deps.settings.maxTopics) throw streamErrors.too_many_topics();
    return names.map((name, index) => {
      const topic = parseTopic(name);
      if (!topic) throw validationError(`topics.${index}`, `Unknown topic ${JSON.stringify(name)}.`);
      if (PLAYER_TOPICS.includes(topic.kind) && !session) throw streamErrors.session_required();
      return topic;
    });
  }

  /** A stream's topics replaced; only the session the stream was opened with may change it. */
  follow(streamId: string, session: SessionPrincipal | undefined, names: string[]): string[] {
    const connection = this.hub.find(streamId);
    if (!connection) throw streamErrors.stream_not_found();
    if (connection.session && connection.session.sessionId !== session?.sessionId)
      throw streamErrors.stream_not_found();
    const topics = this.topics(names, connection.session);
    this.hub.follow(connection, topics);
    return topics.map((topic) => topic.key);
  }

  /** Ended sessions stop their streams' player topics at once (after checking: the ending may have rolled back). */
  sessionsEnded(ended: EndedSessions): void {
    for (const connection of [...this.hub.connections()]) {
      const session = connection.session;
      if (!session || !endedBy(session, ended)) continue;
      void this.#deps.recheck(session).then((live) => {
        if (connection.session !== session) return;
        if (live) connection.session = live;
        else this.hub.endSession(connection);
      });
    }
  }

  #read(channel: Channel, reader: { session: SessionPrincipal | undefined }) {
    if (PLAYER_TOPICS.includes(channel.topic.kind)) return this.#players.read(channel, reader.session!);
    return this.#catalog.read(channel.topic);
  }

  #noted(payload: string): void {
    // `<kind>:<id>`, or `balance:<playerId>:<minor units>`; an event's id may hold colons (a feed's `sr:match:1`)
    const colon = payload.indexOf(':');
    const kind = payload.slice(0, colon);
    let id = payload.slice(colon + 1);
    let balance: string | undefined;
    if (kind === 'balance') [id, balance] = [id.slice(0, id.lastIndexOf(':')), id.slice(id.lastIndexOf(':') + 1)];
    if (colon < 0 || !id) return;
    if (kind === 'event') {
      // another process's change (this process's own forgot at its commit): browsing reads it afresh
      this.#deps.browsing.forget(id);
      this.#dirtyEvents.add(id);
    } else if (kind === 'player') this.#dirtyPlayers.set(id, this.#dirtyPlayers.get(id));
    else if (kind === 'balance') this.#dirtyPlayers.set(id, Number(balance));
    else return;
    this.#schedule(GATHER_MS);
  }

  #sweep(players: boolean): void {
    this.#everything = true;
    if (players || ++this.#sweeps % PLAYER_SWEEP_EVERY === 0) {
      for (const channel of this.hub.channels()) {
        if (channel.topic.kind === 'bets' && channel.playerId) this.#dirtyPlayers.set(channel.playerId, undefined);
      }
    }
    this.#schedule(0);
  }

  #schedule(delayMs: number): void {
    if (this.#gathering) return;
    this.#gathering = setTimeout(() => {
      this.#gathering = undefined;
      void this.#run();
    }, delayMs);
    this.#gathering.unref();
  }

  /** One round at a time; what changes meanwhile waits for the next. */
  async #run(): Promise<void> {
    if (this.#running) {
      await this.#running;
      this.#schedule(0);
      return;
    }
    this.#running = this.#round().catch((error: unknown) =>
      this.#deps.log.warn({ err: error }, 'a stream round failed'),
    );
    await this.#running;
    this.#running = undefined;
  }

  async #round(): Promise<void> {
    const events = new Set(this.#dirtyEvents);
    const players = new Map(this.#dirtyPlayers);
    const everything = this.#everything;
    this.#dirtyEvents.clear();
    this.#dirtyPlayers.clear();
    this.#everything = false;
    const busy = await this.#catalog.refresh(events, everything);
    if (busy) {
      for (const id of events) this.#dirtyEvents.add(id);
      this.#everything ||= everything;
      this.#schedule(GATHER_MS * 4);
    }
    for (const [playerId, balance] of players) await this.#players.betsChanged(playerId, balance);
    if (events.size > 0) await this.#players.pricesChanged(events);
  }
}

function endedBy(session: SessionPrincipal, ended: EndedSessions): boolean {
  if ('sessionId' in ended) return session.sessionId === ended.sessionId;
  if ('playerId' in ended) return session.playerId === ended.playerId;
  return ended.tenantIds.includes(session.tenantId);
}
