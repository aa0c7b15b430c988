/** The markets of a demo event, with plausible prices (a margin of 5 to 18 %) from the strengths of its sides. */
import { formatMilli } from '../catalog/odds.ts';
import type { CreateMarketBody } from '../catalog/schemas.ts';

/** Decimal odds (as the API writes them) of an outcome with this probability, with the bookmaker's margin. */
const odds = (probability: number, margin: number) =>
  formatMilli(Math.min(500_000, Math.max(1_010, Math.round(1000 / (probability * margin) / 10) * 10)));

function poisson(lambda: number, goals: number): number {
  let factorial = 1;
  for (let i = 2; i <= goals; i++) factorial *= i;
  return (Math.exp(-lambda) * lambda ** goals) / factorial;
}

/** A soccer match's markets, priced from the two teams' strengths (Poisson goals). */
export function soccerMarkets(home: number, away: number, random: () => number): CreateMarketBody[] {
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

/** A basketball or tennis match's markets, priced from the two sides' strengths. */
export function twoWayMarkets(sport: 'basketball' | 'tennis', home: number, away: number): CreateMarketBody[] {
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
