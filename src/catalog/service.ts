import { randomBytes } from 'node:crypto';
import type { AuditLog, AuditRecord } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import type { EventStatus, MarketStatus, MarketType, SelectionResult } from './tables.ts';
import { notFound, platformErrors, validationError } from '../platform/errors.ts';
import { catalogErrors } from './errors.ts';
import { formatLine, formatMilli, parseMilli } from './odds.ts';
import type { CreateMarketBody, EventDetail, EventSummary } from './schemas.ts';
import * as store from './store.ts';
import type { EventHeaderRow } from './store.ts';

export type { SelectionName } from './store.ts';

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
    return this.#summaries(await store.liveEventHeaders(this.#db, sportId));
  }

  async sport(sportId: string) {
    const sport = await store.findSport(this.#db, sportId);
    if (!sport) throw notFound('Sport');
    const events = await this.#summaries(await store.upcomingEventHeaders(this.#db, { sportId }));
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
    const events = await this.#summaries(await store.upcomingEventHeaders(this.#db, { competitionId }));
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

  async event(eventId: string, q: Queryable = this.#db): Promise<EventDetail> {
    const header = await store.eventHeader(q, eventId);
    if (!header) throw notFound('Event');
    const markets = await this.#marketViews(q, [eventId]);
    return { ...eventHeader(header), markets: markets.get(eventId) ?? [] };
  }

  async #summaries(headers: EventHeaderRow[]): Promise<EventSummary[]> {
    const markets = await this.#marketViews(
      this.#db,
      headers.map((header) => header.id),
    );
    return headers.map((header) => {
      const eventMarkets = markets.get(header.id) ?? [];
      return { ...eventHeader(header), marketCount: eventMarkets.length, mainMarket: eventMarkets[0] ?? null };
    });
  }

  async #marketViews(q: Queryable, eventIds: string[]) {
    const markets = await store.marketsOf(q, eventIds);
    const selections = await store.selectionsOf(
      q,
      markets.map((market) => market.id),
    );
    const byEvent = new Map<string, EventDetail['markets']>();
    for (const market of markets) {
      const view = {
        id: market.id,
        type: market.type,
        name: market.name,
        line: market.line_milli === null ? null : formatLine(market.line_milli),
        status: market.status,
        settlementVersion: market.settlement_version,
        selections: selections.filter((selection) => selection.market_id === market.id).map(selectionView),
      };
      byEvent.set(market.event_id, [...(byEvent.get(market.event_id) ?? []), view]);
    }
    return byEvent;
  }

  // ---- trading (every change audited) ----

  createSport(by: CatalogActor, input: { id: string; name: string; sortOrder?: number | undefined }) {
    return this.#change(by, 'catalog.sport.create', { type: 'sport', id: input.id }, input, async (tx) => {
      if (await store.findSport(tx, input.id))
        throw platformErrors.conflict(undefined, `Sport ${input.id} exists already.`);
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

  createEvent(
    by: CatalogActor,
    input: { competitionId: string; home: string; away: string; startsAt: string; id?: string },
  ) {
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
  updateEvent(
    by: CatalogActor,
    eventId: string,
    input: {
      startsAt?: string | undefined;
      status?: EventStatus | undefined;
      score?: { home: number; away: number } | undefined;
    },
  ) {
    return this.#change(by, 'catalog.event.update', { type: 'event', id: eventId }, input, async (tx) => {
      const event = await store.findEvent(tx, eventId);
      if (!event) throw notFound('Event');
      const score =
        input.score ?? (input.status === 'live' && event.score_home === null ? { home: 0, away: 0 } : undefined);
      await store.updateEvent(tx, eventId, {
        ...(input.startsAt ? { starts_at: new Date(input.startsAt) } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(score ? { score_home: score.home, score_away: score.away } : {}),
        updated_at: this.#clock.now(),
      });
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
      if (outcomes.size !== input.selections.length)
        throw validationError('selections', 'Each selection needs its own outcome.');
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
        throw catalogErrors.market_closed(undefined, `The market is ${market.status}; it cannot change any more.`);
      }
      await store.setMarketStatus(tx, marketId, status, this.#clock.now());
      return (await this.#marketViews(tx, [market.event_id]))
        .get(market.event_id)!
        .find((view) => view.id === marketId)!;
    });
  }

  /** New odds and a new odds version: a bet placed on the old odds is then judged by the acceptance policy. */
  setOdds(by: CatalogActor, selectionId: string, odds: string) {
    const milli = oddsMilli(odds, 'odds');
    return this.#change(by, 'catalog.odds.change', { type: 'selection', id: selectionId }, { odds }, async (tx) => {
      const updated = await store.setOdds(tx, selectionId, milli);
      if (!updated) throw notFound('Selection');
      return selectionView(updated);
    });
  }

  // ---- results (for settlement, inside its transaction) ----

  /**
   * Records a market's results: every selection exactly once, half results only on quarter lines. Settling needs a
   * market without results; resettling one with results. The market stays locked until the caller's transaction
   * ends, so one settlement of a market runs at a time and no bet is placed on it meanwhile. A resettlement
   * that changes nothing changes nothing (a retried request is harmless).
   */
  async recordResults(
    tx: Tx,
    marketId: string,
    results: Array<{ selectionId: string; result: SelectionResult }>,
    mode: 'settle' | 'resettle',
  ): Promise<RecordedResults> {
    const market = await store.lockMarket(tx, marketId);
    if (!market) throw notFound('Market');
    if (mode === 'settle' && market.status === 'settled') {
      throw catalogErrors.market_settled({ settlementVersion: market.settlement_version });
    }
    if (mode === 'resettle' && market.status !== 'settled') throw catalogErrors.market_not_settled();
    const selections = await store.selectionsOf(tx, [marketId]);
    checkResults(market, selections, results);
    const before = new Map(selections.map((selection) => [selection.id, selection.result]));
    const changed = results.some(({ selectionId, result }) => before.get(selectionId) !== result);
    const version = changed ? market.settlement_version + 1 : market.settlement_version;
    if (changed) await store.setResults(tx, marketId, results, { version, at: this.#clock.now() });
    return {
      marketId,
      version,
      changed,
      results: new Map(results.map(({ selectionId, result }) => [selectionId, result])),
    };
  }

  /** Prices, results and market states of a bet's selections, for a cash-out offer. */
  pricesOf(q: Queryable, selectionIds: string[], options: { lock: boolean }) {
    return store.pricesOf(q, selectionIds, options.lock);
  }

  // ---- for the demo simulator and bet placement ----

  async isEmpty(): Promise<boolean> {
    return !(await store.anySport(this.#db));
  }

  /** What the live simulator looks at in one tick. */
  async liveState() {
    return {
      due: await store.scheduledEventsStartedBy(this.#db, this.#clock.now()),
      live: await store.liveEvents(this.#db),
      markets: await store.tradableMarkets(this.#db),
      selections: await store.allSelectionOdds(this.#db),
    };
  }

  /** The selections of a slip with their market and event, locked inside the placement's transaction. */
  selectionsForBet(tx: Tx, selectionIds: string[]) {
    return store.selectionsForBet(tx, selectionIds);
  }

  /** Names of selections with their market and event, for bet views. */
  selectionNames(selectionIds: string[]) {
    return store.selectionNames(this.#db, selectionIds);
  }

  async #change<T>(
    by: CatalogActor,
    action: string,
    target: { type: string; id: string },
    details: object,
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    return inTransaction(this.#db, async (tx) => {
      const result = await work(tx);
      await this.#audit.record(tx, {
        actor: by.actor,
        action,
        target,
        outcome: 'success',
        ip: by.ip,
        details: { ...details },
      });
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

function selectionView(row: {
  id: string;
  name: string;
  outcome: string;
  odds_milli: number;
  odds_version: number;
  result: SelectionResult | null;
}) {
  return {
    id: row.id,
    name: row.name,
    outcome: row.outcome,
    odds: formatMilli(row.odds_milli),
    oddsVersion: row.odds_version,
    result: row.result,
  };
}

function oddsMilli(odds: string, field: string): number {
  const milli = parseMilli(odds);
  if (milli <= 1000 || milli > 1_000_000) throw validationError(field, 'Odds must be above 1.00 and at most 1000.');
  return milli;
}

export interface RecordedResults {
  marketId: string;
  /** The market's settlement version after this call (1 when first settled). */
  version: number;
  /** Whether any result differs from before (always, for a first settlement). */
  changed: boolean;
  results: Map<string, SelectionResult>;
}

/** A quarter line (2.25, -0.75) splits the stake over two lines: only there can a selection half win or half lose. */
function isQuarterLine(lineMilli: number | null): boolean {
  return lineMilli !== null && Math.abs(lineMilli) % 500 === 250;
}

function checkResults(
  market: { line_milli: number | null },
  selections: Array<{ id: string }>,
  results: Array<{ selectionId: string; result: SelectionResult }>,
): void {
  const ids = new Set(selections.map((selection) => selection.id));
  const seen = new Set<string>();
  results.forEach(({ selectionId, result }, index) => {
    if (!ids.has(selectionId)) {
      throw validationError(`results.${index}.selectionId`, 'This is not a selection of the market.');
    }
    if (seen.has(selectionId)) throw validationError(`results.${index}.selectionId`, 'A selection appears twice.');
    seen.add(selectionId);
    if ((result === 'half_won' || result === 'half_lost') && !isQuarterLine(market.line_milli)) {
      throw validationError(`results.${index}.result`, 'Half results exist only on quarter lines (such as 2.25).');
    }
  });
  const missing = [...ids].filter((id) => !seen.has(id));
  if (missing.length > 0) {
    throw validationError('results', `Every selection of the market needs a result; missing: ${missing.join(', ')}.`);
  }
}

function marketLine(input: CreateMarketBody): number | null {
  const needsLine = NEEDS_LINE.includes(input.type);
  if (needsLine && input.line === undefined) throw validationError('line', `A ${input.type} market needs a line.`);
  if (!needsLine && input.line !== undefined) throw validationError('line', `A ${input.type} market has no line.`);
  return input.line === undefined ? null : parseMilli(input.line);
}
