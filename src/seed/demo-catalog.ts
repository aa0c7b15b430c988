/**
 * The demo catalog (`bookmaker demo seed`, `npm run demo`, the browser tests): three sports, seven leagues, thirty
 * events, written through the feed's door (catalog/feed.ts), so it is audited as the feed, as any feed would be.
 */
import { catalogErrors } from '../catalog/errors.ts';
import { applyFeedUpdate, type FeedUpdate } from '../catalog/feed.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Clock } from '../platform/clock.ts';
import { soccerMarkets, twoWayMarkets } from './demo-markets.ts';
import { randomSource } from './random.ts';

interface LeagueSeed {
  id: string;
  sport: 'soccer' | 'basketball' | 'tennis';
  name: string;
  country: string;
  teams: string[];
}

const SPORTS = [
  { id: 'soccer', name: 'Soccer' },
  { id: 'basketball', name: 'Basketball' },
  { id: 'tennis', name: 'Tennis' },
];

const LEAGUES: LeagueSeed[] = [
  {
    id: 'br-serie-a',
    sport: 'soccer',
    name: 'Brasileirão Série A',
    country: 'Brazil',
    teams: [
      'Flamengo',
      'Palmeiras',
      'Corinthians',
      'São Paulo',
      'Fluminense',
      'Grêmio',
      'Internacional',
      'Atlético Mineiro',
      'Botafogo',
      'Cruzeiro',
      'Santos',
      'Bahia',
    ],
  },
  {
    id: 'premier-league',
    sport: 'soccer',
    name: 'Premier League',
    country: 'England',
    teams: [
      'Arsenal',
      'Manchester City',
      'Liverpool',
      'Chelsea',
      'Tottenham',
      'Manchester United',
      'Newcastle',
      'Aston Villa',
      'Brighton',
      'West Ham',
    ],
  },
  {
    id: 'la-liga',
    sport: 'soccer',
    name: 'La Liga',
    country: 'Spain',
    teams: [
      'Real Madrid',
      'Barcelona',
      'Atlético Madrid',
      'Sevilla',
      'Real Sociedad',
      'Villarreal',
      'Athletic Club',
      'Valencia',
    ],
  },
  {
    id: 'libertadores',
    sport: 'soccer',
    name: 'Copa Libertadores',
    country: 'South America',
    teams: ['River Plate', 'Boca Juniors', 'Peñarol', 'Nacional', 'LDU Quito', 'Colo-Colo', 'Olimpia', 'Alianza Lima'],
  },
  {
    id: 'nba',
    sport: 'basketball',
    name: 'NBA',
    country: 'USA',
    teams: [
      'Boston Celtics',
      'Denver Nuggets',
      'LA Lakers',
      'Golden State Warriors',
      'Miami Heat',
      'Milwaukee Bucks',
      'Phoenix Suns',
      'New York Knicks',
    ],
  },
  {
    id: 'nbb',
    sport: 'basketball',
    name: 'NBB',
    country: 'Brazil',
    teams: ['Flamengo Basquete', 'Franca', 'Minas', 'Pinheiros', 'Bauru', 'Paulistano'],
  },
  {
    id: 'atp',
    sport: 'tennis',
    name: 'ATP Tour',
    country: 'World',
    teams: ['C. Alcaraz', 'J. Sinner', 'N. Djokovic', 'D. Medvedev', 'A. Zverev', 'H. Rune', 'J. Fonseca', 'C. Ruud'],
  },
];

/** The updates of a recognisable sportsbook: three sports, seven leagues, dozens of events over the coming week. */
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
    const strength = new Map(
      league.teams.map((team, index) => [team, 1.6 - (index / league.teams.length) * 0.9 + random() * 0.2]),
    );
    const teams = [...league.teams];
    for (let round = 0; round < Math.floor(teams.length / 2); round++) {
      const home = teams[round * 2]!;
      const away = teams[round * 2 + 1]!;
      const live = round === 0 && league.id !== 'libertadores';
      const startsAt = live
        ? new Date(now.getTime() - (20 + Math.floor(random() * 50)) * 60_000)
        : new Date(now.getTime() + Math.floor(1 + random() * 7 * 24) * 3_600_000);
      startsAt.setUTCMinutes(live ? startsAt.getUTCMinutes() : 0, 0, 0);
      const eventId = `ev-${league.id}-${round + 1}`;
      updates.push({
        type: 'event',
        id: eventId,
        competitionId: league.id,
        home,
        away,
        startsAt: startsAt.toISOString(),
      });
      const markets =
        league.sport === 'soccer'
          ? soccerMarkets(strength.get(home)!, strength.get(away)!, random)
          : twoWayMarkets(league.sport, strength.get(home)!, strength.get(away)!);
      markets.forEach((market, index) =>
        updates.push({ type: 'market', id: `mk-${eventId.slice(3)}-${index + 1}`, eventId, market }),
      );
      if (live) {
        const score =
          league.sport === 'soccer'
            ? { home: Math.floor(random() * 3), away: Math.floor(random() * 2) }
            : { home: Math.floor(30 + random() * 40), away: Math.floor(30 + random() * 40) };
        updates.push({ type: 'event_state', eventId, status: 'live', score });
      }
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
