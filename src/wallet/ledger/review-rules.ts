import { isObsolete } from '../states.ts';
import type { WalletObligation } from '../tables.ts';
import { REVIEW_ACTIONS } from '../schemas.ts';
import { retryRefusal } from './retry-rule.ts';

type ReviewAction = (typeof REVIEW_ACTIONS)[number];

/** An action not offered now, and why: a code for programs and the same in words for people. */
export interface WithheldAction {
  action: ReviewAction;
  reason: string;
  message: string;
}

type Reviewed = Pick<WalletObligation, 'status' | 'hold_reason' | 'wallet_url'>;

/**
 * What an operator may do with a movement now, and why each other action is not offered: only a held movement is
 * decided, none while an attempt is on its way (its answer decides), and a retry only where the retry rule allows.
 */
export function reviewActions(
  row: Reviewed,
  tenantWalletUrl: string | undefined,
  inFlight: boolean,
): { actions: ReviewAction[]; withheld: WithheldAction[] } {
  if (row.status !== 'held') return { actions: [], withheld: [] };
  if (inFlight) {
    const message = 'An attempt is on its way to the wallet: its answer decides. Look again in a few seconds.';
    return { actions: [], withheld: REVIEW_ACTIONS.map((action) => ({ action, reason: 'in_flight', message })) };
  }
  const refusal = retryRefusal(row, tenantWalletUrl);
  if (refusal === null) return { actions: ['retry', 'resolve', 'cancel'], withheld: [] };
  return {
    actions: ['resolve', 'cancel'],
    withheld: [{ action: 'retry', reason: refusal.details.reason, message: refusal.message }],
  };
}

/**
 * Why a held movement cannot be resolved in part (some of it collected outside the service, the rest written off),
 * or null when it can. Only money the player owes is collected: a debit. A debit a resettlement superseded is
 * resolved only when the wallet applied it, all of it, since the bet's next correction counts on it.
 */
export function partialResolveRefusal(obligation: Pick<WalletObligation, 'endpoint' | 'hold_reason'>): string | null {
  if (obligation.endpoint !== 'debit') {
    return 'Only a debit can be resolved in part: a credit or a rollback is resolved whole or cancelled.';
  }
  if (isObsolete(obligation.hold_reason)) {
    return 'A resettlement superseded this debit: resolve it whole if the wallet applied it, or cancel it.';
  }
  return null;
}
