import { randomBytes } from 'node:crypto';
import type { AuditLog, AuditRecord } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, onTransactionEnd, type Db, type Tx } from '../platform/db/database.ts';
import { notFound, platformErrors, validationError } from '../platform/errors.ts';
import { catalogErrors } from './errors.ts';
import { checkedLine, checkOutcomes, MARKET_RULES } from './market-rules.ts';
import { formatLine, parseMilli } from './odds.ts';
import { eventDetail, marketRecords, selectionRecord } from './records.ts';
import type { CreateMarketBody } from './schemas.ts';
import * as competitionStore from './store/competitions.ts';
import * as eventStore from './store/events.ts';
import * as feedStore from './store/feed.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import * as sportStore from './store/sports.ts';
import type { Selectable, Updateable } from 'kysely';
import type { ClockDirection, EventsTable, EventStatus, LivePeriod, MarketStatus } from './tables.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** Who changed the catalog: a trader through the API, or the feed (demo simulator, a future odds feed). */
export interface CatalogActor {
  actor: AuditRecord['actor'];
  ip?: string | undefined;
}

type TradingDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  /** Told once a change is committed: the event it touched, or none when it may touch any (browsing's `forget`). */
  changed: (eventId?: string) => void;
};

/**
 * Changes to the catalog by traders and the feed: sports, competitions, events (status, score), markets and odds.
 * Every change is audited in its own transaction, and answers with the record players would now see.
 */
export class Trading {
  readonly #deps: TradingDeps;

  constructor(deps: TradingDeps) {
    this.#deps = deps;
  }

