import type { ApiRequest } from '../../../ui-shared/api-shapes.ts';
import { parseMajor } from '../i18n/index.ts';
import type { Bet, EventStatus, Market, MarketType } from '../types.ts';

/**
 * The bet slip's rules, pure (no store, no storage, no request): what a slip holds, the bets it makes of its
 * selections, what they pay (the service's arithmetic, exactly), which moves of a price the player's choice of odds
 * changes accepts, and where a selection stands after fresh catalog data. The state is slip.ts; what survives a
 * reload, slip-storage.ts; placing, slip-placement.ts.
 */

/** The most selections a slip holds. */
export const MAX_SELECTIONS = 20;

/** The key of the accumulator among the slip's bets (a single's key is its selection id). */
export const ACCA = 'acca';

export type OddsAcceptance = NonNullable<ApiRequest<'placeBet'>['acceptOddsChanges']>;
export const ODDS_ACCEPTANCES: readonly OddsAcceptance[] = ['none', 'higher', 'any'];
/** What the service assumes when a slip does not say, and what a new slip starts with. */
export const DEFAULT_ACCEPTANCE: OddsAcceptance = 'higher';

export interface SlipItem {
  selectionId: string;
  eventId: string;
  home: string;
  away: string;
  startsAt: string;
  live: boolean;
  /** seconds an in-play bet on the event waits before the service accepts it (0 before kick-off) */
  delaySeconds: number;
  marketType: MarketType;
  line: string | null;
  selectionName: string;
  /** the current price */
  odds: string;
  /** the price the player has seen and accepted (or their choice accepted for them): the one sent with the bet */
  accepted: string;
  /** the price before the last move, for its direction */
  previous?: string;
  status: 'open' | 'suspended' | 'unavailable';
  /** the single's stake as typed, in major units */
  stakeText: string;
}

export interface SlipError {
  code: string;
  details: Record<string, unknown>;
  selectionId?: string;
}

export interface SlipState {
  items: SlipItem[];
  accaStakeText: string;
  acceptance: OddsAcceptance;
  placing: boolean;
  /** what stops the whole slip (log in, no stake, a moved price, the session ended) */
  error: SlipError | null;
  /** why a bet of the last placement was not placed, by its key (ACCA or a single's selection id) */
  failed: Record<string, SlipError>;
  receipt: { bets: Bet[]; items: SlipItem[] } | null;
}

/** One bet the slip would place: a single, or the accumulator of every selection. */
export interface SlipBet {
  key: string;
  stake: number | null;
  items: SlipItem[];
}

// ---- the arithmetic: the service's rules, exactly (src/catalog/odds.ts) ----

/** Decimal odds "2.15" as thousandths (2150), exactly. */
export function oddsMilli(odds: string): bigint {
  const [whole = '0', fraction = ''] = odds.split('.');
  return BigInt(whole) * 1000n + BigInt((fraction + '000').slice(0, 3));
}

/** What a stake pays at these odds: floor(stake × odds…), one floor at the end, as the service pays it. */
export function payout(stake: number, odds: string[]): number {
  let numerator = BigInt(stake);
  let denominator = 1n;
  for (const price of odds) {
    numerator *= oddsMilli(price);
    denominator *= 1000n;
  }
  return Number(numerator / denominator);
}

/**
 * Combined odds of an accumulator as the service records them: the product of the legs, floored to thousandths, in
 * exact integers (a long accumulator's product is past what a float holds exactly). formatOdds shows them as the
 * bookmaker does (two decimals, cut); the payout is computed from the legs, never from this figure.
 */
export function combinedOdds(odds: string[]): string {
  const milli = odds.reduce((product, price) => product * oddsMilli(price), 1000n) / 1000n ** BigInt(odds.length);
  const fraction = String(milli % 1000n)
    .padStart(3, '0')
    .replace(/0$/, '');
  return `${milli / 1000n}.${fraction}`;
}

/** The odds acceptance policy of the service (src/betting/slip-rules.ts): may `current` stand for `seen`? */
export function acceptsChange(acceptance: OddsAcceptance, seen: string, current: string): boolean {
  switch (acceptance) {
    case 'none':
      return oddsMilli(current) === oddsMilli(seen);
    case 'higher':
      return oddsMilli(current) >= oddsMilli(seen);
    case 'any':
      return true;
  }
}

// ---- the slip's bets: singles and the accumulator ----

/** A stake typed in major units, in minor units; null when it is not a positive amount. */
export function stakeOf(text: string): number | null {
  const value = parseMajor(text);
  return value !== null && value > 0 ? value : null;
}

/** Two or more selections, each of a different event: an accumulator of them all can be placed. */
export function accaPossible(items: SlipItem[]): boolean {
  return items.length >= 2 && new Set(items.map((item) => item.eventId)).size === items.length;
}

/** A price moved in a way the player has not accepted. */
export function hasOddsChanges(items: SlipItem[]): boolean {
  return items.some((item) => item.odds !== item.accepted);
}

/** The bets of the slip, staked or not: each selection's single, then the accumulator when one is possible. */
export function slipBets(state: Pick<SlipState, 'items' | 'accaStakeText'>): SlipBet[] {
  const bets: SlipBet[] = state.items.map((item) => ({
    key: item.selectionId,
    stake: stakeOf(item.stakeText),
    items: [item],
  }));
  if (accaPossible(state.items)) bets.push({ key: ACCA, stake: stakeOf(state.accaStakeText), items: state.items });
  return bets;
}

/** What a bet pays if it wins: its stake at the current odds of its legs, the odds it is placed at. */
export function betPayout(bet: SlipBet): number {
  return bet.stake
    ? payout(
        bet.stake,
        bet.items.map((item) => item.odds),
      )
    : 0;
}

/** The staked bets, their total stake and their total potential payout. */
export function slipTotals(state: Pick<SlipState, 'items' | 'accaStakeText'>) {
  const staked = slipBets(state).filter((bet) => bet.stake !== null);
  return {
    count: staked.length,
    stake: staked.reduce((sum, bet) => sum + bet.stake!, 0),
    payout: staked.reduce((sum, bet) => sum + betPayout(bet), 0),
  };
}

// ---- fresh catalog data ----

/** A new price for a selection of the slip: accepted at once if the player's choice accepts the move. */
export function repriced(item: SlipItem, odds: string, acceptance: OddsAcceptance): SlipItem {
  if (odds === item.odds) return item;
  const accepted = acceptsChange(acceptance, item.accepted, odds) ? odds : item.accepted;
  return { ...item, odds, accepted, previous: item.odds };
}

/** Where a selection of the slip stands, from its market (none: gone from the event) and its event. */
export function itemStatus(market: Market | undefined, eventStatus: EventStatus): SlipItem['status'] {
  if (!market || !['scheduled', 'live'].includes(eventStatus)) return 'unavailable';
  if (market.status === 'open') return 'open';
  return market.status === 'suspended' ? 'suspended' : 'unavailable';
}

/** Decimal odds as the service sends them and the slip keeps them: "2.1", "10.125". */
const ODDS = /^\d{1,4}(\.\d{1,3})?$/;
export const isDecimalOdds = (value: unknown): value is string => typeof value === 'string' && ODDS.test(value);
