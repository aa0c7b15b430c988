// The rounds, planned from the seed before any bet: each round's markets (made through the trading API, and one of
// the demo feed's), its slips and cash-outs, and its settlements and resettlements.
import type { SelectionResult } from '../../src/catalog/tables.ts';
import type { SoakBet } from '../soak-check.ts';
import { PLAYERS, admin, expect } from './access.ts';
import { choices, opts } from './run-state.ts';
import { call } from './service.ts';

const MARKETS_PER_ROUND = 4;
const BETS_PER_ROUND = 600;
/** Scheduled football matches of the demo catalog: one's match result market is bet on in each round. */
const FED_EVENTS = ['premier-league', 'la-liga', 'br-serie-a'].flatMap((league) =>
  [2, 3, 4, 5].map((round) => `ev-${league}-${round}`),
);

export interface Market {
  id: string;
  /** A market of the demo feed's: its event, whose prices move while the soak runs (read again before a bet). */
  fedEvent?: string;
  selections: Array<{ id: string; odds: string; outcome: string }>;
  results?: Record<string, SelectionResult>;
  outcome?: string;
  hasBets: boolean;
}

export interface Slip {
  index: number;
  player: number;
  stake: number;
  legs: Array<{ market: Market; selection: Market['selections'][number] }>;
  /** After it is accepted, cash out some earlier bet of the round: which (0-1), all of it or a part. */
  cashOut?: { pick: number; full: boolean; fraction: number };
}

export interface Action {
  kind: 'settle' | 'resettle';
  market: Market;
  outcome: string;
}

export interface Round {
  markets: Market[];
  slips: Slip[];
  actions: Action[];
  /** Resettlements made after the next round's settlements: its credits have long been delivered by then. */
  late: Action[];
  bets: Array<SoakBet & { busy: boolean }>;
}

/** Every round's markets, slips and settlement actions. */
export async function planRounds(): Promise<Round[]> {
  const trade = async (path: string, body: unknown) =>
    expect(await admin('POST', `/api/v1/admin/trading${path}`, body), 201, path);
  // the demo seed made the soccer sport
  const { competition } = await trade('/competitions', { sportId: 'soccer', name: 'Soak League', country: 'BR' });
  const roundCount = Math.max(1, Math.min(20, Math.ceil(opts.bets / BETS_PER_ROUND)));
  const rounds: Round[] = [];
  const rng = choices.slips;
  for (let r = 0; r < roundCount; r += 1) {
    const markets: Market[] = [];
    for (let m = 0; m < MARKETS_PER_ROUND; m += 1) {
      const { event } = await trade('/events', {
        competitionId: competition.id,
        home: `Home ${r}.${m}`,
        away: `Away ${r}.${m}`,
        startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      const { market } = await trade(`/events/${event.id}/markets`, {
        type: 'match_result',
        selections: [
          { name: `Home ${r}.${m}`, outcome: 'home', odds: rng.pick(['1.85', '2.10', '2.45']) },
          { name: 'Draw', outcome: 'draw', odds: rng.pick(['3.10', '3.25', '3.40']) },
          { name: `Away ${r}.${m}`, outcome: 'away', odds: rng.pick(['2.90', '3.60', '4.20']) },
        ],
      });
      markets.push({ id: market.id, selections: market.selections, hasBets: false });
    }
    const fedEvent = FED_EVENTS[r];
    if (fedEvent) {
      const { event } = expect(await call('GET', `/api/v1/catalog/events/${fedEvent}`), 200, fedEvent);
      const result = event.markets.find((market: { type: string }) => market.type === 'match_result');
      markets.push({ id: result.id, fedEvent, selections: result.selections, hasBets: false });
    }
    const first = Math.floor((opts.bets * r) / roundCount);
    const count = Math.floor((opts.bets * (r + 1)) / roundCount) - first;
    const slips: Slip[] = Array.from({ length: count }, (_, k) => {
      const legCount = rng.chance(0.7) ? 1 : rng.int(2, 3);
      const legs = rng
        .shuffle(markets)
        .slice(0, legCount)
        .map((market) => ({ market, selection: rng.pick(market.selections) }));
      return {
        index: first + k,
        player: rng.int(0, PLAYERS - 1),
        stake: rng.int(1_00, 50_00),
        legs,
        ...(rng.chance(0.06)
          ? { cashOut: { pick: rng.next(), full: rng.chance(0.5), fraction: 0.2 + rng.next() * 0.5 } }
          : {}),
      };
    });
    // Settle the markets one by one; now and then correct one already settled at once, while its credits are on
    // their way (what supersedes them), and correct some again a round later.
    const actions: Action[] = [];
    const settled: Market[] = [];
    const results = choices.results;
    for (const market of results.shuffle(markets)) {
      const outcome = results.chance(0.1) ? 'void' : results.pick(['home', 'draw', 'away']);
      actions.push({ kind: 'settle', market, outcome });
      settled.push(market);
      if (results.chance(0.35)) {
        const corrected = results.pick(settled);
        actions.push({ kind: 'resettle', market: corrected, outcome: '' });
      }
    }
    if (!actions.some((action) => action.kind === 'resettle')) {
      actions.push({ kind: 'resettle', market: results.pick(markets), outcome: '' });
    }
    const late = results
      .shuffle(markets)
      .slice(0, results.int(1, 2))
      .map((market): Action => ({ kind: 'resettle', market, outcome: '' }));
    rounds.push({ markets, slips, actions, late, bets: [] });
  }
  return rounds;
}
