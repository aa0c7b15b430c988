import type { CatalogBrowsing } from '../catalog/browsing.ts';
import type { EventDetail, EventSummary } from '../catalog/schemas.ts';
import { eventChanges, listChanges, type Change } from './changes.ts';
import type { Channel } from './channels.ts';
import type { StreamHub } from './hub.ts';
import type { Topic } from './topics.ts';

const LIST_KINDS = new Set(['live', 'competition', 'sport']);

type Reading = { snapshot: object; state: unknown };

type CatalogTopicsDeps = { hub: StreamHub; browsing: CatalogBrowsing };

/**
 * The catalog's topics: an event page, the live list, a sport's and a competition's events. Each is read as the
 * HTTP read it replaces answers (the snapshot is that answer's body), and read again when one of its events changed.
 */
export class CatalogTopics {
  readonly #deps: CatalogTopicsDeps;

  constructor(deps: CatalogTopicsDeps) {
    this.#deps = deps;
  }

  async read(topic: Topic): Promise<Reading> {
    const { browsing } = this.#deps;
    switch (topic.kind) {
      case 'event': {
        const event = await browsing.event(topic.id);
        return { snapshot: { event }, state: event };
      }
      case 'live': {
        const events = await browsing.live();
        return { snapshot: { events }, state: events };
      }
      case 'competition': {
        const page = await browsing.competition(topic.id);
        return { snapshot: page, state: page.events };
      }
      case 'sport': {
        const page = await browsing.sport(topic.id);
        return { snapshot: page, state: page.competitions.flatMap((competition) => competition.events) };
      }
      default:
        throw new Error(`${topic.key} is not a catalog topic`);
    }
  }

  /**
   * Reads again what changed events touch: their pages, and the lists they are (or now belong) in; `everything`
   * reads every watched topic (the sweep). Answers whether a touched topic was still loading its first snapshot:
   * then the caller asks again shortly, so a change made during that first read is not missed.
   */
  async refresh(eventIds: Iterable<string>, everything = false): Promise<boolean> {
    const { hub } = this.#deps;
    const lists = new Set<Channel>();
    const watchedLists = [...hub.channels()].filter((channel) => LIST_KINDS.has(channel.topic.kind));
    let busy = false;
    const ids = everything
      ? [...hub.channels()].flatMap((channel) => (channel.topic.kind === 'event' ? [channel.topic.id] : []))
      : [...eventIds];
    for (const id of ids) {
      const channel = hub.channel(`event:${id}`);
      if (channel?.loading) busy = true;
      let detail = channel?.state ? await this.#refreshEvent(channel) : undefined;
      if (watchedLists.length === 0 || everything) continue;
      detail ??= await this.#deps.browsing.event(id).catch(() => undefined);
      for (const list of watchedLists) if (touches(list, id, detail)) lists.add(list);
    }
    for (const list of everything ? watchedLists : lists) {
      if (list.loading) busy = true;
      else if (list.state)
        await this.#refresh(list, (before, after) => listChanges(before as EventSummary[], after as EventSummary[]));
    }
    return busy;
  }

  async #refreshEvent(channel: Channel): Promise<EventDetail | undefined> {
    await this.#refresh(channel, (before, after) => eventChanges(before as EventDetail, after as EventDetail));
    return channel.state as EventDetail | undefined;
  }

  async #refresh(channel: Channel, diff: (before: unknown, after: unknown) => Change[]): Promise<void> {
    let reading: Reading;
    try {
      reading = await this.read(channel.topic);
    } catch {
      return; // gone or unreadable now: its readers keep what they have; the sweep tries again
    }
    apply(this.#deps.hub, channel, reading, diff(channel.state, reading.state));
  }
}

/** A change a screen can patch is sent as such; one it cannot sends the snapshot again. */
export function apply(
  hub: StreamHub,
  channel: Channel,
  reading: Reading,
  changes: Array<{ type: string; data?: object }>,
): void {
  if (changes.some((change) => change.type === 'snapshot')) {
    hub.snapshot(channel, reading.snapshot, reading.state);
    return;
  }
  channel.snapshot = reading.snapshot;
  channel.state = reading.state;
  hub.publish(
    channel,
    changes.map((change) => ({ type: change.type, data: change.data ?? {} })),
  );
}

/** Whether a changed event may change a list: it is in it, or now belongs to it. */
function touches(list: Channel, eventId: string, detail: EventDetail | undefined): boolean {
  if ((list.state as EventSummary[] | undefined)?.some((event) => event.id === eventId)) return true;
  if (!detail) return false;
  const topic = list.topic;
  if (topic.kind === 'live') return detail.status === 'live';
  if (topic.kind === 'competition') return detail.competition.id === topic.id;
  if (topic.kind === 'sport') return detail.sport.id === topic.id;
  return false;
}
