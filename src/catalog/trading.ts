import { randomBytes } from 'node:crypto';
import type { Acting, AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, onTransactionEnd, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import { notFound, platformErrors } from '../platform/errors.ts';
import { catalogErrors } from './errors.ts';
import { checkedLine, checkOutcomes, MARKET_RULES } from './market-rules.ts';
import { checkedOdds, formatLine, parseMilli } from './odds.ts';
import { eventDetail, marketRecords, selectionRecord } from './records.ts';
import type { CreateMarketBody } from './schemas.ts';
import * as competitionStore from './store/competitions.ts';
import * as eventStore from './store/events.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import * as sportStore from './store/sports.ts';
import type { Selectable, Updateable } from 'kysely';
import type { ClockDirection, EventsTable, EventStatus, LivePeriod, MarketStatus } from './tables.ts';

const newId = (prefix: string) => `${prefix}_${randomBytes(6).toString('hex')}`;

/** Who changed the catalog: a trader through the API, or the feed (demo simulator, a future odds feed). */
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

  createSport(by: Acting, input: { id: string; name: string; sortOrder?: number | undefined }, within?: Tx) {
    return this.#change(by, 'catalog.sport.create', { type: 'sport', id: input.id }, input, within, async (tx) => {
      if (await sportStore.findSport(tx, input.id))
        throw platformErrors.conflict(undefined, `Sport ${input.id} exists already.`);
      await sportStore.insertSport(tx, { id: input.id, name: input.name, sortOrder: input.sortOrder ?? 0 });
      this.#touched(tx);
      return { id: input.id, name: input.name };
    });
  }

  /** The sport's in-play bet delay (placement.ts waits it for a bet with a leg on a live event of the sport). */
  setLiveDelay(by: Acting, sportId: string, seconds: number) {
    const target = { type: 'sport', id: sportId };
    return this.#change(
      by,
      'catalog.sport.live_delay',
      target,
      { liveDelaySeconds: seconds },
      undefined,
      async (tx) => {
        if (!(await sportStore.setLiveDelay(tx, sportId, seconds))) throw notFound('Sport');
        this.#touched(tx);
        return { id: sportId, liveDelaySeconds: seconds };
      },
    );
  }

  createCompetition(by: Acting, input: { sportId: string; name: string; country: string; id?: string }, within?: Tx) {
    const id = input.id ?? newId('cp');
    return this.#change(by, 'catalog.competition.create', { type: 'competition', id }, input, within, async (tx) => {
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
    by: Acting,
    input: { competitionId: string; home: string; away: string; startsAt: string; id?: string },
    within?: Tx,
  ) {
    const id = input.id ?? newId('ev');
    return this.#change(by, 'catalog.event.create', { type: 'event', id }, input, within, async (tx) => {
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
  updateEvent(by: Acting, eventId: string, input: EventUpdate, within?: Tx) {
    return this.#change(by, 'catalog.event.update', { type: 'event', id: eventId }, input, within, async (tx) => {
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

  createMarket(
    by: Acting,
    eventId: string,
    input: CreateMarketBody & { id?: string; producerId?: string },
    within?: Tx,
  ) {
    const id = input.id ?? newId('mk');
    const details = { eventId, ...input };
    return this.#change(by, 'catalog.market.create', { type: 'market', id }, details, within, async (tx) => {
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
        ...(input.producerId ? { producer_id: input.producerId, control: 'feed' as const } : {}),
      });
      await selectionStore.insertSelections(
        tx,
        input.selections.map((selection, index) => ({
          id: `${id}_${index}`,
          market_id: id,
          name: selection.name,
          outcome: selection.outcome,
          odds_milli: checkedOdds(selection.odds, `selections.${index}.odds`),
          sort_order: index,
        })),
      );
      this.#touched(tx, eventId);
      return (await marketRecords(tx, [eventId])).get(eventId)!.find((market) => market.id === id)!;
    });
  }

  /** A trader's status change of a fed market takes it over: the feed no longer changes it (feed-control.ts). */
  setMarketStatus(by: Acting, marketId: string, status: Exclude<MarketStatus, 'settled'>, within?: Tx) {
    const target = { type: 'market', id: marketId };
    return this.#change(by, 'catalog.market.status', target, { status }, within, async (tx) => {
      const market = await marketStore.findMarket(tx, marketId);
      if (!market) throw notFound('Market');
      if (market.status === 'settled' || market.status === 'closed') {
        throw catalogErrors.market_closed(undefined, `The market is ${market.status}; it cannot change any more.`);
      }
      await marketStore.setMarketStatus(tx, marketId, status, this.#deps.clock.now());
      if (by.actor.type === 'staff' && market.control === 'feed') await marketStore.setControl(tx, marketId, 'trader');
      this.#touched(tx, market.event_id);
      return (await marketRecords(tx, [market.event_id])).get(market.event_id)!.find((view) => view.id === marketId)!;
    });
  }

  /**
   * New odds and a new odds version: a bet placed on the old odds is then judged by the acceptance policy. A
   * trader's price on a fed market takes the market over: the feed's later prices are kept beside it, never
   * written over it (feed-control.ts).
   */
  setOdds(by: Acting, selectionId: string, odds: string, within?: Tx) {
    const milli = checkedOdds(odds, 'odds');
    const target = { type: 'selection', id: selectionId };
    return this.#change(by, 'catalog.odds.change', target, { odds }, within, async (tx) => {
      const updated = await selectionStore.setOdds(tx, selectionId, milli);
      if (!updated) throw notFound('Selection');
      if (by.actor.type === 'staff') await marketStore.takeOver(tx, updated.market_id);
      this.#touched(tx, updated.event_id ?? undefined);
      return selectionRecord(updated);
    });
  }

  // ---- what the demo seed reads before it changes anything ----

  async isEmpty(): Promise<boolean> {
    return !(await sportStore.anySport(this.#deps.db));
  }

  /** An event's status and start, read in the caller's transaction (the feed's cancellation rollback). */
  async eventStatus(q: Queryable, eventId: string): Promise<{ status: EventStatus; startsAt: Date } | undefined> {
    const event = await eventStore.findEvent(q, eventId);
    return event && { status: event.status, startsAt: event.starts_at };
  }

  async sportExists(id: string): Promise<boolean> {
    return (await sportStore.findSport(this.#deps.db, id)) !== undefined;
  }

  /** What players read of the event (or of everything) is forgotten once the change is committed. */
  #touched(tx: Tx, eventId?: string): void {
    onTransactionEnd(tx, () => this.#deps.changed(eventId));
  }

  /** One change: its work and its audit line in one transaction, the caller's (`within`) or its own. */
  async #change<T>(
    by: Acting,
    action: string,
    target: { type: string; id: string },
    details: object,
    within: Tx | undefined,
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    const audited = async (tx: Tx) => {
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
    };
    return within ? audited(within) : inTransaction(this.#deps.db, audited);
  }
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
