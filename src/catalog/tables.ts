import type { ColumnType } from 'kysely';
import type { OneOf } from '../platform/db/schema.ts';
import type {
  CLOCK_DIRECTIONS,
  EVENT_STATUSES,
  LIVE_PERIODS,
  MARKET_CONTROLS,
  MARKET_STATES,
  MARKET_TYPES,
  SELECTION_RESULTS,
} from './states.ts';

/**
 * The catalog domain's tables as Kysely sees them: sports, competitions, events, markets and selections. Each is
 * added to the one Database type (platform/db/schema.ts) here, so the platform never imports a domain; only this
 * domain's store reads and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    sports: SportsTable;
    competitions: CompetitionsTable;
    events: EventsTable;
    markets: MarketsTable;
    selections: SelectionsTable;
  }
}

interface SportsTable {
  id: string;
  name: string;
  sort_order: ColumnType<number, number | undefined, number>;
  /** Seconds a bet with a leg on a live event of the sport waits before it is accepted (0: none). */
  live_delay_seconds: ColumnType<number, number | undefined, number>;
}

interface CompetitionsTable {
  id: string;
  sport_id: string;
  name: string;
  country: string;
}

export type EventStatus = OneOf<typeof EVENT_STATUSES>;

export type LivePeriod = OneOf<typeof LIVE_PERIODS>;

export type ClockDirection = OneOf<typeof CLOCK_DIRECTIONS>;

export interface EventsTable {
  id: string;
  competition_id: string;
  home: string;
  away: string;
  starts_at: Date;
  status: EventStatus;
  score_home: number | null;
  score_away: number | null;
  period: LivePeriod | null;
  /** The clock as last set: its reading at clock_set_at, and whether it has run since (running clocks move on). */
  clock_seconds: number | null;
  clock_running: boolean | null;
  clock_direction: ClockDirection | null;
  clock_set_at: Date | null;
  updated_at: Date;
}

export type MarketType = OneOf<typeof MARKET_TYPES>;

export type MarketStatus = OneOf<typeof MARKET_STATES>;

export type MarketControl = OneOf<typeof MARKET_CONTROLS>;

export interface MarketsTable {
  id: string;
  event_id: string;
  type: MarketType;
  line_milli: number | null;
  name: string;
  status: MarketStatus;
  sort_order: ColumnType<number, number | undefined, number>;
  updated_at: Date;
  /** 0 until settled; 1 when settled; one more for each resettlement. */
  settlement_version: ColumnType<number, number | undefined, number>;
  settled_at: Date | null;
  /** The feed producer that created the market and prices it; null for a trader's own market. */
  producer_id: ColumnType<string | null, string | null | undefined, string | null>;
  control: ColumnType<MarketControl, MarketControl | undefined, MarketControl>;
  /** Suspended by the rule that a silent producer's markets take no bets; reopened when its recovery completes. */
  held_by_producer: ColumnType<boolean, boolean | undefined, boolean>;
}

export type SelectionResult = OneOf<typeof SELECTION_RESULTS>;

export interface SelectionsTable {
  id: string;
  market_id: string;
  name: string;
  outcome: string;
  odds_milli: number;
  odds_version: ColumnType<number, number | undefined, number>;
  sort_order: ColumnType<number, number | undefined, number>;
  result: ColumnType<SelectionResult | null, SelectionResult | null | undefined, SelectionResult | null>;
  /** The feed's latest price while a trader controls the market: kept, shown beside the trader's, not applied. */
  fed_odds_milli: ColumnType<number | null, number | null | undefined, number | null>;
}
