import { randomBytes } from 'node:crypto';
import type { AuditLog, AuditRecord } from '../platform/audit.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import type { EventStatus, MarketStatus, MarketType } from '../platform/db/schema.ts';
import { AppError, notFound } from '../platform/errors.ts';
import { formatLine, formatMilli, parseMilli } from './odds.ts';
import type { CreateMarketBody, EventDetail, EventSummary } from './schemas.ts';
import * as store from './store.ts';
import type { EventHeaderRow } from './store.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** Who changed the catalog: a trader through the API, or the feed (demo simulator, a future odds feed). */
export interface CatalogActor {
  actor: AuditRecord['actor'];
  ip?: string | undefined;
}

const MARKET_NAMES: Record<MarketType, (line: string | null) => string> = {
  match_result: () => 'Match result',
  moneyline: () => 'Moneyline',
  totals: (line) => `Total over/under ${line}`,
  handicap: (line) => `Handicap ${line}`,
  both_teams_to_score: () => 'Both teams to score',
  correct_score: () => 'Correct score',
};
const NEEDS_LINE: MarketType[] = ['totals', 'handicap'];

/** Sports, competitions, events, markets and odds: read by players, changed by traders and the feed. */
export class CatalogService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #audit: AuditLog;

  constructor(deps: { db: Db; clock: Clock; audit: AuditLog }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
  }

  // ---- reads (anonymous browsing) ----

  async sports() {
    const rows = await store.sportsWithCounts(this.#db);
    return rows.map((row) => ({ id: row.id, name: row.name, eventCount: row.event_count, liveCount: row.live_count }));
  }

  async live(sportId?: string): Promise<EventSummary[]> {
    let query = store.eventHeaders(this.#db).where('events.status', '=', 'live');
    if (sportId) query = query.where('sports.id', '=', sportId);
    return this.#summaries(await query.orderBy('events.starts_at').orderBy('events.id').execute());
  }

  async sport(sportId: string) {
    const sport = await store.findSport(this.#db, sportId);
    if (!sport) throw notFound('Sport');
    const events = await this.#summaries(await this.#upcoming().where('sports.id', '=', sportId).execute());
    const competitions = new Map<string, { id: string; name: string; country: string; events: EventSummary[] }>();
    for (const event of events) {
      const entry = competitions.get(event.competition.id) ?? { ...event.competition, events: [] };
      entry.events.push(event);
      competitions.set(event.competition.id, entry);
    }
    return { sport: { id: sport.id, name: sport.name }, competitions: [...competitions.values()] };
  }

  async competition(competitionId: string) {
    const competition = await store.findCompetition(this.#db, competitionId);
    if (!competition) throw notFound('Competition');
    const sport = (await store.findSport(this.#db, competition.sport_id))!;
    const events = await this.#summaries(await this.#upcoming().where('competitions.id', '=', competitionId).execute());
    return {
      competition: { id: competition.id, name: competition.name, country: competition.country, sport: { id: sport.id, name: sport.name } },
      events,
    };
  }

  async event(eventId: string, q: Queryable = this.#db): Promise<EventDetail> {
    const header = await store.eventHeaders(q).where('events.id', '=', eventId).executeTakeFirst();
    if (!header) throw notFound('Event');
    const markets = await this.#marketViews(q, [eventId]);
    return { ...eventHeader(header), markets: markets.get(eventId) ?? [] };
  }

  #upcoming() {
    return store.eventHeaders(this.#db).where('events.status', 'in', ['scheduled', 'live']).orderBy('events.starts_at').orderBy('events.id');
  }

  async #summaries(headers: EventHeaderRow[]): Promise<EventSummary[]> {
    const markets = await this.#marketViews(this.#db, headers.map((header) => header.id));
    return headers.map((header) => {
      const eventMarkets = markets.get(header.id) ?? [];
      return { ...eventHeader(header), marketCount: eventMarkets.length, mainMarket: eventMarkets[0] ?? null };
    });
  }

  async #marketViews(q: Queryable, eventIds: string[]) {
    const markets = await store.marketsOf(q, eventIds);
    const selections = await store.selectionsOf(q, markets.map((market) => market.id));
    const byEvent = new Map<string, EventDetail['markets']>();
    for (const market of markets) {
      const view = {
        id: market.id,
        type: market.type,
        name: market.name,
        line: market.line_milli === null ? null : formatLine(market.line_milli),
        status: market.status,
        selections: selections.filter((selection) => selection.market_id === market.id).map(selectionView),
      };
      byEvent.set(market.event_id, [...(byEvent.get(market.event_id) ?? []), view]);
    }
    return byEvent;
  }

  // ---- trading (every change audited) ----

  createSport(by: CatalogActor, input: { id: string; name: string; sortOrder?: number | undefined }) {
    return this.#change(by, 'catalog.sport.create', { type: 'sport', id: input.id }, input, async (tx) => {
      if (await store.findSport(tx, input.id)) throw new AppError('conflict', 409, `Sport ${input.id} exists already.`);
      await store.insertSport(tx, { id: input.id, name: input.name, sortOrder: input.sortOrder ?? 0 });
      return { id: input.id, name: input.name };
    });
  }

  createCompetition(by: CatalogActor, input: { sportId: string; name: string; country: string; id?: string }) {
    const id = input.id ?? newId('cp');
    return this.#change(by, 'catalog.competition.create', { type: 'competition', id }, input, async (tx) => {
      if (!(await store.findSport(tx, input.sportId))) throw notFound('Sport');
      await store.insertCompetition(tx, { id, sportId: input.sportId, name: input.name, country: input.country });
      return { id, name: input.name, country: input.country };
    });
  }

  createEvent(by: CatalogActor, input: { competitionId: string; home: string; away: string; startsAt: string; id?: string }) {
    const id = input.id ?? newId('ev');
    return this.#change(by, 'catalog.event.create', { type: 'event', id }, input, async (tx) => {
      if (!(await store.findCompetition(tx, input.competitionId))) throw notFound('Competition');
      await store.insertEvent(tx, {
        id,
        competition_id: input.competitionId,
        home: input.home,
        away: input.away,
        starts_at: new Date(input.startsAt),
        status: 'scheduled',
        score_home: null,
        score_away: null,
        updated_at: this.#clock.now(),
      });
      return this.event(id, tx);
    });
  }

  /** Live, score, start time or status. Moving to live starts the score at 0-0 unless one is given. */
  updateEvent(by: CatalogActor, eventId: string, input: { startsAt?: string | undefined; status?: EventStatus | undefined; score?: { home: number; away: number } | undefined }) {
    return this.#change(by, 'catalog.event.update', { type: 'event', id: eventId }, input, async (tx) => {
      const event = await store.findEvent(tx, eventId);
      if (!event) throw notFound('Event');
      const score = input.score ?? (input.status === 'live' && event.score_home === null ? { home: 0, away: 0 } : undefined);
      await tx
        .updateTable('events')
        .set({
          ...(input.startsAt ? { starts_at: new Date(input.startsAt) } : {}),
          ...(input.status ? { status: input.status } : {}),
          ...(score ? { score_home: score.home, score_away: score.away } : {}),
          updated_at: this.#clock.now(),
        })
        .where('id', '=', eventId)
        .execute();
      return this.event(eventId, tx);
    });
  }

  createMarket(by: CatalogActor, eventId: string, input: CreateMarketBody & { id?: string }) {
    const id = input.id ?? newId('mk');
    return this.#change(by, 'catalog.market.create', { type: 'market', id }, { eventId, ...input }, async (tx) => {
      if (!(await store.findEvent(tx, eventId))) throw notFound('Event');
      const lineMilli = marketLine(input);
      const line = lineMilli === null ? null : formatLine(lineMilli);
      const outcomes = new Set(input.selections.map((selection) => selection.outcome));
      if (outcomes.size !== input.selections.length) throw new AppError('validation', 400, 'Each selection needs its own outcome.', { field: 'selections' });
      const existing = await store.marketsOf(tx, [eventId]);
      await store.insertMarket(tx, {
        id,
        event_id: eventId,
        type: input.type,
        line_milli: lineMilli,
        name: input.name ?? MARKET_NAMES[input.type](line),
        status: input.status ?? 'open',
        sort_order: existing.length,
        updated_at: this.#clock.now(),
      });
      await store.insertSelections(
        tx,
        input.selections.map((selection, index) => ({
          id: `${id}_${index}`,
          market_id: id,
          name: selection.name,
          outcome: selection.outcome,
          odds_milli: oddsMilli(selection.odds, `selections.${index}.odds`),
          sort_order: index,
        })),
      );
      return (await this.#marketViews(tx, [eventId])).get(eventId)!.find((market) => market.id === id)!;
    });
  }

  setMarketStatus(by: CatalogActor, marketId: string, status: Exclude<MarketStatus, 'settled'>) {
    return this.#change(by, 'catalog.market.status', { type: 'market', id: marketId }, { status }, async (tx) => {
      const market = await store.findMarket(tx, marketId);
      if (!market) throw notFound('Market');
      if (market.status === 'settled' || market.status === 'closed') {
        throw new AppError('market_closed', 409, `The market is ${market.status}; it cannot change any more.`);
      }
      await tx.updateTable('markets').set({ status, updated_at: this.#clock.now() }).where('id', '=', marketId).execute();
      return (await this.#marketViews(tx, [market.event_id])).get(market.event_id)!.find((view) => view.id === marketId)!;
    });
  }

  /** New odds and a new odds version: a bet placed on the old odds is then judged by the acceptance policy. */
  setOdds(by: CatalogActor, selectionId: string, odds: string) {
    const milli = oddsMilli(odds, 'odds');
    return this.#change(by, 'catalog.odds.change', { type: 'selection', id: selectionId }, { odds }, async (tx) => {
      const updated = await tx
        .updateTable('selections')
        .set((eb) => ({ odds_milli: milli, odds_version: eb('odds_version', '+', 1) }))
        .where('id', '=', selectionId)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw notFound('Selection');
      return selectionView(updated);
    });
  }

  async #change<T>(by: CatalogActor, action: string, target: { type: string; id: string }, details: object, work: (tx: Tx) => Promise<T>): Promise<T> {
    return inTransaction(this.#db, async (tx) => {
      const result = await work(tx);
      await this.#audit.record(tx, { actor: by.actor, action, target, outcome: 'success', ip: by.ip, details: { ...details } });
      return result;
    });
  }
}

