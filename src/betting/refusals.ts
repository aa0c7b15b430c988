import type { AppError } from '../platform/errors.ts';
import type { Bet } from './tables.ts';
import type { WalletAttempt } from '../wallet/delivery/client.ts';
import { bettingErrors, type RefusalCode } from './errors.ts';

/** Why a bet was refused, as stored with it: a catalogued code and its details, never an HTTP status. */
export interface Refusal {
  code: RefusalCode;
  details?: Record<string, unknown>;
}

export const toError = (refusal: Refusal): AppError => bettingErrors[refusal.code](refusal.details);

/**
 * What a stake debit that did not apply means for the player. Transport reasons stay in the wallet call log; a
 * stake never sent (the destination refused by the transport) is as unavailable to the player as an unknown one.
 */
export function stakeRefusal(attempt: Exclude<WalletAttempt, { outcome: 'applied' }>): Refusal {
  if (attempt.outcome === 'unknown' || attempt.outcome === 'not_sent') return { code: 'wallet_unavailable' };
  if (attempt.code === 'insufficient_funds') return { code: 'insufficient_funds' };
  return { code: 'payment_rejected', details: { operatorCode: attempt.code } };
}

/** A stored refusal; only the wallet's own code (payment_rejected) is ever shown to the player as a detail. */
export function storedRefusal(bet: Pick<Bet, 'refusal'>): Refusal {
  const { code, details } = JSON.parse(bet.refusal!) as Refusal;
  return code === 'payment_rejected' && details !== undefined ? { code, details } : { code };
}
