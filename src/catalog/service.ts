import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { onTransactionEnd, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import { notFound } from '../platform/errors.ts';
import { CatalogBrowsing } from './browsing.ts';
import { FeedControl } from './feed-control.ts';
import { eventSummaries } from './records.ts';
import { isQuarterLine, MarketResults, type RecordedResults } from './results.ts';
import { deriveResults, playedInSets, type FinalScore } from './result-rules.ts';
import * as competitionStore from './store/competitions.ts';
import * as eventStore from './store/events.ts';
import * as marketStore from './store/markets.ts';
import * as selectionStore from './store/selections.ts';
import * as sportStore from './store/sports.ts';
import type { SelectionResult } from './tables.ts';
import { Trading } from './trading.ts';
import { TradingViews } from './trading-views.ts';

export type { RecordedResults } from './results.ts';
export type { FinalScore } from './result-rules.ts';
export type { SelectionName } from './store/selections.ts';

/**
 * The catalog, built from its dependencies. Its use cases: `browsing` (players' reads), `trading` (traders' and
 * the feed's changes) and `tradingViews` (the traders' reads), which routes.ts, the feed and the demo seed call. The methods below are what betting asks of
 * the catalog, one call each, inside betting's transaction where it passes one.
 */
export class CatalogService {
  readonly browsing: CatalogBrowsing;
  readonly trading: Trading;
  readonly tradingViews: TradingViews;
  /** The feed's changes, and who controls each market's prices (feed-control.ts). */
  readonly feedControl: FeedControl;
  readonly #results: MarketResults;
  readonly #db: Db;

  constructor(deps: { db: Db; clock: Clock; audit: AuditLog }) {
    this.#db = deps.db;
    this.browsing = new CatalogBrowsing(deps);
    const changed = (eventId?: string) => this.browsing.forget(eventId);
    this.trading = new Trading({ ...deps, changed });
    this.feedControl = new FeedControl({ ...deps, trading: this.trading, changed });
    this.tradingViews = new TradingViews(deps);
    this.#results = new MarketResults(deps);
  }

  /** Placement: the selections of a slip with their market and event, locked inside the placement's transaction. */
  selectionsForBet(tx: Tx, selectionIds: string[]) {
    return selectionStore.selectionsForBet(tx, selectionIds);
  }

  /** Placement: how long a bet on these selections waits first (the longest in-play delay of their live events). */
  liveDelay(selectionIds: string[]): Promise<number> {
    return selectionStore.liveDelayOf(this.#db, selectionIds);
  }

  /** Placement after its delay: which of these markets changed status meanwhile (a bet stop, even reopened). */
  marketsChangedSince(tx: Tx, marketIds: string[], since: Date): Promise<string[]> {
    return marketStore.changedSince(tx, marketIds, since);
  }

  /** Bet views: names of selections with their market and event. */
  selectionNames(selectionIds: string[]) {
    return selectionStore.selectionNames(this.#db, selectionIds);
  }

  /** Cash-out: prices, results and market states of a bet's selections. */
  pricesOf(q: Queryable, selectionIds: string[], options: { lock: boolean }) {
    return selectionStore.pricesOf(q, selectionIds, options.lock);
  }

  /** Settlement: a market's results, recorded inside the settlement's transaction (see results.ts). */
  recordResults(
    tx: Tx,
    marketId: string,
    results: Array<{ selectionId: string; result: SelectionResult }>,
    mode: 'settle' | 'resettle',
  ): Promise<RecordedResults> {
    onTransactionEnd(tx, () => this.browsing.forget());
    return this.#results.record(tx, marketId, results, mode);
  }

  /** Rollback: a settled market's results withdrawn, inside the settlement's transaction (see results.ts). */
  withdrawResults(tx: Tx, marketId: string): Promise<RecordedResults> {
    onTransactionEnd(tx, () => this.browsing.forget());
    return this.#results.withdraw(tx, marketId);
  }

  /** An event with each of its markets and their selections (results by rule, voiding a cancelled event). */
  async eventMarkets(eventId: string) {
    const event = await eventStore.findEvent(this.#db, eventId);
    if (!event) throw notFound('Event');
    const markets = await marketStore.marketsOf(this.#db, [eventId]);
    const selections = await selectionStore.selectionsOf(
      this.#db,
      markets.map((market) => market.id),
    );
    return {
      event,
      markets: markets.map((market) => ({
        market,
        selections: selections.filter((selection) => selection.market_id === market.id),
      })),
    };
  }

  /**
   * Results by rule (betting/event-results.ts): an event, and each of its markets with the results its type's rule
   * derives from this final score (or the part of the score it still needs) beside the results it has now.
   */
  async resultsByRule(eventId: string, score: FinalScore) {
    const { event, markets } = await this.eventMarkets(eventId);
    const inSets = playedInSets(markets.map(({ market }) => market.type));
    return {
      event,
      markets: markets.map(({ market, selections }) => {
        const derived = deriveResults({ type: market.type, lineMilli: market.line_milli, selections, inSets }, score);
        return { market, selections, derived };
      }),
    };
  }

  /**
   * A bet's own outcome (betting/own-settlement.ts, the sandbox controls): which of these markets allow half results,
   * by the rule a market's settlement follows (results.ts: quarter lines only).
   */
  async marketsWithHalfResults(q: Queryable, marketIds: string[]): Promise<Set<string>> {
    const markets = await Promise.all([...new Set(marketIds)].map((id) => marketStore.findMarket(q, id)));
    return new Set(markets.filter((market) => market && isQuarterLine(market.line_milli)).map((market) => market!.id));
  }

  /**
   * Favourites (preferences/service.ts): the events among these ids as the catalog's lists show them (with their
   * market count and main market), in the order given; an id the catalog does not have is left out.
   */
  async eventSummaries(eventIds: string[]) {
    const found = await Promise.all(eventIds.map((id) => eventStore.eventHeader(this.#db, id)));
    return eventSummaries(
      this.#db,
      found.filter((header) => header !== undefined),
    );
  }

  /** Favourites: the competitions among these ids with their sport, in the order given; unknown ids left out. */
  async competitionRecords(competitionIds: string[]) {
    const found = await Promise.all(
      competitionIds.map(async (id) => {
        const competition = await competitionStore.findCompetition(this.#db, id);
        const sport = competition && (await sportStore.findSport(this.#db, competition.sport_id));
        if (!competition || !sport) return undefined;
        const { name, country } = competition;
        return { id, name, country, sport: { id: sport.id, name: sport.name } };
      }),
    );
    return found.filter((competition) => competition !== undefined);
  }
}
