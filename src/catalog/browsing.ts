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

/** What players browse, anonymously: sports, live events, a sport's or a competition's events, search, one event. */
export class CatalogBrowsing {
  readonly #db: Db;

  constructor(deps: { db: Db }) {
    this.#db = deps.db;
  }

  async sports() {
    const rows = await sportStore.sportsWithCounts(this.#db);
    return rows.map((row) => ({ id: row.id, name: row.name, eventCount: row.event_count, liveCount: row.live_count }));
  }

  async live(sportId?: string): Promise<EventSummary[]> {
    return this.#summaries(await eventStore.liveEventHeaders(this.#db, sportId));
  }

  async sport(sportId: string) {
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

  async competition(competitionId: string) {
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
    return eventDetail(this.#db, eventId);
  }

  #summaries(headers: EventHeaderRow[]): Promise<EventSummary[]> {
    return eventSummaries(this.#db, headers);
  }
}