  createSport(by: CatalogActor, input: { id: string; name: string; sortOrder?: number | undefined }) {
    return this.#change(by, 'catalog.sport.create', { type: 'sport', id: input.id }, input, async (tx) => {
      if (await sportStore.findSport(tx, input.id))
        throw platformErrors.conflict(undefined, `Sport ${input.id} exists already.`);
      await sportStore.insertSport(tx, { id: input.id, name: input.name, sortOrder: input.sortOrder ?? 0 });
      this.#touched(tx);
      return { id: input.id, name: input.name };
    });
  }

  createCompetition(by: CatalogActor, input: { sportId: string; name: string; country: string; id?: string }) {
    const id = input.id ?? newId('cp');
    return this.#change(by, 'catalog.competition.create', { type: 'competition', id }, input, async (tx) => {
      if (!(await sportStore.findSport(tx, input.sportId))) throw notFound('Sport');
      await competitionStore.insertCompetition(tx, {
        id,
        sportId: input.sportId,
        name: input.name,
        country: input.country,
      });
      this.#touched(tx);
      return { id, name: input.name, country: input.country };
    });
  }

  createEvent(
    by: CatalogActor,
    input: { competitionId: string; home: string; away: string; startsAt: string; id?: string },
  ) {
    const id = input.id ?? newId('ev');
    return this.#change(by, 'catalog.event.create', { type: 'event', id }, input, async (tx) => {
      if (!(await competitionStore.findCompetition(tx, input.competitionId))) throw notFound('Competition');
      await eventStore.insertEvent(tx, {
        id,
        competition_id: input.competitionId,
        home: input.home,
        away: input.away,
        starts_at: new Date(input.startsAt),
        status: 'scheduled',
        score_home: null,
        score_away: null,
        updated_at: this.#deps.clock.now(),
      });
      this.#touched(tx, id);
      return eventDetail(tx, id);
    });
  }

  /**
   * Live, score, period, clock, start time or status. Moving to live starts the score at 0-0 unless one is given;
   * an event that ends keeps its clock stopped where it stood.
   */
  updateEvent(by: CatalogActor, eventId: string, input: EventUpdate) {
    return this.#change(by, 'catalog.event.update', { type: 'event', id: eventId }, input, async (tx) => {
      const event = await eventStore.findEvent(tx, eventId);
      if (!event) throw notFound('Event');
      const now = this.#deps.clock.now();
      const score =
        input.score ?? (input.status === 'live' && event.score_home === null ? { home: 0, away: 0 } : undefined);
      await eventStore.updateEvent(tx, eventId, {
        ...(input.startsAt ? { starts_at: new Date(input.startsAt) } : {}),
        ...(input.status ? { status: input.status } : {}),
        ...(score ? { score_home: score.home, score_away: score.away } : {}),
        ...(input.period !== undefined ? { period: input.period } : {}),
        ...clockColumns(event, input, now),
        updated_at: now,
      });
      this.#touched(tx, eventId);
      return eventDetail(tx, eventId);
    });
  }

  createMarket(by: CatalogActor, eventId: string, input: CreateMarketBody & { id?: string }) {
    const id = input.id ?? newId('mk');
    return this.#change(by, 'catalog.market.create', { type: 'market', id }, { eventId, ...input }, async (tx) => {
      if (!(await eventStore.findEvent(tx, eventId))) throw notFound('Event');
      const lineMilli = checkedLine(input.type, input.line === undefined ? null : parseMilli(input.line));
      checkOutcomes(
        input.type,
        input.selections.map((selection) => selection.outcome),
      );
      const existing = await marketStore.marketsOf(tx, [eventId]);
      await marketStore.insertMarket(tx, {
        id,
        event_id: eventId,
        type: input.type,
        line_milli: lineMilli,
        name: MARKET_RULES[input.type].name(lineMilli === null ? null : formatLine(lineMilli)),
        status: input.status ?? 'open',
        sort_order: existing.length,
        updated_at: this.#deps.clock.now(),
      });
      await selectionStore.insertSelections(
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
      this.#touched(tx, eventId);
      return (await marketRecords(tx, [eventId])).get(eventId)!.find((market) => market.id === id)!;
    });
  }

  setMarketStatus(by: CatalogActor, marketId: string, status: Exclude<MarketStatus, 'settled'>) {
    return this.#change(by, 'catalog.market.status', { type: 'market', id: marketId }, { status }, async (tx) => {
      const market = await marketStore.findMarket(tx, marketId);
      if (!market) throw notFound('Market');
      if (market.status === 'settled' || market.status === 'closed') {
        throw catalogErrors.market_closed(undefined, `The market is ${market.status}; it cannot change any more.`);
      }
      await marketStore.setMarketStatus(tx, marketId, status, this.#deps.clock.now());
      this.#touched(tx, market.event_id);
      return (await marketRecords(tx, [market.event_id])).get(market.event_id)!.find((view) => view.id === marketId)!;
    });
  }

  /** New odds and a new odds version: a bet placed on the old odds is then judged by the acceptance policy. */
  setOdds(by: CatalogActor, selectionId: string, odds: string) {
    const milli = oddsMilli(odds, 'odds');
    return this.#change(by, 'catalog.odds.change', { type: 'selection', id: selectionId }, { odds }, async (tx) => {
      const updated = await selectionStore.setOdds(tx, selectionId, milli);
      if (!updated) throw notFound('Selection');
      this.#touched(tx, updated.event_id ?? undefined);
      return selectionRecord(updated);
    });
  }

  // ---- what the feed (the demo seed and live simulator, a future odds feed) reads before it changes anything ----

  async isEmpty(): Promise<boolean> {
    return !(await sportStore.anySport(this.#deps.db));
  }

  /**
   * What a live feed steps from: the time now, the events scheduled or in play (with their sport), and their open
   * and suspended markets with their selections.
   */
  async liveState() {
    const events = await feedStore.feedEvents(this.#deps.db);
    const markets = await feedStore.feedMarkets(this.#deps.db);
    const selections = await feedStore.feedSelections(this.#deps.db);
    return { now: this.#deps.clock.now(), events, markets, selections };
  }

  /** What players read of the event (or of everything) is forgotten once the change is committed. */
  #touched(tx: Tx, eventId?: string): void {
    onTransactionEnd(tx, () => this.#deps.changed(eventId));
  }

  /** One change: its work and its audit line in one transaction. */
  async #change<T>(
    by: CatalogActor,
    action: string,
    target: { type: string; id: string },
    details: object,
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    return inTransaction(this.#deps.db, async (tx) => {
      const result = await work(tx);
      await this.#deps.audit.record(tx, {
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

function oddsMilli(odds: string, field: string): number {
  const milli = parseMilli(odds);
  if (milli <= 1000 || milli > 1_000_000) throw validationError(field, 'Odds must be above 1.00 and at most 1000.');
  return milli;
}

export interface EventUpdate {
  startsAt?: string | undefined;
  status?: EventStatus | undefined;
  score?: { home: number; away: number } | undefined;
  period?: LivePeriod | null | undefined;
  clock?: { seconds: number; running: boolean; direction?: ClockDirection | undefined } | null | undefined;
}

const ENDED: readonly EventStatus[] = ['finished', 'cancelled'];

/** The clock columns an update writes: the clock it sets, or a running clock stopped where it stands as the event ends. */
function clockColumns(event: Selectable<EventsTable>, input: EventUpdate, now: Date): Updateable<EventsTable> {
  const set = (seconds: number, running: boolean, direction: ClockDirection) => ({
    clock_seconds: seconds,
    clock_running: running,
    clock_direction: direction,
    clock_set_at: now,
  });
  if (input.clock === null)
    return { clock_seconds: null, clock_running: null, clock_direction: null, clock_set_at: null };
  if (input.clock) return set(input.clock.seconds, input.clock.running, input.clock.direction ?? 'up');
  if (!input.status || !ENDED.includes(input.status) || !event.clock_running || event.clock_seconds === null) return {};
  const elapsed = Math.floor((now.getTime() - event.clock_set_at!.getTime()) / 1000);
  const reading = event.clock_direction === 'down' ? event.clock_seconds - elapsed : event.clock_seconds + elapsed;
  return set(Math.min(86_400, Math.max(0, reading)), false, event.clock_direction!);
}
