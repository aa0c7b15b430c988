import type { ColumnType, Generated, Selectable } from 'kysely';
import type { OneOf } from '../platform/db/schema.ts';
import type { OBLIGATION_ENDPOINTS } from './states.ts';
import type { OBLIGATION_KINDS } from './states.ts';
import type { ADJUSTMENT_DIRECTIONS, ADJUSTMENT_MAKERS } from './states.ts';
import type { ADJUSTMENT_STATES, HISTORY_ACTORS, HOLD_REASONS, OBLIGATION_STATES } from './states.ts';

/**
 * The wallet domain's tables as Kysely sees them: the ledger of obligations, its history, the wallet call log and
 * adjustments. Each is added to the one Database type (platform/db/schema.ts) here, so the platform never imports a
 * domain; only this domain's store reads and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    wallet_obligations: WalletObligationsTable;
    wallet_obligation_history: WalletObligationHistoryTable;
    adjustments: AdjustmentsTable;
    wallet_calls: WalletCallsTable;
  }
}

export type ObligationStatus = OneOf<typeof OBLIGATION_STATES>;

export interface WalletObligationsTable {
  id: string;
  tenant_id: string;
  bet_id: string | null;
  sequence: number;
  tx_id: string;
  endpoint: OneOf<typeof OBLIGATION_ENDPOINTS>;
  /** Where this movement belongs: it is never sent anywhere else, even if the tenant's URL changed. */
  wallet_url: string;
  kind: OneOf<typeof OBLIGATION_KINDS>;
  /** Our id of the player who owes or is owed (the body carries the casino's). */
  player_id: string;
  amount: number;
  body: string;
  status: ObligationStatus;
  /** Why it is held for review (kept after an operator resolves or cancels it). */
  hold_reason: OneOf<typeof HOLD_REASONS> | null;
  attempts: ColumnType<number, number | undefined, number>;
  last_outcome: string | null;
  operator_code: string | null;
  next_attempt_at: Date;
  created_at: Date;
  resolved_at: Date | null;
  /** The delivery engine's claim: nobody else sends it before this time (a crashed claimant's claim expires). */
  claimed_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The staff member who retried, resolved or cancelled it last, and why. */
  reviewed_by: ColumnType<string | null, string | null | undefined, string | null>;
  review_reason: ColumnType<string | null, string | null | undefined, string | null>;
  /** How often the delivery engine claimed it for an attempt: 0, with no attempt, proves no request ever left. */
  claims: ColumnType<number, number | undefined, number>;
  /** What the wallet answered when it confirmed the movement: the txId it echoed, and the balance after it. */
  confirmed_tx_id: ColumnType<string | null, string | null | undefined, string | null>;
  confirmed_balance: ColumnType<number | null, number | null | undefined, number | null>;
  /** The settlement that superseded it (`result:<marketId>:<version>`), when one did. */
  superseded_by: ColumnType<string | null, string | null | undefined, string | null>;
  /** A debit resolved in part: what was not collected and is written off (minor units); null otherwise. */
  written_off: ColumnType<number | null, number | null | undefined, number | null>;
}

/** One change of an obligation's state or hold reason: when, from what to what, who or what made it, and why. */
export interface WalletObligationHistoryTable {
  id: Generated<number>;
  obligation_id: string;
  at: Date;
  /** null: the first row of an obligation whose history began with migration 0011. */
  from_status: ObligationStatus | null;
  to_status: ObligationStatus;
  hold_reason: OneOf<typeof HOLD_REASONS> | null;
  actor_type: OneOf<typeof HISTORY_ACTORS>;
  /** The staff member, or the part of the service (`delivery`, `settlement`, `placement`, ...). */
  actor_id: string;
  /** What decided it: the attempt's outcome, `superseded`, an operator's action, ... */
  cause: string;
  /** Said in words: the operator's reason, what superseded it, what the wallet answered. */
  note: string | null;
}

export interface AdjustmentsTable {
  id: string;
  tenant_id: string;
  player_id: string;
  direction: OneOf<typeof ADJUSTMENT_DIRECTIONS>;
  amount: number;
  reason: string;
  /** Who made it; a staff member's id when made_by is staff, null when the casino's sandbox server made it. */
  made_by: OneOf<typeof ADJUSTMENT_MAKERS>;
  staff_id: string | null;
  /** The maker's key: unique per staff member in the tenant, or in the tenant for its sandbox server. */
  idempotency_key: string;
  request_hash: string;
  /** Its movement, owed once it is approved (at once when within the tenant's approval threshold). */
  obligation_id: string | null;
  created_at: Date;
  status: OneOf<typeof ADJUSTMENT_STATES>;
  /** The second staff member who approved or rejected it, when, and why; null when no approval was needed. */
  decided_by: ColumnType<string | null, string | null | undefined, string | null>;
  decided_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  decision_reason: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface WalletCallsTable {
  id: Generated<number>;
  tenant_id: string;
  obligation_id: string | null;
  tx_id: string;
  endpoint: string;
  kind: string;
  http_status: number | null;
  outcome: string;
  reason: string | null;
  operator_code: string | null;
  duration_ms: number;
  attempted_at: Date;
}

export type Adjustment = Selectable<AdjustmentsTable>;

export type WalletObligation = Selectable<WalletObligationsTable>;

export type ObligationHistoryEntry = Selectable<WalletObligationHistoryTable>;
