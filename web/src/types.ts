/** The shapes of the API answers the sportsbook reads (see the v1 OpenAPI document). */

export interface TenantConfig {
  tenant: {
    id: string;
    name: string;
    currency: string;
    locale: string;
    jurisdiction: string;
    embedOrigins: string[];
    available: boolean;
  };
  session: { idleTimeoutMinutes: number; absoluteTimeoutHours: number };
  locales: string[];
  embed: { sdkUrl: string; protocolVersion: number };
}

export interface Player {
  id: string;
  tenantId: string;
  externalId: string;
  status: 'active' | 'blocked' | 'paused' | 'closed';
  displayName: string;
  currency: string;
}

export type MarketType = 'match_result' | 'moneyline' | 'totals' | 'handicap' | 'both_teams_to_score' | 'correct_score';
export type MarketStatus = 'open' | 'suspended' | 'closed' | 'settled';
export type EventStatus = 'scheduled' | 'live' | 'finished' | 'cancelled';
export type LegResult = 'won' | 'lost' | 'void' | 'half_won' | 'half_lost';

export interface Selection {
  id: string;
  name: string;
  outcome: string;
  /** decimal odds, e.g. "2.15" */
  odds: string;
  oddsVersion: number;
  result: LegResult | null;
}

export interface Market {
  id: string;
  type: MarketType;
  name: string;
  line: string | null;
  status: MarketStatus;
  settlementVersion: number;
  selections: Selection[];
}

export interface Named {
  id: string;
  name: string;
}

export interface EventHeader {
  id: string;
  sport: Named;
  competition: Named & { country: string };
  home: string;
  away: string;
  startsAt: string;
  status: EventStatus;
  score: { home: number; away: number } | null;
}

export interface EventSummary extends EventHeader {
  marketCount: number;
  mainMarket: Market | null;
}

export interface EventDetail extends EventHeader {
  markets: Market[];
}

export interface SportSummary extends Named {
  eventCount: number;
  liveCount: number;
}

export interface SportPage {
  sport: Named;
  competitions: Array<Named & { country: string; events: EventSummary[] }>;
}

export interface CompetitionPage {
  competition: Named & { country: string; sport: Named };
  events: EventSummary[];
}

export type BetStatus =
  | 'pending'
  | 'accepted'
  | 'refused'
  | 'partially_cashed_out'
  | 'won'
  | 'lost'
  | 'void'
  | 'half_won'
  | 'half_lost'
  | 'cashed_out';

export interface BetLeg {
  selectionId: string;
  selectionName: string;
  marketId: string;
  marketName: string;
  eventId: string;
  eventName: string;
  eventStartsAt: string;
  odds: string;
  result: LegResult | null;
}

export interface Movement {
  txId: string;
  kind: string;
  direction: 'debit' | 'credit';
  amount: number;
  status: 'applied' | 'owed' | 'not_applied' | 'in_review';
}

export interface Bet {
  id: string;
  requestId: string;
  status: BetStatus;
  refusal: { code: string; message: string } | null;
  stake: number;
  remainingStake: number;
  currency: string;
  odds: string;
  potentialPayout: number;
  settledReturn: number | null;
  placedAt: string;
  decidedAt: string | null;
  settledAt: string | null;
  legs: BetLeg[];
  cashOuts: Array<{ stake: number; amount: number; at: string }>;
  movements: Movement[];
}

export interface CashOutOffer {
  amount: number;
  currency: string;
  stake: number;
}

export interface Balance {
  balance: number;
  currency: string;
}
