import { LRUCache } from 'lru-cache';
import type { Db } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import { eventDetail, eventSummaries } from './records.ts';
import { SEARCH_COMPETITIONS, SEARCH_EVENTS, type EventDetail, type EventSummary } from './schemas.ts';
import { searchPatterns } from './search-text.ts';
import * as competitionStore from './store/competitions.ts';
import * as eventStore from './store/events.ts';
import * as searchStore from './store/search.ts';
import * as sportStore from './store/sports.ts';
import type { EventHeaderRow } from './store/events.ts';

/**
 * A read is kept this long at most, and dropped at once when what it shows changes (`forget`, told by this
 * process's changes after their commit and by the database's change notifications for other writers). Thousands of
 * players polling one page then cost one read per change, not one per poll; the bound only matters for a change
 * whose notification was lost.
 */
const KEPT_MS = 1_000;
/** Reads kept at most: every event page and list of a busy day, a few MiB. */
const KEPT_READS = 5_000;

/** What players browse, anonymously: sports, live events, a sport's or a competition's events, search, one event. */
export class CatalogBrowsing {
  readonly #db: Db;
  readonly #kept = new LRUCache<string, Promise<unknown>>({ max: KEPT_READS, ttl: KEPT_MS });

  constructor(deps: { db: Db }) {
    this.#db = deps.db;
  }

  /**
   * Drops what was read of an event (its page, and every list, which it may have joined or left), or everything when
   * the event is not known (a sport, a competition, or notifications that may have been missed).
   */
  forget(eventId?: string): void {
    if (eventId === undefined) {
      this.#kept.clear();
      return;
    }
    for (const key of [...this.#kept.keys()]) {
      if (!key.startsWith('event:') || key === `event:${eventId}`) this.#kept.delete(key);
    }
  }

  sports() {
    return this.#read('sports', async () => {
      const rows = await sportStore.sportsWithCounts(this.#db);
      return rows.map((row) => ({
        id: row.id,
        name: row.name,
        eventCount: row.event_count,
        liveCount: row.live_count,
      }));
    });
  }

  live(sportId?: string): Promise<EventSummary[]> {
    return this.#read(`live:${sportId ?? ''}`, async () =>
      this.#summaries(await eventStore.liveEventHeaders(this.#db, sportId)),
    );
  }

  sport(sportId: string) {
    return this.#read(`sport:${sportId}`, () => this.#sport(sportId));
  }

  async #sport(sportId: string) {
    const sport = await sportStore.findSport(this.#db, sportId);
    if (!sport) throw notFound('Sport');
    const events = await this.#summaries(await eventStore.upcomingEventHeaders(this.#db, { sportId }));
    const competitions = new Map<string, { id: string; name: string; country: string; events: EventSummary[] }>();
    for (const event of events) {
      const entry = competitions.get(event.competition.id) ?? { ...event.competition, events: [] };
      entry.events.push(event);
      competitions.set(event.competition.id, entry);
    }
    return { sport: { id: sport.id, name: sport.name }, competitions: [...competitions.values()] };
  }

  competition(competitionId: string) {
    return this.#read(`competition:${competitionId}`, () => this.#competition(competitionId));
  }

  async #competition(competitionId: string) {
    const competition = await competitionStore.findCompetition(this.#db, competitionId);
    if (!competition) throw notFound('Competition');
    const sport = (await sportStore.findSport(this.#db, competition.sport_id))!;
    const events = await this.#summaries(await eventStore.upcomingEventHeaders(this.#db, { competitionId }));
    return {
      competition: {
        id: competition.id,
        name: competition.name,
        country: competition.country,
        sport: { id: sport.id, name: sport.name },
      },
      events,
    };
  }

  /** Competitions and upcoming or live events matching every word of `text` (search-text.ts), each list limited. */
  async search(text: string) {
    const patterns = searchPatterns(text);
    if (text.trim().length < 2 || patterns.length === 0)
      throw validationError('q', 'Search with at least 2 characters besides spaces.');
    const competitions = await searchStore.searchCompetitions(this.#db, patterns, SEARCH_COMPETITIONS);
    const events = await this.#summaries(await searchStore.searchEventHeaders(this.#db, patterns, SEARCH_EVENTS));
    return {
      competitions: competitions.map((row) => ({
        id: row.id,
        name: row.name,
        country: row.country,
        sport: { id: row.sport_id, name: row.sport_name },
      })),
      events,
    };
  }

  event(eventId: string): Promise<EventDetail> {
    return this.#read(`event:${eventId}`, () => eventDetail(this.#db, eventId));
  }

  /** One read shared by every caller until it is forgotten or too old; a failed read is not kept. */
  #read<T>(key: string, read: () => Promise<T>): Promise<T> {
    const kept = this.#kept.get(key);
    if (kept) return kept as Promise<T>;
    const reading = read();
    this.#kept.set(key, reading);
    reading.catch(() => {
      if (this.#kept.get(key) === reading) this.#kept.delete(key);
    });
    return reading;
  }

  #summaries(headers: EventHeaderRow[]): Promise<EventSummary[]> {
    return eventSummaries(this.#db, headers);
  }
}
