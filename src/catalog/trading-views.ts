import type { Db } from '../platform/db/database.ts';
import { validationError } from '../platform/errors.ts';
import { cursorAfter, decodeKeyCursor, encodeKeyCursor, keysetPage } from '../platform/http/cursor.ts';
import { eventDetail, eventRecord } from './records.ts';
import {
  TRADING_COMPETITIONS_PAGE,
  TRADING_EVENTS_PAGE,
  type TradingEventDetail,
  type TradingCompetition,
  type TradingCompetitionsQuery,
  type TradingEventRow,
  type TradingEventsQuery,
} from './schemas.ts';
import { EVENT_STATUSES, MARKET_STATES } from './states.ts';
import { containing } from './search-text.ts';
import * as competitionStore from './store/competitions.ts';
import * as eventStore from './store/events.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import { formatMilli } from './odds.ts';
import * as sportStore from './store/sports.ts';

/**
 * The catalog as traders see it in the console: the tree (sports, competitions, events of every status, filtered
 * and paged) and one event with every market, whatever its status. Reads only; changes are trading.ts.
 */
export class TradingViews {
  readonly #db: Db;

  constructor(deps: { db: Db }) {
    this.#db = deps.db;
  }

  async sports() {
    const sports = await sportStore.sportsWithCompetitionCounts(this.#db);
    const events = tally(await eventStore.eventCountsBySport(this.#db), EVENT_STATUSES);
    return {
      sports: sports.map((sport) => ({
        id: sport.id,
        name: sport.name,
        sortOrder: sport.sort_order,
        liveDelaySeconds: sport.live_delay_seconds,
        competitionCount: sport.competition_count,
        events: events(sport.id),
      })),
    };
  }

  async competitions(query: TradingCompetitionsQuery) {
    const limit = query.limit ?? TRADING_COMPETITIONS_PAGE;
    const rows = await competitionStore.listCompetitions(this.#db, {
      sportId: query.sportId,
      search: query.q === undefined ? undefined : containing(query.q),
      after: query.cursor ? decodeKeyCursor(query.cursor) : undefined,
      limit,
    });
    const page = rows.slice(0, limit);
    const events = tally(
      await eventStore.eventCountsByCompetition(
        this.#db,
        page.map((row) => row.id),
      ),
      EVENT_STATUSES,
    );
    const last = page.at(-1);
    const competitions: TradingCompetition[] = page.map((row) => ({
      id: row.id,
      name: row.name,
      country: row.country,
      sport: { id: row.sport_id, name: row.sport_name },
      events: events(row.id),
    }));
    return { competitions, nextCursor: rows.length > limit && last ? encodeKeyCursor(last.name, last.id) : '' };
  }

  async events(query: TradingEventsQuery): Promise<{ events: TradingEventRow[]; nextCursor: string }> {
    const limit = query.limit ?? TRADING_EVENTS_PAGE;
    const startsFrom = query.startsFrom === undefined ? undefined : instant('startsFrom', query.startsFrom);
    const startsTo = query.startsTo === undefined ? undefined : instant('startsTo', query.startsTo);
    if (startsFrom && startsTo && startsTo < startsFrom) {
      throw validationError('startsTo', '`startsTo` is an instant on or after `startsFrom`.');
    }
    const rows = await eventStore.listEventHeaders(this.#db, {
      statuses: query.status,
      sportId: query.sportId,
      competitionId: query.competitionId,
      startsFrom,
      startsTo,
      search: query.q === undefined ? undefined : containing(query.q),
      descending: query.sort === '-startsAt',
      after: cursorAfter(query.cursor),
      limit,
    });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.starts_at, id: row.id }));
    const markets = tally(
      (
        await marketStore.marketCounts(
          this.#db,
          page.map((row) => row.id),
        )
      ).map((row) => ({ key: row.event_id, status: row.status, count: row.count })),
      MARKET_STATES,
    );
    return {
      events: page.map((row) => ({
        ...eventRecord(row),
        name: `${row.home} vs ${row.away}`,
        markets: markets(row.id),
      })),
      nextCursor,
    };
  }

  /** The event as players see it, with who prices each market and the feed's prices kept beside a trader's. */
  async event(eventId: string): Promise<TradingEventDetail> {
    const detail = await eventDetail(this.#db, eventId);
    const rows = new Map((await marketStore.marketsOf(this.#db, [eventId])).map((row) => [row.id, row]));
    const kept = await selectionStore.keptFedOdds(this.#db, [...rows.keys()]);
    return {
      ...detail,
      markets: detail.markets.map((market) => {
        const row = rows.get(market.id)!;
        return {
          ...market,
          control: row.control,
          producerId: row.producer_id,
          heldByProducer: row.held_by_producer,
          selections: market.selections.map((selection) => {
            const fed = kept.get(selection.id);
            return { ...selection, fedOdds: fed === undefined ? null : formatMilli(fed) };
          }),
        };
      }),
    };
  }
}

/** An instant the database can hold (years 1 to 9999). */
function instant(field: string, text: string): Date {
  const at = new Date(text);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
    throw validationError(field, `${text} is not an instant between the years 1 and 9999.`);
  }
  return at;
}

/** Counts by key and status, as a lookup that gives every status of `states` for a key (zero when it has none). */
function tally<S extends string>(rows: Array<{ key: string; status: S; count: number }>, states: readonly S[]) {
  const byKey = new Map<string, Record<S, number>>();
  for (const row of rows) {
    const counts = byKey.get(row.key) ?? zeros(states);
    counts[row.status] = row.count;
    byKey.set(row.key, counts);
  }
  return (key: string): Record<S, number> => byKey.get(key) ?? zeros(states);
}

function zeros<S extends string>(states: readonly S[]): Record<S, number> {
  return Object.fromEntries(states.map((state) => [state, 0])) as Record<S, number>;
}
