/**
 * A player's stake factor: the share of the tenant's maximum stake the player may stake. The API writes it as a
 * decimal ("0.25", at most 4 places, up to "10"); it is kept in basis points (2,500), never as a binary float.
 */
export const FULL_STAKE_BP = 10_000;
/** Ten times the tenant's maximum stake, for the players a book values most. */
export const MAX_STAKE_FACTOR_BP = 100_000;

/** "0.25" → 2,500; the schema has checked the form (digits, at most 4 places). */
export function basisPoints(factor: string): number {
  const [whole = '0', fraction = ''] = factor.split('.');
  return Number(whole) * FULL_STAKE_BP + Number(fraction.padEnd(4, '0'));
}

/** 2,500 → "0.25"; 10,000 → "1". */
export function factorText(bp: number): string {
  const whole = Math.floor(bp / FULL_STAKE_BP);
  const fraction = String(bp % FULL_STAKE_BP)
    .padStart(4, '0')
    .replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** A player's maximum stake: the tenant's, times the player's stake factor, rounded down to minor units. */
export function maxStakeOf(tenantMaxStake: number, factorBp: number): number {
  return Math.floor((tenantMaxStake * factorBp) / FULL_STAKE_BP);
}
