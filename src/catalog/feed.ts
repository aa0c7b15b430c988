import type { CreateMarketBody } from './schemas.ts';
import type { CatalogService } from './service.ts';
import type { Acting } from '../platform/audit/log.ts';
import type { EventUpdate } from './trading.ts';

/**
 * The one door through which an external odds feed changes the catalog. An adapter for a real feed translates
 * its messages into these updates; the demo seed and the live simulator use the same door, so what they do is
 * exactly what a feed could do, audited as the feed.
 */
export type FeedUpdate =
  | { type: 'sport'; id: string; name: string; sortOrder?: number }
  | { type: 'competition'; id: string; sportId: string; name: string; country: string }
  | { type: 'event'; id: string; competitionId: string; home: string; away: string; startsAt: string }
  | { type: 'market'; id: string; eventId: string; market: CreateMarketBody }
  | { type: 'odds'; selectionId: string; odds: string }
  | { type: 'market_status'; marketId: string; status: 'open' | 'suspended' | 'closed' }
  | ({ type: 'event_state'; eventId: string } & Omit<EventUpdate, 'startsAt'>);

const FEED_ACTOR: Acting = { actor: { type: 'system', id: 'feed' } };

/** Applies one update through the trading use cases, as a trader's change would be (audited, as the feed). */
export async function applyFeedUpdate(
  catalog: Pick<CatalogService, 'trading'>,
  update: FeedUpdate,
  by: Acting = FEED_ACTOR,
): Promise<void> {
  const { trading } = catalog;
  switch (update.type) {
    case 'sport':
      await trading.createSport(by, update);
      return;
    case 'competition':
      await trading.createCompetition(by, update);
      return;
    case 'event':
      await trading.createEvent(by, update);
      return;
    case 'market':
      await trading.createMarket(by, update.eventId, { ...update.market, id: update.id });
      return;
    case 'odds':
      await trading.setOdds(by, update.selectionId, update.odds);
      return;
    case 'market_status':
      await trading.setMarketStatus(by, update.marketId, update.status);
      return;
    case 'event_state':
      await trading.updateEvent(by, update.eventId, {
        status: update.status,
        score: update.score,
        period: update.period,
        clock: update.clock,
      });
      return;
  }
}