function eventHeader(row: EventHeaderRow) {
  return {
    id: row.id,
    sport: { id: row.sport_id, name: row.sport_name },
    competition: { id: row.competition_id, name: row.competition_name, country: row.country },
    home: row.home,
    away: row.away,
    startsAt: row.starts_at.toISOString(),
    status: row.status,
    score: row.score_home === null || row.score_away === null ? null : { home: row.score_home, away: row.score_away },
  };
}

function selectionView(row: { id: string; name: string; outcome: string; odds_milli: number; odds_version: number }) {
  return { id: row.id, name: row.name, outcome: row.outcome, odds: formatMilli(row.odds_milli), oddsVersion: row.odds_version };
}

function oddsMilli(odds: string, field: string): number {
  const milli = parseMilli(odds);
  if (milli <= 1000 || milli > 1_000_000) throw new AppError('validation', 400, 'Odds must be above 1.00 and at most 1000.', { field });
  return milli;
}

function marketLine(input: CreateMarketBody): number | null {
  const needsLine = NEEDS_LINE.includes(input.type);
  if (needsLine && input.line === undefined) throw new AppError('validation', 400, `A ${input.type} market needs a line.`, { field: 'line' });
  if (!needsLine && input.line !== undefined) throw new AppError('validation', 400, `A ${input.type} market has no line.`, { field: 'line' });
  return input.line === undefined ? null : parseMilli(input.line);
}
