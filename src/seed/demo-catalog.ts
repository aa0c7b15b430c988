/**
 * The demo catalog (`bookmaker demo seed`, `npm run demo`, the browser tests): three sports, seven leagues, thirty
 * events with the markets of their sport, six of them in play, pushed through the feed API's ingestion as the `demo`
 * producer (docs/feed.md): its markets are the feed's, audited as `feed:demo`, and the live simulator (the same
 * producer, from a process of its own) prices them from there.
 */
import { catalogErrors } from '../catalog/errors.ts';
import type { Acting } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Ingestion } from '../feed/ingestion.ts';
import type { Producers } from '../feed/producers.ts';
import type { FeedMessage } from '../feed/schemas.ts';
import { matchProfile, LEAGUES, SPORTS } from './demo-leagues.ts';
import { demoMarkets } from './demo-markets.ts';
import { eventState, kickOff, matchDraws, play } from './match-play.ts';
import { matchModel } from './pricing.ts';
import { randomSource } from './random.ts';

/** What writing the demo catalog takes: the catalog, the feed's producers and its ingestion. */
type DemoServices = { catalog: CatalogService; producers: Producers; ingestion: Ingestion };

/** The demo's producer: registered by the seed (trusted: its results settle markets), keyed by serve --demo-live. */
export const DEMO_PRODUCER = 'demo';
export const SEEDER: Acting = { actor: { type: 'system', id: 'demo-seed' } };

/** How long ago the live events of each sport started (minutes): well into the match, and always short of its end. */
const LIVE_FOR_MINUTES = { football: [20, 100], basketball: [8, 40], tennis: [15, 55] } as const;

/**
 * The feed messages of a recognisable sportsbook: seven leagues, dozens of events over the coming week with the
 * markets of their sport, and in most leagues one event in play, seeded where its match stands after being played
 * from its start by the live simulator's rules (match-play.ts), so the simulator carries on from there. The sports
 * themselves are the platform's (SPORTS, made by `writeDemoCatalog` in their order).
 */
export function demoCatalog(now: Date, seed = 2026): FeedMessage[] {
  const random = randomSource(seed);
  const messages: FeedMessage[] = [];
  for (const league of LEAGUES) {
    const sport = SPORTS.find((one) => one.id === league.sport)!;
    const competition = { id: league.id, name: league.name, country: league.country };
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
      let sequence = 0;
      const about = { producer: DEMO_PRODUCER, eventId };
      messages.push({
        type: 'fixture',
        ...about,
        sequence: ++sequence,
        sport,
        competition,
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
        const { type: marketType, ...rest } = market;
        messages.push({ type: 'market', ...about, sequence: ++sequence, marketId: id, marketType, ...rest });
        if (over)
          messages.push({ type: 'market_status', ...about, sequence: ++sequence, marketId: id, status: 'closed' });
      });
      if (live) {
        messages.push({ type: 'event_state', ...about, sequence: ++sequence, ...eventState(state, now.getTime()) });
      }
    }
  }
  return messages;
}

/** The `demo` producer, registered the first time (trusted: the simulator's results settle its markets). */
export async function ensureDemoProducer(producers: Producers): Promise<void> {
  if ((await producers.list()).some((producer) => producer.id === DEMO_PRODUCER)) return;
  await producers.register(SEEDER, { id: DEMO_PRODUCER, name: 'Demo live simulator', trusted: true });
}

/** Fills an empty catalog; refuses to touch one that already has sports. */
export async function seedDemoCatalog(
  services: DemoServices,
  clock: Clock,
  progress: (line: string) => void = () => {},
): Promise<{ sports: number; competitions: number; events: number; markets: number }> {
  if (!(await services.catalog.trading.isEmpty())) throw catalogErrors.catalog_not_empty();
  return writeDemoCatalog(services, clock.now(), progress);
}

/**
 * The demo catalog written beside what the catalog has: the sports it lacks (the platform's, in their order), the
 * `demo` producer if it is not registered, then its messages pushed through the feed's ingestion, a batch at a time.
 */
export async function writeDemoCatalog(
  { catalog, producers, ingestion }: DemoServices,
  now: Date,
  progress: (line: string) => void = () => {},
): Promise<{ sports: number; competitions: number; events: number; markets: number }> {
  for (const [index, sport] of SPORTS.entries()) {
    if (!(await catalog.trading.sportExists(sport.id))) {
      await catalog.trading.createSport(SEEDER, { ...sport, sortOrder: index });
    }
  }
  await ensureDemoProducer(producers);
  const messages = demoCatalog(now);
  const principal = { producerId: DEMO_PRODUCER, trusted: true };
  // a batch a league (each well under the feed's 500), so the progress names what is being seeded
  const leagueOf = new Map(
    messages.flatMap((message) => (message.type === 'fixture' ? [[message.eventId, message.competition.name]] : [])),
  );
  const leagues = Map.groupBy(messages, (message) => ('eventId' in message ? leagueOf.get(message.eventId)! : ''));
  for (const [league, batch] of leagues) {
    progress(`seeding ${league}`);
    const receipt = await ingestion.push(principal, { messages: batch });
    const refused = receipt.results.find((result) => result.outcome === 'refused');
    if (refused) throw new Error(`the demo catalog was refused: ${refused.error?.message ?? 'no reason'}`);
  }
  const count = (type: FeedMessage['type']) => messages.filter((message) => message.type === type).length;
  return {
    sports: SPORTS.length,
    competitions: new Set(messages.flatMap((message) => (message.type === 'fixture' ? [message.competition.id] : [])))
      .size,
    events: count('fixture'),
    markets: count('market'),
  };
}
