import { formatMilli, parseMilli, potentialPayout } from '../catalog/odds.ts';
import { validationError } from '../platform/errors.ts';
import { FULL_STAKE_BP, maxStakeOf } from '../integration/stake-factor.ts';
import type { Tenant } from '../tenants/tables.ts';
import { bettingErrors } from './errors.ts';
import type { OddsChangeAcceptance, PlaceBetBody } from './schemas.ts';

/** The rules a slip must meet to be placed, in the order the placement checks them; each throws its refusal. */

/** What the catalog says of a selection of the slip, read in the placement's transaction. */
export interface OfferedSelection {
  id: string;
  event_id: string;
  event_status: string;
  market_status: string;
  starts_at: Date;
  odds_milli: number;
  odds_version: number;
}

/** Before any read: each selection once, each price above 1.00. */
export function checkSlipShape(body: PlaceBetBody): void {
  const seen = new Set<string>();
  body.legs.forEach((leg, index) => {
    if (seen.has(leg.selectionId)) {
      throw validationError(`legs.${index}.selectionId`, 'A selection appears twice in the slip.');
    }
    seen.add(leg.selectionId);
    if (parseMilli(leg.odds) <= 1000) throw validationError(`legs.${index}.odds`, 'Odds are above 1.00.');
  });
}

/** What a slip accepts when it does not say: better odds, never worse (what clients before the choice relied on). */
const DEFAULT_ACCEPTANCE: OddsChangeAcceptance = 'higher';

/** The odds acceptance policy: whether the current odds may stand for the ones the player saw (thousandths). */
function acceptedOddsChange(acceptance: OddsChangeAcceptance, seen: number, current: number): boolean {
  switch (acceptance) {
    case 'none':
      return current === seen;
    case 'higher':
      return current >= seen;
    case 'any':
      return true;
  }
}

/**
 * Each leg on an open market of an event not yet started (or live), one leg per event, and the odds acceptance
 * policy the slip chose (`acceptOddsChanges`): a change it does not accept is refused with the current odds of those
 * legs; otherwise every leg takes its current odds, whatever the player saw.
 */
export function priceLegs<Row extends OfferedSelection>(body: PlaceBetBody, rows: Row[], now: Date): Row[] {
  const acceptance = body.acceptOddsChanges ?? DEFAULT_ACCEPTANCE;
  const changed: Array<{ selectionId: string; odds: string; oddsVersion: number }> = [];
  const legs = body.legs.map((leg, index) => {
    const row = rows.find((candidate) => candidate.id === leg.selectionId);
    if (!row) {
      throw bettingErrors.selection_unavailable({ selectionId: leg.selectionId, field: `legs.${index}.selectionId` });
    }
    const started = row.event_status === 'scheduled' && row.starts_at <= now;
    if (row.market_status !== 'open' || !['scheduled', 'live'].includes(row.event_status) || started) {
      throw bettingErrors.market_unavailable({
        selectionId: leg.selectionId,
        marketStatus: row.market_status,
        eventStatus: row.event_status,
      });
    }
    if (!acceptedOddsChange(acceptance, parseMilli(leg.odds), row.odds_milli)) {
      changed.push({ selectionId: row.id, odds: formatMilli(row.odds_milli), oddsVersion: row.odds_version });
    }
    return row;
  });
  if (new Set(legs.map((leg) => leg.event_id)).size !== legs.length) {
    throw validationError('legs', 'An accumulator takes at most one selection per event.');
  }
  if (changed.length > 0) throw bettingErrors.odds_changed({ legs: changed });
  return legs;
}

/**
 * The stake range, in minor units: the tenant's minimum, and its maximum times the player's stake factor (a trader
 * or an operator may lower one player's maximum, or raise it, docs/betting.md "Stake factors").
 */
export function checkStake(tenant: Tenant, stake: number, stakeFactorBp = FULL_STAKE_BP): void {
  const maxStake = maxStakeOf(tenant.max_stake, stakeFactorBp);
  if (stake < tenant.min_stake || stake > maxStake) {
    throw bettingErrors.stake_out_of_range(
      { minStake: tenant.min_stake, maxStake },
      `The stake must be between ${tenant.min_stake} and ${maxStake} (minor units).`,
    );
  }
}

/** The potential payout, exact (stake times the rounded odds of every leg), within the tenant's maximum. */
export function payoutWithinMaximum(tenant: Tenant, stake: number, legs: Array<{ odds_milli: number }>): number {
  const exactPayout = potentialPayout(
    stake,
    legs.map((leg) => leg.odds_milli),
  );
  if (exactPayout > BigInt(tenant.max_payout)) {
    throw bettingErrors.payout_above_maximum({
      maxPayout: tenant.max_payout,
      potentialPayout: exactPayout.toString(),
    });
  }
  return Number(exactPayout);
}
