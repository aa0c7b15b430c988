/**
 * The demo's sports, leagues and teams, and what the simulator knows of a match before it starts: each side's
 * strength (by its place in its league's list), and from it the expected goals, points or sets the match is played
 * and priced with.
 */

interface LeagueSeed {
  id: string;
  sport: 'soccer' | 'basketball' | 'tennis';
  name: string;
  country: string;
  teams: string[];
}

export const SPORTS = [
  { id: 'soccer', name: 'Soccer' },
  { id: 'basketball', name: 'Basketball' },
  { id: 'tennis', name: 'Tennis' },
];

export const LEAGUES: LeagueSeed[] = [
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

type SportKind = 'football' | 'basketball' | 'tennis';

/** What a match is expected to be, before it starts: the simulator plays it and the pricing prices it from this. */
export type MatchProfile =
  | { kind: 'football'; goals: { home: number; away: number } }
  | { kind: 'basketball'; quarterSeconds: number; points: { home: number; away: number } }
  | { kind: 'tennis'; setWin: number };

/** The rules a sport is played by, named by its sport id (the demo's, and the usual others); none for the rest. */
function sportKind(sportId: string): SportKind | undefined {
  if (sportId === 'soccer' || sportId === 'football') return 'football';
  if (sportId === 'basketball' || sportId === 'tennis') return sportId;
  return undefined;
}

const strengths = new Map(
  LEAGUES.flatMap((league) =>
    league.teams.map((team, index) => [`${league.id}|${team}`, 1.6 - (index / league.teams.length) * 0.9] as const),
  ),
);
/** A side's strength, from 1.6 (first of its league's list) down to 0.7; 1.15 for a side the demo does not know. */
function strength(competitionId: string, team: string): number {
  return strengths.get(`${competitionId}|${team}`) ?? 1.15;
}

/**
 * A match's profile: football as Poisson goals (about 2.7 a match), basketball as points at the pace of its league
 * (NBA: 4 quarters of 12 minutes, about 226 points; FIBA rules elsewhere: 4 of 10, about 160), tennis as the chance
 * of the home player winning a set. Undefined for a sport the simulator does not play.
 */
export function matchProfile(
  sportId: string,
  competitionId: string,
  home: string,
  away: string,
): MatchProfile | undefined {
  const h = strength(competitionId, home);
  const a = strength(competitionId, away);
  switch (sportKind(sportId)) {
    case 'football':
      return { kind: 'football', goals: { home: (1.45 * h) / a ** 0.5, away: (1.1 * a) / h ** 0.5 } };
    case 'basketball': {
      const nba = competitionId === 'nba';
      const total = nba ? 226 : 160;
      const margin = (h - a) * (nba ? 10 : 8) + 2;
      return {
        kind: 'basketball',
        quarterSeconds: nba ? 720 : 600,
        points: { home: (total + margin) / 2, away: (total - margin) / 2 },
      };
    }
    case 'tennis':
      return { kind: 'tennis', setWin: h ** 1.5 / (h ** 1.5 + a ** 1.5) };
    case undefined:
      return undefined;
  }
}
