import type { ColumnType, Selectable } from 'kysely';
import type { OneOf } from '../platform/db/schema.ts';
import type { SelectionResult } from '../catalog/tables.ts';
import type { EXPOSURE_SCOPES } from './states.ts';
import type { BET_STATES } from './states.ts';

/**
 * The betting domain's tables as Kysely sees them: bets, their legs, cash-outs and the exposure they reserve. Each
 * is added to the one Database type (platform/db/schema.ts) here, so the platform never imports a domain; only this
 * domain's store reads and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    bets: BetsTable;
    cashouts: CashoutsTable;
    bet_legs: BetLegsTable;
    exposure: ExposureTable;
    bet_exposure: BetExposureTable;
  }
}

export type BetStatus = OneOf<typeof BET_STATES>;

type ExposureScope = OneOf<typeof EXPOSURE_SCOPES>;

export interface BetsTable {
  id: string;
  tenant_id: string;
  player_id: string;
  request_id: string;
  request_hash: string;
  status: BetStatus;
  refusal: string | null;
  stake: number;
  currency: string;
  odds_milli: number;
  potential_payout: number;
  placed_at: Date;
  decided_at: Date | null;
  /** The part of the stake cashed out so far; the rest (stake - cashed_out_stake) still stands. */
  cashed_out_stake: ColumnType<number, number | undefined, number>;
  /** 0 while never settled; 1 at the first settlement; one more each time a resettlement changes the bet. */
  settled_version: ColumnType<number, number | undefined, number>;
  /** What the current results pay for the standing stake (null while the bet is open). */
  settled_return: ColumnType<number | null, number | null | undefined, number | null>;
  settled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /**
   * When the bet's outcome was first decided for it alone (a sandbox outcome control, own-settlement.ts): from then on
   * its legs' results are its own, and no settlement or resettlement of a market touches it. Null: the markets decide.
   */
  outcome_override_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface CashoutsTable {
  id: string;
  bet_id: string;
  request_id: string;
  /** 1, 2, ...: the n of cashout:<betId>:p<n>. */
  number: number;
  stake: number;
  amount: number;
  /** Whether it cashed out everything that stood (txId cashout:<betId>). */
  closes_bet: boolean;
  created_at: Date;
}

export interface BetLegsTable {
  bet_id: string;
  position: number;
  selection_id: string;
  market_id: string;
  event_id: string;
  odds_milli: number;
  odds_version: number;
  result: ColumnType<SelectionResult | null, SelectionResult | null | undefined, SelectionResult | null>;
}

interface ExposureTable {
  tenant_id: string;
  scope: ExposureScope;
  ref_id: string;
  reserved: number;
}

interface BetExposureTable {
  bet_id: string;
  scope: ExposureScope;
  ref_id: string;
  amount: number;
  released_at: Date | null;
}

export type Bet = Selectable<BetsTable>;

export type BetLeg = Selectable<BetLegsTable>;

export type Cashout = Selectable<CashoutsTable>;
