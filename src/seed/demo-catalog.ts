/**
 * The demo catalog (`bookmaker demo seed`, `npm run demo`, the browser tests): three sports, seven leagues, thirty
 * events with the markets of their sport, six of them in play, written through the feed's door (catalog/feed.ts),
 * so it is audited as the feed, as any feed would be.
 */
import { catalogErrors } from '../catalog/errors.ts';
import { applyFeedUpdate, type FeedUpdate } from '../catalog/feed.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Clock } from '../platform/clock.ts';
import { matchProfile, LEAGUES, SPORTS } from './demo-leagues.ts';
import { demoMarkets } from './demo-markets.ts';
import { eventState, kickOff, matchDraws, play } from './match-play.ts';
import { matchModel } from './pricing.ts';
import { randomSource } from './random.ts';

/** How long ago the live events of each sport started (minutes): well into the match, and always short of its end. */
const LIVE_FOR_MINUTES = { football: [20, 100], basketball: [8, 40], tennis: [15, 55] } as const;

/**
 * The updates of a recognisable sportsbook: three sports, seven leagues, dozens of events over the coming week with
 * the markets of their sport, and in most leagues one event in play, seeded where its match stands after being
 * played from its start by the live simulator's rules (match-play.ts), so the simulator carries on from there.
 */
export function demoCatalog(now: Date, seed = 2026): FeedUpdate[] {
  const random = randomSource(seed);
  const updates: FeedUpdate[] = SPORTS.map((sport, index) => ({ type: 'sport', ...sport, sortOrder: index }));
  for (const league of LEAGUES) {
    updates.push({
      type: 'competition',
      id: league.id,
      sportId: league.sport,
      name: league.name,
      country: league.country,
    });
    for (let round = 0; round < Math.floor(league.teams.length / 2); round++) {
      const home = league.teams[round * 2]!;
      const away = league.teams[round * 2 + 1]!;
      const eventId = `ev-${league.id}-${round + 1}`;
      const profile = matchProfile(league.sport, league.id, home, away)!;
      const live = round === 0 && league.id !== 'libertadores';
      const [least, most] = LIVE_FOR_MINUTES[profile.kind];
      const startsAt = live
        ? new Date(now.getTime() - Math.floor(least + random() * (most - least)) * 60_000)
        : new Date(now.getTime() + Math.floor(1 + random() * 7 * 24) * 3_600_000);
      startsAt.setUTCMinutes(live ? startsAt.getUTCMinutes() : 0, 0, 0);
      updates.push({
        type: 'event',
        id: eventId,
        competitionId: league.id,
        home,
        away,
        startsAt: startsAt.toISOString(),
      });
      const before = kickOff(profile, startsAt.getTime());
      const state = live
        ? play(profile, before, now.getTime(), matchDraws(eventId, startsAt)).state
        : { ...before, status: 'scheduled' as const };
      const markets = demoMarkets(
        profile,
        matchModel(profile, { ...before, status: 'scheduled' }, now.getTime())!,
        matchModel(profile, state, now.getTime())!,
      );
      markets.forEach(({ market, over }, index) => {
        const id = `mk-${eventId.slice(3)}-${index + 1}`;
        updates.push({ type: 'market', id, eventId, market });
        if (over) updates.push({ type: 'market_status', marketId: id, status: 'closed' });
      });
      if (live) updates.push({ type: 'event_state', eventId, ...eventState(state, now.getTime()) });
    }
  }
  return updates;
}

/** Fills an empty catalog; refuses to touch one that already has sports. */
export async function seedDemoCatalog(
  catalog: Pick<CatalogService, 'trading'>,
  clock: Clock,
  progress: (line: string) => void = () => {},
): Promise<{ sports: number; competitions: number; events: number; markets: number }> {
  if (!(await catalog.trading.isEmpty())) throw catalogErrors.catalog_not_empty();
  const updates = demoCatalog(clock.now());
  for (const update of updates) {
    if (update.type === 'competition') progress(`seeding ${update.name}`);
    await applyFeedUpdate(catalog, update);
  }
  const count = (type: FeedUpdate['type']) => updates.filter((update) => update.type === type).length;
  return {
    sports: count('sport'),
    competitions: count('competition'),
    events: count('event'),
    markets: count('market'),
  };
}
