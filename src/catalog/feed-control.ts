/**
 * Who controls a market's prices. A market a feed producer created is the feed's: its prices and status follow the
 * producer's messages. A trader who changes it (a price, a status) or takes it over makes it the trader's: the
 * feed's later prices are then kept beside the trader's (`fedOdds` in the traders' view), never written over them,
 * until the trader gives it back, when the kept prices apply. A producer that falls silent has its open markets
 * suspended by rule (held), and reopened when its recovery is complete; a trader's markets are never touched.
 */
import type { Acting, AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, onTransactionEnd, type Db, type Tx } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import { catalogErrors } from './errors.ts';
import { formatLine, formatMilli } from './odds.ts';
import { openPriceBook, type FedChange, type PriceBook } from './price-book.ts';
import { liveRecord } from './records.ts';
import type { CreateMarketBody } from './schemas.ts';
import * as competitionStore from './store/competitions.ts';
import * as feedStore from './store/feed.ts';
import * as eventStore from './store/events.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import * as sportStore from './store/sports.ts';
import type { ClockDirection, EventStatus, LivePeriod, MarketControl, MarketStatus, MarketType } from './tables.ts';
import type { Trading } from './trading.ts';

type FeedControlDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  trading: Trading;
  changed: (eventId?: string) => void;
};

export interface Fixture {
  eventId: string;
  sport: { id: string; name: string };
  competition: { id: string; name: string; country: string };
  home: string;
  away: string;
  startsAt: string;
}

/** An event a producer prices, as the service holds it (the feed's `GET /api/v1/feed/events`). */
export interface PricedEventState {
  eventId: string;
  sportId: string;
  competitionId: string;
  home: string;
  away: string;
  startsAt: string;
  status: EventStatus;
  score: { home: number; away: number } | null;
  period: LivePeriod | null;
  clock: { seconds: number; running: boolean; direction: ClockDirection; setAt: string } | null;
  updatedAt: string;
  markets: Array<{
    marketId: string;
    marketType: MarketType;
    line: string | null;
    status: 'open' | 'suspended';
    control: MarketControl;
    held: boolean;
    updatedAt: string;
    prices: Array<{ outcome: string; odds: string }>;
  }>;
}

export class FeedControl {
  readonly #deps: FeedControlDeps;

  constructor(deps: FeedControlDeps) {
    this.#deps = deps;
  }

  /**
   * An event and where it belongs, made the first time (each part audited as a creation by the producer); a later
   * fixture of a scheduled event moves its start.
   */
  async fixture(tx: Tx, by: Acting, fixture: Fixture): Promise<FedChange> {
    const { trading } = this.#deps;
    if (!(await sportStore.findSport(tx, fixture.sport.id))) await trading.createSport(by, fixture.sport, tx);
    if (!(await competitionStore.findCompetition(tx, fixture.competition.id))) {
      await trading.createCompetition(by, { ...fixture.competition, sportId: fixture.sport.id }, tx);
    }
    const event = await eventStore.findEvent(tx, fixture.eventId);
    const { eventId, home, away, startsAt } = fixture;
    if (!event) {
      await trading.createEvent(by, { id: eventId, competitionId: fixture.competition.id, home, away, startsAt }, tx);
      return 'applied';
    }
    if (event.status !== 'scheduled' || event.starts_at.getTime() === new Date(startsAt).getTime()) return 'ignored';
    await trading.updateEvent(by, eventId, { startsAt }, tx);
    return 'applied';
  }

  /** A market the producer prices, made the first time (the feed's); a later one sets its prices. */
  async market(
    tx: Tx,
    by: Acting,
    producerId: string,
    eventId: string,
    market: CreateMarketBody & { id: string },
  ): Promise<FedChange> {
    const existing = await marketStore.findMarket(tx, market.id);
    if (!existing) {
      await this.#deps.trading.createMarket(by, eventId, { ...market, producerId }, tx);
      return 'applied';
    }
    if (existing.event_id !== eventId) throw validationError('marketId', 'This market belongs to another event.');
    const book = this.priceBook(tx, producerId);
    const change = await book.price(market.id, market.selections);
    await book.flush();
    return change;
  }

