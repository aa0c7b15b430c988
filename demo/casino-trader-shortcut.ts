import type { FastifyInstance } from 'fastify';
import { callJson } from './http.ts';
import { CasinoError, type Account, type CasinoSetup, type CasinoState } from './casino-state.ts';

const TRADER_MARKETS = 8;

/**
 * Development only, the "trader shortcut": the markets of the casino players' open bets (operator token), and
 * settling one with a chosen winner (trader token), so that a demo shows a bet paid out without a trading console.
 */
export function traderShortcutRoutes(app: FastifyInstance, state: CasinoState): void {
  /** The markets of the casino players' open bets, with what a trader needs to settle them. */
  app.get('/trader/markets', async () => {
    const casino = state.ready();
    return { markets: await openMarkets(casino, [...state.accounts.values()]) };
  });

  /** Settles a market: the chosen selection won, every other lost. */
  app.post<{ Body: { eventId?: unknown; marketId?: unknown; selectionId?: unknown } }>(
    '/trader/settle',
    async (request) => {
      const casino = state.ready();
      const { eventId, marketId, selectionId } = request.body ?? {};
      if (typeof eventId !== 'string' || typeof marketId !== 'string' || typeof selectionId !== 'string') {
        throw new CasinoError(400, 'invalid_request', 'eventId, marketId and selectionId are required.');
      }
      const { event } = await callJson<{ event: CatalogEvent }>(
        casino.apiUrl,
        'GET',
        `/api/v1/catalog/events/${encodeURIComponent(eventId)}`,
      );
      const market = event.markets.find((candidate) => candidate.id === marketId);
      if (!market || !market.selections.some((selection) => selection.id === selectionId)) {
        throw new CasinoError(404, 'not_found', 'No such market or selection.');
      }
      const results = market.selections.map((selection) => ({
        selectionId: selection.id,
        result: selection.id === selectionId ? 'won' : 'lost',
      }));
      return callJson<SettlementReport>(
        casino.apiUrl,
        'POST',
        `/api/v1/admin/trading/markets/${encodeURIComponent(marketId)}/settle`,
        { token: casino.traderToken, body: { results } },
      );
    },
  );
}

interface CatalogSelection {
  id: string;
  name: string;
  outcome: string;
  odds: string;
}
interface CatalogMarket {
  id: string;
  type: string;
  name: string;
  status: string;
  selections: CatalogSelection[];
}
interface CatalogEvent {
  id: string;
  home: string;
  away: string;
  status: string;
  score: { home: number; away: number } | null;
  competition: { name: string };
  markets: CatalogMarket[];
}
interface StaffBet {
  status: string;
  stake: number;
  placedAt: string;
  legs: Array<{ marketId: string; eventId: string; result: string | null }>;
}
interface SettlementReport {
  market: { id: string; status: string; settlementVersion: number };
  bets: { settled: number; resettled: number; reopened: number; unchanged: number };
  owed: Array<{ currency: string; credits: number; debits: number; movements: number }>;
}

interface TraderMarket {
  eventId: string;
  eventName: string;
  home: string;
  away: string;
  competition: string;
  eventStatus: string;
  score: { home: number; away: number } | null;
  marketId: string;
  marketName: string;
  marketType: string;
  marketStatus: string;
  bets: number;
  stake: number;
  selections: Array<{ id: string; name: string; outcome: string; odds: string }>;
}

const OPEN_BETS = new Set(['pending', 'accepted', 'partially_cashed_out']);

/** The operator's view of each player's bets (GET /api/v1/admin/bets), grouped by the markets still without result. */
async function openMarkets(casino: CasinoSetup, accounts: Account[]): Promise<TraderMarket[]> {
  const waiting = new Map<string, { eventId: string; bets: number; stake: number; latest: string }>();
  for (const account of accounts) {
    if (!account.playerId) continue;
    const { bets } = await callJson<{ bets: StaffBet[] }>(
      casino.apiUrl,
      'GET',
      `/api/v1/admin/bets?player=${encodeURIComponent(account.playerId)}&limit=100`,
      { token: casino.operatorToken },
    );
    for (const bet of bets) {
      if (!OPEN_BETS.has(bet.status)) continue;
      for (const leg of bet.legs) {
        if (leg.result !== null) continue;
        const entry = waiting.get(leg.marketId) ?? { eventId: leg.eventId, bets: 0, stake: 0, latest: '' };
        entry.bets += 1;
        entry.stake += bet.stake;
        if (bet.placedAt > entry.latest) entry.latest = bet.placedAt;
        waiting.set(leg.marketId, entry);
      }
    }
  }
  const newest = [...waiting.entries()].sort((a, b) => b[1].latest.localeCompare(a[1].latest)).slice(0, TRADER_MARKETS);
  const events = new Map<string, CatalogEvent | null>();
  const markets: TraderMarket[] = [];
  for (const [marketId, entry] of newest) {
    if (!events.has(entry.eventId)) {
      const event = await callJson<{ event: CatalogEvent }>(
        casino.apiUrl,
        'GET',
        `/api/v1/catalog/events/${encodeURIComponent(entry.eventId)}`,
      ).then(
        (answer) => answer.event,
        () => null,
      );
      events.set(entry.eventId, event);
    }
    const event = events.get(entry.eventId);
    const market = event?.markets.find((candidate) => candidate.id === marketId);
    if (!event || !market || market.status === 'settled') continue;
    markets.push({
      eventId: event.id,
      eventName: `${event.home} v ${event.away}`,
      home: event.home,
      away: event.away,
      competition: event.competition.name,
      eventStatus: event.status,
      score: event.score,
      marketId,
      marketName: market.name,
      marketType: market.type,
      marketStatus: market.status,
      bets: entry.bets,
      stake: entry.stake,
      selections: market.selections.map(({ id, name, outcome, odds }) => ({ id, name, outcome, odds })),
    });
  }
  return markets;
}
