import type { Clock } from '../platform/clock.ts';
import { catalogErrors } from './errors.ts';
import { applyFeedUpdate, type FeedUpdate } from './feed.ts';
import { formatMilli } from './odds.ts';
import type { CreateMarketBody } from './schemas.ts';
import type { CatalogService } from './service.ts';

/** A small deterministic random source (mulberry32), so a seed gives the same catalog every time. */
export function randomSource(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

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

const odds = (probability: number, margin: number) =>
  formatMilli(Math.min(500_000, Math.max(1_010, Math.round(1000 / (probability * margin) / 10) * 10)));

function poisson(lambda: number, goals: number): number {
  let factorial = 1;
  for (let i = 2; i <= goals; i++) factorial *= i;
  return (Math.exp(-lambda) * lambda ** goals) / factorial;
}

function soccerMarkets(home: number, away: number, random: () => number): CreateMarketBody[] {
  const lambdaHome = (1.45 * home) / away ** 0.5;
  const lambdaAway = (1.1 * away) / home ** 0.5;
  let pHome = 0,
    pDraw = 0,
    pAway = 0,
    pUnder = 0,
    pBoth = 0;
  const scores: Array<{ outcome: string; p: number }> = [];
  for (let h = 0; h <= 6; h++) {
    for (let a = 0; a <= 6; a++) {
      const p = poisson(lambdaHome, h) * poisson(lambdaAway, a);
      if (h > a) pHome += p;
      else if (h === a) pDraw += p;
      else pAway += p;
      if (h + a <= 2) pUnder += p;
      if (h > 0 && a > 0) pBoth += p;
      if (h <= 3 && a <= 3) scores.push({ outcome: `${h}-${a}`, p });
    }
  }
  const handicapHome = pHome - poisson(lambdaHome, 1) * poisson(lambdaAway, 0) * (0.9 + random() * 0.2);
  return [
    {
      type: 'match_result',
      selections: [
        { name: 'Home', outcome: 'home', odds: odds(pHome, 1.06) },
        { name: 'Draw', outcome: 'draw', odds: odds(pDraw, 1.06) },
        { name: 'Away', outcome: 'away', odds: odds(pAway, 1.06) },
      ],
    },
    {
      type: 'totals',
      line: '2.5',
      selections: [
        { name: 'Over 2.5', outcome: 'over', odds: odds(1 - pUnder, 1.06) },
        { name: 'Under 2.5', outcome: 'under', odds: odds(pUnder, 1.06) },
      ],
    },
    {
      type: 'both_teams_to_score',
      selections: [
        { name: 'Yes', outcome: 'yes', odds: odds(pBoth, 1.06) },
        { name: 'No', outcome: 'no', odds: odds(1 - pBoth, 1.06) },
      ],
    },
    {
      type: 'handicap',
      line: '-1.5',
      selections: [
        { name: 'Home -1.5', outcome: 'home', odds: odds(Math.max(0.05, handicapHome * 0.55), 1.06) },
        { name: 'Away +1.5', outcome: 'away', odds: odds(Math.min(0.95, 1 - handicapHome * 0.55), 1.06) },
      ],
    },
    {
      type: 'correct_score',
      selections: scores.map((score) => ({ name: score.outcome, outcome: score.outcome, odds: odds(score.p, 1.18) })),
    },
  ];
}

function twoWayMarkets(sport: 'basketball' | 'tennis', home: number, away: number): CreateMarketBody[] {
  const pHome = home ** 2 / (home ** 2 + away ** 2);
  const line = sport === 'basketball' ? '221.5' : '22.5';
  const spread =
    sport === 'basketball'
      ? `-${Math.max(1, Math.round((pHome - 0.5) * 30)) + 0.5}`
      : `-${Math.max(1, Math.round((pHome - 0.5) * 8)) + 0.5}`;
  return [
    {
      type: 'moneyline',
      selections: [
        { name: 'Home', outcome: 'home', odds: odds(pHome, 1.05) },
        { name: 'Away', outcome: 'away', odds: odds(1 - pHome, 1.05) },
      ],
    },
    {
      type: 'totals',
      line,
      selections: [
        { name: `Over ${line}`, outcome: 'over', odds: odds(0.5, 1.05) },
        { name: `Under ${line}`, outcome: 'under', odds: odds(0.5, 1.05) },
      ],
    },
    {
      type: 'handicap',
      line: spread,
      selections: [
        { name: `Home ${spread}`, outcome: 'home', odds: odds(0.5, 1.05) },
        { name: `Away +${spread.slice(1)}`, outcome: 'away', odds: odds(0.5, 1.05) },
      ],
    },
  ];
}

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
  catalog: CatalogService,
  clock: Clock,
  progress: (line: string) => void = () => {},
): Promise<{ sports: number; competitions: number; events: number; markets: number }> {
  if (!(await catalog.isEmpty())) throw catalogErrors.catalog_not_empty();
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

/**
 * One step of the live simulator: scheduled events whose time has come go live, live scores move, odds drift,
 * and markets are suspended and reopened as a trader would around a goal.
 */
export async function simulateLiveTick(catalog: CatalogService, random: () => number): Promise<number> {
  const updates: FeedUpdate[] = [];
  const { due, live, markets, selections } = await catalog.liveState();
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