  /** The feed's prices for a batch of messages, in the batch's transaction (price-book.ts). */
  priceBook(tx: Tx, producerId: string): PriceBook {
    return openPriceBook(tx, producerId, (eventId) => this.#touched(tx, eventId));
  }

  /** The feed's status for a market: applied while the feed controls it (a hold by rule ends), else ignored. */
  async status(
    tx: Tx,
    producerId: string,
    marketId: string,
    status: Exclude<MarketStatus, 'settled'>,
  ): Promise<FedChange> {
    const market = await this.#fedMarket(tx, producerId, marketId);
    if (!market || market.control === 'trader' || market.status === 'closed' || market.status === 'settled') {
      return 'ignored';
    }
    await marketStore.setFedStatus(tx, marketId, status, this.#deps.clock.now());
    this.#touched(tx, market.event_id);
    return 'applied';
  }

  /** A bet stop: every open market of the event that this producer controls, suspended. */
  async stopBets(tx: Tx, producerId: string, eventId: string): Promise<number> {
    const open = await marketStore.openFedMarkets(tx, producerId, eventId);
    for (const { id } of open) await marketStore.setFedStatus(tx, id, 'suspended', this.#deps.clock.now());
    if (open.length > 0) this.#touched(tx, eventId);
    return open.length;
  }

  /** A producer fell silent (or said it is down): its open markets suspended by rule, audited as the rule. */
  hold(by: Acting, producerId: string, within?: Tx): Promise<number> {
    return this.#byRule(
      by,
      'catalog.producer.hold',
      producerId,
      (tx, at) => marketStore.holdProducerMarkets(tx, producerId, at),
      within,
    );
  }

  /** A producer's recovery is complete: the markets held for it that are still suspended reopen. */
  release(by: Acting, producerId: string, within?: Tx): Promise<number> {
    return this.#byRule(
      by,
      'catalog.producer.release',
      producerId,
      (tx, at) => marketStore.releaseProducerMarkets(tx, producerId, at),
      within,
    );
  }

  /**
   * A trader takes a fed market over (the feed's prices kept, not applied) or gives it back (the kept prices
   * apply now). Only a market a producer created can be given to the feed.
   */
  setControl(by: Acting, marketId: string, control: MarketControl) {
    return inTransaction(this.#deps.db, async (tx) => {
      const market = await marketStore.lockMarket(tx, marketId);
      if (!market) throw notFound('Market');
      if (control === 'feed' && market.producer_id === null) throw catalogErrors.market_not_fed();
      if (market.control !== control) {
        await marketStore.setControl(tx, marketId, control);
        if (control === 'feed') await selectionStore.applyKeptOdds(tx, marketId);
        this.#touched(tx, market.event_id);
      }
      await this.#deps.audit.record(tx, {
        actor: by.actor,
        action: 'catalog.market.control',
        target: { type: 'market', id: marketId },
        outcome: 'success',
        ip: by.ip,
        details: { control, before: market.control },
      });
      return { marketId, control, producerId: market.producer_id };
    });
  }

  async #byRule(
    by: Acting,
    action: string,
    producerId: string,
    change: (tx: Tx, at: Date) => Promise<string[]>,
    within?: Tx,
  ): Promise<number> {
    const work = async (tx: Tx) => {
      // one event id per market changed
      const events = await change(tx, this.#deps.clock.now());
      for (const eventId of new Set(events)) this.#touched(tx, eventId);
      await this.#deps.audit.record(tx, {
        actor: by.actor,
        action,
        target: { type: 'producer', id: producerId },
        outcome: 'success',
        details: { markets: events.length },
      });
      return events.length;
    };
    return within ? work(within) : inTransaction(this.#deps.db, work);
  }

  /** The producer's market (a market it did not create is not the feed's to change: undefined); 404 if none. */
  async #fedMarket(tx: Tx, producerId: string, marketId: string) {
    const market = await marketStore.findMarket(tx, marketId);
    if (!market) throw notFound('Market');
    return market.producer_id === producerId ? market : undefined;
  }

  /**
   * These events of the producer's, while scheduled or live, with its markets among them that are open or suspended:
   * each price is the producer's last (the one kept beside a trader's, where a trader controls the market).
   */
  async pricedEvents(producerId: string, eventIds: string[]): Promise<PricedEventState[]> {
    const { db } = this.#deps;
    const [events, markets, selections] = await Promise.all([
      feedStore.producerEvents(db, eventIds),
      feedStore.producerMarkets(db, producerId, eventIds),
      feedStore.producerSelections(db, producerId, eventIds),
    ]);
    const pricesOf = new Map<string, Array<{ outcome: string; odds: string }>>();
    for (const row of selections) {
      const odds = formatMilli(row.fed_odds_milli ?? row.odds_milli);
      pricesOf.set(row.market_id, [...(pricesOf.get(row.market_id) ?? []), { outcome: row.outcome, odds }]);
    }
    const marketsOf = new Map<string, PricedEventState['markets']>();
    for (const row of markets) {
      const market = {
        marketId: row.id,
        marketType: row.type,
        line: row.line_milli === null ? null : formatLine(row.line_milli),
        status: row.status as 'open' | 'suspended',
        control: row.control,
        held: row.held_by_producer,
        updatedAt: row.updated_at.toISOString(),
        prices: pricesOf.get(row.id) ?? [],
      };
      marketsOf.set(row.event_id, [...(marketsOf.get(row.event_id) ?? []), market]);
    }
    return events.map((row) => ({
      eventId: row.id,
      sportId: row.sport_id,
      competitionId: row.competition_id,
      home: row.home,
      away: row.away,
      startsAt: row.starts_at.toISOString(),
      status: row.status,
      ...liveRecord(row),
      updatedAt: row.updated_at.toISOString(),
      markets: marketsOf.get(row.id) ?? [],
    }));
  }

  /** Per producer: the markets it controls (open or suspended), those held by rule, and those taken over. */
  async marketCounts(): Promise<Map<string, { fed: number; held: number; takenOver: number }>> {
    const rows = await marketStore.marketCountsByProducer(this.#deps.db);
    return new Map(rows.map((row) => [row.producer_id!, { fed: row.fed, held: row.held, takenOver: row.taken_over }]));
  }

  #touched(tx: Tx, eventId: string): void {
    onTransactionEnd(tx, () => this.#deps.changed(eventId));
  }
}
