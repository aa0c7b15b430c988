/**
 * The live simulator (`bookmaker demo live`, `serve --demo-live`, `npm run demo`): development and demos only. It
 * changes the catalog through the feed's door (catalog/feed.ts), as a live odds feed would.
 */
import { applyFeedUpdate, type FeedUpdate } from '../catalog/feed.ts';
import { formatMilli } from '../catalog/odds.ts';
import type { CatalogService } from '../catalog/service.ts';

/**
 * One step of the live simulator: scheduled events whose time has come go live, live scores move, odds drift,
 * and markets are suspended and reopened as a trader would around a goal.
 */
export async function simulateLiveTick(
  catalog: Pick<CatalogService, 'trading'>,
  random: () => number,
): Promise<number> {
  const updates: FeedUpdate[] = [];
  const { due, live, markets, selections } = await catalog.trading.liveState();
  for (const event of due) updates.push({ type: 'event_state', eventId: event.id, status: 'live' });
  for (const event of live) {
    if (random() < 0.1) {
      const home = random() < 0.5;
      updates.push({
        type: 'event_state',
        eventId: event.id,
        score: { home: (event.score_home ?? 0) + (home ? 1 : 0), away: (event.score_away ?? 0) + (home ? 0 : 1) },
      });
    }
  }
  for (const market of markets) {
    const roll = random();
    if (market.status === 'suspended' && roll < 0.5)
      updates.push({ type: 'market_status', marketId: market.id, status: 'open' });
    else if (market.status === 'open' && roll < 0.02)
      updates.push({ type: 'market_status', marketId: market.id, status: 'suspended' });
  }
  for (const selection of selections) {
    if (random() >= 0.05) continue;
    const drift = 1 + (random() - 0.5) * 0.1;
    const next = Math.max(1_010, Math.round((selection.odds_milli * drift) / 10) * 10);
    if (next !== selection.odds_milli)
      updates.push({ type: 'odds', selectionId: selection.id, odds: formatMilli(next) });
  }
  for (const update of updates) await applyFeedUpdate(catalog, update);
  return updates.length;
}
