import type { Market } from './types.ts';

/**
 * How an event page sorts its markets: into tabs as the sportsbooks players know do (main, totals, handicaps,
 * halves or sets, scores), and inside a tab by market type, the lines of one type together.
 */
const MARKET_TABS = ['all', 'main', 'totals', 'handicaps', 'periods', 'scores'] as const;
export type MarketTab = (typeof MARKET_TABS)[number];

/** Every market type in the order players look for them, and its tab; a type not listed goes last, under main. */
const TYPES: ReadonlyArray<[type: string, tab: Exclude<MarketTab, 'all'>]> = [
  ['match_result', 'main'],
  ['moneyline', 'main'],
  ['double_chance', 'main'],
  ['draw_no_bet', 'main'],
  ['both_teams_to_score', 'main'],
  ['totals', 'totals'],
  ['handicap', 'handicaps'],
  ['half_time_result', 'periods'],
  ['first_half_moneyline', 'periods'],
  ['first_set_winner', 'periods'],
  ['correct_score', 'scores'],
  ['set_betting', 'scores'],
];
const ORDER = new Map(TYPES.map(([type], index) => [type, index]));
const TAB_OF = new Map<string, MarketTab>(TYPES);

function tabOf(type: string): Exclude<MarketTab, 'all'> {
  return (TAB_OF.get(type) ?? 'main') as Exclude<MarketTab, 'all'>;
}

export interface MarketGroup {
  type: Market['type'];
  markets: Market[];
}

/** The markets of one tab, grouped by type in the familiar order; lines of a type from the lowest. */
export function marketGroups(markets: Market[], tab: MarketTab): MarketGroup[] {
  const byType = new Map<Market['type'], Market[]>();
  for (const market of markets) {
    if (tab !== 'all' && tabOf(market.type) !== tab) continue;
    byType.set(market.type, [...(byType.get(market.type) ?? []), market]);
  }
  const rank = (type: string) => ORDER.get(type) ?? ORDER.size;
  return [...byType.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([type, list]) => ({
      type,
      markets: list.sort((a, b) => Number(a.line ?? 0) - Number(b.line ?? 0)),
    }));
}

/** The tabs worth showing: "all", then each tab that has a market, in order. */
export function tabsWithMarkets(markets: Market[]): MarketTab[] {
  const present = new Set(markets.map((market) => tabOf(market.type)));
  return MARKET_TABS.filter((tab) => tab === 'all' || present.has(tab));
}
