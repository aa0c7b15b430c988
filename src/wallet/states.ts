/**
 * The states of an obligation (a row of wallet_obligations: money owed to or by a wallet) and the moves between
 * them. The ledger (ledger.ts) refuses any move this table does not allow; the database CHECK holds the same list.
 */
export const OBLIGATION_STATES = [
  /** A stake debit on its one attempt; nobody else may send it. */
  'sending',
  /** Owed: due for (re)delivery at next_attempt_at, with the same txId and body bytes. */
  'pending',
  /** The wallet confirmed it. Final. */
  'applied',
  /** A stake debit the wallet refused, or the transport never sent: nothing moved. Final. */
  'refused',
  /** A stake debit whose outcome cannot be known; the bet's rollback settles it. Final. */
  'unknown',
  /** Automatic delivery stopped; an operator decides (hold_reason says why). Blocks the later postings of its bet. */
  'held',
  /** An operator settled a held obligation outside the service (with a reason). Final. */
  'resolved',
  /** An operator decided a held obligation is not owed (with a reason). Final. */
  'cancelled',
] as const;
export type ObligationState = (typeof OBLIGATION_STATES)[number];

/** Why an obligation is held for review. */
export const HOLD_REASONS = [
  /** The wallet refused money owed (a 4xx with an error envelope). */
  'refused',
  /** The transport refuses the destination (a private address, another port): it was never sent. */
  'refused_address',
  /** The tenant's wallet URL changed after it was recorded: it is never sent to a replacement wallet. */
  'destination_changed',
  /** An unresolved credit superseded by a later resettlement. */
  'obsolete_credit_requires_review',
  /** An unresolved correction debit superseded by a later resettlement. */
  'obsolete_debit_requires_review',
  /** A correction debit the wallet refused for insufficient funds: delivery for that bet stops. */
  'correction_insufficient_funds',
] as const;
export type HoldReason = (typeof HOLD_REASONS)[number];

/**
 * The only moves the ledger makes. A held obligation may still end applied or cancelled without an operator: a
 * superseded movement whose attempt was in flight is decided by the wallet's answer (applied: it counts; refused:
 * nothing moved and it is no longer owed). A pending one is cancelled without an operator only when it was never
 * sent and the bet's exact correction replaces it.
 */
export const OBLIGATION_TRANSITIONS: Readonly<Record<ObligationState, readonly ObligationState[]>> = {
  sending: ['applied', 'refused', 'unknown'],
  pending: ['pending', 'applied', 'held', 'cancelled'],
  held: ['pending', 'held', 'applied', 'resolved', 'cancelled'],
  applied: [],
  refused: [],
  unknown: [],
  resolved: [],
  cancelled: [],
};

/** A hold for a movement a resettlement superseded: it no longer counts, and is never sent again. */
export function isObsolete(reason: HoldReason | null): boolean {
  return reason === 'obsolete_credit_requires_review' || reason === 'obsolete_debit_requires_review';
}

/** Who changed an obligation: the service itself (`actor_id` names the part), or a staff member (`actor_id`). */
export const HISTORY_ACTORS = ['system', 'staff'] as const;
export type HistoryActor = { type: (typeof HISTORY_ACTORS)[number]; id: string };

/** States that hold back the later postings of the same bet: they are not settled yet. */
export const UNSETTLED_STATES: readonly ObligationState[] = ['sending', 'pending', 'held'];

/** The move the ledger was asked to make is not in the table: a bug in the caller, never retried. */
export class ForbiddenTransitionError extends Error {
  constructor(from: ObligationState, to: ObligationState) {
    super(`an obligation cannot move from ${from} to ${to}`);
    this.name = 'ForbiddenTransitionError';
  }
}

/** Another writer moved the obligation first: the caller must read what happened instead of assuming. */
export class LostRaceError extends Error {
  constructor(id: string, expected: ObligationState) {
    super(`obligation ${id} is no longer ${expected} (or was attempted by someone else)`);
    this.name = 'LostRaceError';
  }
}

export function checkTransition(from: ObligationState, to: ObligationState): void {
  if (!OBLIGATION_TRANSITIONS[from].includes(to)) throw new ForbiddenTransitionError(from, to);
}

/**
 * The states of an operator's adjustment. Within the tenant's approval threshold it is approved as it is made;
 * above it, it is proposed and waits for a second staff member. Its movement is owed exactly when it is approved.
 */
export const ADJUSTMENT_STATES = [
  /** Made by one staff member, above the approval threshold: nothing is owed until another approves it. */
  'proposed',
  /** Owed to or by the wallet (its movement is an obligation). Final. */
  'approved',
  /** Another staff member refused it: nothing is owed. Final. */
  'rejected',
] as const;
export type AdjustmentState = (typeof ADJUSTMENT_STATES)[number];

export const ADJUSTMENT_TRANSITIONS: Readonly<Record<AdjustmentState, readonly AdjustmentState[]>> = {
  proposed: ['approved', 'rejected'],
  approved: [],
  rejected: [],
};

/** wallet_obligations.endpoint: where an owed movement goes (balance reads are never owed). */
export const OBLIGATION_ENDPOINTS = ['debit', 'credit', 'rollback'] as const;

/** Kinds that are owed (recorded in the ledger): every kind but the balance read. */
export const OBLIGATION_KINDS = ['bet', 'payout', 'refund', 'cashout', 'resettle', 'rollback', 'adjustment'] as const;

/** Which way an operator's adjustment moves money: to the player (credit) or from the player (debit). */
export const ADJUSTMENT_DIRECTIONS = ['credit', 'debit'] as const;
export type AdjustmentDirection = (typeof ADJUSTMENT_DIRECTIONS)[number];

/** Who made an adjustment (adjustments.made_by). */
export const ADJUSTMENT_MAKERS = [
  /** A staff member (adjustments.staff_id), within the tenant's threshold or approved by a second one. */
  'staff',
  /** A sandbox tenant's server, through the sandbox controls: approved at once, no staff member (staff_id null). */
  'sandbox_server',
] as const;

/**
 * Money owed as the casino sees it through the integration API (partner-obligations.ts): the ledger's states grouped
 * by what the casino can do about them. The contract calls a movement the wallet refused "failed".
 */
export const PARTNER_STATES = [
  /** Owed, and delivery goes on by itself (`sending`, `pending`): attempts that proved nothing are retried. */
  'pending',
  /** The wallet refused it, or the transport refused its address (`held`: refused, refused_address,
   * correction_insufficient_funds): nothing moved, and automatic delivery stopped. */
  'failed',
  /** Held for review by the rules (`held`: destination_changed, obsolete_*): an operator decides. */
  'held',
  /** It counts as applied: the wallet confirmed it (`applied`), or an operator recorded it done outside (`resolved`). */
  'delivered',
  /** Final, and counts for nothing: a stake refused or of unknown outcome (its rollback settles it), or cancelled. */
  'closed',
] as const;

/** The held reasons that make a movement `failed` for the casino: its wallet, or its wallet's address, refused it. */
export const FAILED_HOLD_REASONS: readonly HoldReason[] = [
  'refused',
  'refused_address',
  'correction_insufficient_funds',
];

/** The ledger states behind each partner state but `failed` and `held`, which are `held` split by hold reason. */
export const PARTNER_STATE_STATUSES: Readonly<Record<(typeof PARTNER_STATES)[number], readonly ObligationState[]>> = {
  pending: ['sending', 'pending'],
  failed: ['held'],
  held: ['held'],
  delivered: ['applied', 'resolved'],
  closed: ['refused', 'unknown', 'cancelled'],
};
