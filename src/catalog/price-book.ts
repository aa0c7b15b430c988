/**
 * The feed's prices for a batch of messages (FeedControl.priceBook, for ingestion.ts): the batch's markets read once,
 * each message's prices judged against them, and what was judged written together. It keeps state across a batch's
 * messages, where the rest of feed-control.ts answers one message at a time: apart from it, so that the batch's
 * bookkeeping reads on its own.
 */
import type { Tx } from '../platform/db/database.ts';
import { notFound, validationError } from '../platform/errors.ts';
import { checkedOdds } from './odds.ts';
import * as selectionStore from './store/selections.ts';

/** What became of a feed's change to a market. */
export type FedChange = 'applied' | 'kept' | 'ignored';

type MarketPrices = Awaited<ReturnType<typeof selectionStore.marketsSelections>>;

/** A batch's prices: read together, judged one message at a time, written together (openPriceBook). */
export interface PriceBook {
  /** Reads these markets and their prices, once for the batch. */
  prime(marketIds: string[]): Promise<void>;
  /** Judges one message's prices against what the batch has read and priced so far; writes nothing. */
  price(marketId: string, prices: Array<{ outcome: string; odds: string }>): Promise<FedChange>;
  /** Writes what was judged since the last flush. */
  flush(): Promise<void>;
}

/**
 * The feed's prices for a batch of messages, in the batch's transaction (ingestion.ts): each message's prices are
 * judged at once (applied while the feed controls the market, kept beside a trader's while a trader does, ignored
 * once it is closed or settled, refused for no such market or outcome or odds out of range) and written together
 * by `flush`, one statement for the applied and one for the kept, before anything else of the batch reads the
 * markets. A refused message has written nothing. Consecutive prices of one selection within a flush are one new
 * odds version, at the last price.
 */
export function openPriceBook(tx: Tx, producerId: string, touched: (eventId: string) => void): PriceBook {
  const markets = new Map<string, MarketPrices>();
  const applied = new Map<string, number>();
  const kept = new Map<string, number>();
  const events = new Set<string>();
  const book: PriceBook = {
    prime: async (marketIds) => {
      const missing = [...new Set(marketIds)].filter((id) => !markets.has(id));
      for (const row of await selectionStore.marketsSelections(tx, missing)) {
        markets.set(row.market_id, [...(markets.get(row.market_id) ?? []), { ...row }]);
      }
    },
    price: async (marketId, prices) => {
      if (!markets.has(marketId)) await book.prime([marketId]);
      const selections = markets.get(marketId);
      const market = selections?.[0];
      if (!selections || !market) throw notFound('Market');
      if (market.producer_id !== producerId || market.status === 'closed' || market.status === 'settled') {
        return 'ignored';
      }
      const changes = prices.map((price, index) => {
        const selection = selections.find((one) => one.outcome === price.outcome);
        if (!selection) throw validationError(`prices.${index}.outcome`, `The market has no outcome ${price.outcome}.`);
        return { selection, milli: checkedOdds(price.odds, `prices.${index}.odds`) };
      });
      for (const { selection, milli } of changes) {
        if (market.control === 'trader') kept.set(selection.id, milli);
        else if (milli !== selection.odds_milli) {
          applied.set(selection.id, milli);
          selection.odds_milli = milli;
        }
      }
      if (market.control === 'trader') return 'kept';
      events.add(market.event_id);
      return 'applied';
    },
    flush: async () => {
      await selectionStore.setManyOdds(tx, applied);
      await selectionStore.keepManyFedOdds(tx, kept);
      for (const eventId of events) touched(eventId);
      applied.clear();
      kept.clear();
      events.clear();
      // what the batch's other messages change next (a status, a new market) is read afresh
      markets.clear();
    },
  };
  return book;
}
