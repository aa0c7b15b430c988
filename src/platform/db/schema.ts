import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';
// Allowed values of status columns come from one constant each, declared by the domain that owns the table; the
// migrations' CHECK constraints hold the same lists (test/platform/schema.test.ts compares them).
import type { CLIENT_STATUSES } from '../../aggregator/schemas.ts';
import type { EXPOSURE_SCOPES } from '../../betting/schemas.ts';
import type { BET_STATES } from '../../betting/states.ts';
import type { EVENT_STATUSES, MARKET_STATES, MARKET_TYPES, SELECTION_RESULTS } from '../../catalog/schemas.ts';
import type { PLAYER_STATUSES, SESSION_END_REASONS, SESSION_TOKEN_HOLDERS } from '../../integration/schemas.ts';
import type { STAFF_STATUSES } from '../../staff/schemas.ts';
import type { ENVIRONMENTS, TENANT_STATUSES, WALLET_MODES } from '../../tenants/schemas.ts';
import type { OBLIGATION_ENDPOINTS } from '../../wallet/ledger.ts';
import type { OBLIGATION_KINDS } from '../../wallet/movement.ts';
import type { ADJUSTMENT_DIRECTIONS } from '../../wallet/schemas.ts';
import type { ADJUSTMENT_STATES, HISTORY_ACTORS, HOLD_REASONS, OBLIGATION_STATES } from '../../wallet/states.ts';
import type { STAFF_ROLES } from '../http/principals.ts';
import type { IDEMPOTENCY_STATES } from '../idempotency/service.ts';

type OneOf<T extends readonly string[]> = T[number];

/** Table types as Kysely sees them; one interface per table, named after it. */
export interface Database {
  staff_users: StaffUsersTable;
  staff_tokens: StaffTokensTable;
  audit_log: AuditLogTable;
  aggregators: AggregatorsTable;
  aggregator_authorizations: AggregatorAuthorizationsTable;
  aggregator_keys: AggregatorKeysTable;
  clients: ClientsTable;
  tenants: TenantsTable;
  integration_keys: IntegrationKeysTable;
  idempotency_records: IdempotencyRecordsTable;
  players: PlayersTable;
  player_sessions: PlayerSessionsTable;
  session_tokens: SessionTokensTable;
  launch_tokens: LaunchTokensTable;
  sports: SportsTable;
  competitions: CompetitionsTable;
  events: EventsTable;
  markets: MarketsTable;
  selections: SelectionsTable;
  bets: BetsTable;
  bet_legs: BetLegsTable;
  cashouts: CashoutsTable;
  exposure: ExposureTable;
  bet_exposure: BetExposureTable;
  wallet_obligations: WalletObligationsTable;
  wallet_calls: WalletCallsTable;
  wallet_obligation_history: WalletObligationHistoryTable;
  adjustments: AdjustmentsTable;
}

/** jsonb columns: read as parsed values, written as JSON text. */
type Json<T> = ColumnType<T, string, string>;

type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface StaffUsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: OneOf<typeof STAFF_ROLES>;
  tenant_id: string | null;
  totp_secret_enc: string;
  /** Last TOTP time step accepted; a code at or below it is a replay. */
  totp_last_step: ColumnType<number, number | undefined, number>;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: Date | null;
  status: ColumnType<
    OneOf<typeof STAFF_STATUSES>,
    OneOf<typeof STAFF_STATUSES> | undefined,
    OneOf<typeof STAFF_STATUSES>
  >;
  created_at: CreatedAt;
}

export interface StaffTokensTable {
  token_hash: string;
  staff_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  occurred_at: Date;
  actor_type: string;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
}

export type StaffUser = Selectable<StaffUsersTable>;
export type NewStaffUser = Insertable<StaffUsersTable>;
export type AuditEntry = Selectable<AuditLogTable>;

export interface AggregatorsTable {
  id: string;
  name: string;
  created_at: Date;
  created_by: string;
}

export interface AggregatorAuthorizationsTable {
  aggregator_id: string;
  version: number;
  enabled: boolean;
  client_quota: number;
  currencies: Json<string[]>;
  jurisdictions: Json<string[]>;
  territories: Json<string[]>;
  wallet_origins: Json<string[]>;
  auto_activation: boolean;
  agreement_ref: string;
  expires_at: Date;
  updated_at: Date;
  updated_by: string;
}

export interface AggregatorKeysTable {
  id: string;
  aggregator_id: string;
  key_hash: string;
  scopes: Json<string[]>;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
  created_by: string;
}

export interface ClientsTable {
  id: string;
  aggregator_id: string;
  external_id: string;
  name: string;
  legal_name: string;
  brand_name: string;
  currency: string;
  jurisdiction: string;
  locale: string;
  territories: Json<string[]>;
  embed_origins: Json<string[]>;
  status: OneOf<typeof CLIENT_STATUSES>;
  platform_suspended_at: Date | null;
  credentials_revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  config_version: ColumnType<number, number | undefined, number>;
  created_at: Date;
  activated_at: Date | null;
}

export interface TenantsTable {
  id: string;
  client_id: string | null;
  environment: OneOf<typeof ENVIRONMENTS>;
  name: string;
  currency: string;
  locale: string;
  jurisdiction: string;
  embed_origins: Json<string[]>;
  wallet_url: string;
  wallet_mode: ColumnType<
    OneOf<typeof WALLET_MODES>,
    OneOf<typeof WALLET_MODES> | undefined,
    OneOf<typeof WALLET_MODES>
  >;
  wallet_secret_enc: string;
  status: OneOf<typeof TENANT_STATUSES>;
  created_at: Date;
  first_financial_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  min_stake: ColumnType<number, number | undefined, number>;
  max_stake: ColumnType<number, number | undefined, number>;
  max_payout: ColumnType<number, number | undefined, number>;
  max_selection_liability: ColumnType<number, number | undefined, number>;
  max_event_liability: ColumnType<number, number | undefined, number>;
  /** The largest single manual adjustment, in minor units. */
  max_adjustment: ColumnType<number, number | undefined, number>;
  /** An adjustment above this (minor units) needs a second staff member's approval before anything is owed. */
  adjustment_approval_above: ColumnType<number, number | undefined, number>;
}

export interface IntegrationKeysTable {
  id: string;
  tenant_id: string;
  key_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

export interface IdempotencyRecordsTable {
  scope: string;
  idempotency_key: string;
  credential_id: string;
  request_hash: string;
  state: OneOf<typeof IDEMPOTENCY_STATES>;
  response_status: number | null;
  response_body_enc: string | null;
  created_at: Date;
  expires_at: Date;
}

export type PlayerStatus = OneOf<typeof PLAYER_STATUSES>;

export interface PlayersTable {
  id: string;
  tenant_id: string;
  external_id: string;
  display_name: string;
  status: ColumnType<PlayerStatus, PlayerStatus | undefined, PlayerStatus>;
  kyc_status: string;
  created_at: Date;
  updated_at: Date;
}

export type SessionEndReason = OneOf<typeof SESSION_END_REASONS>;

export interface PlayerSessionsTable {
  id: string;
  tenant_id: string;
  player_id: string;
  created_at: Date;
  expires_at: Date;
  last_activity_at: Date;
  ended_at: Date | null;
  end_reason: SessionEndReason | null;
}

export interface SessionTokensTable {
  token_hash: string;
  session_id: string;
  issued_to: OneOf<typeof SESSION_TOKEN_HOLDERS>;
  created_at: Date;
}

export interface LaunchTokensTable {
  token_hash: string;
  tenant_id: string;
  session_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export type Player = Selectable<PlayersTable>;
export type PlayerSession = Selectable<PlayerSessionsTable>;
export type AggregatorAuthorization = Selectable<AggregatorAuthorizationsTable>;
export type Client = Selectable<ClientsTable>;
export type Tenant = Selectable<TenantsTable>;
export type IdempotencyRecord = Selectable<IdempotencyRecordsTable>;

export interface SportsTable {
  id: string;
  name: string;
  sort_order: ColumnType<number, number | undefined, number>;
}

export interface CompetitionsTable {
  id: string;
  sport_id: string;
  name: string;
  country: string;
}

export type EventStatus = OneOf<typeof EVENT_STATUSES>;

export interface EventsTable {
  id: string;
  competition_id: string;
  home: string;
  away: string;
  starts_at: Date;
  status: EventStatus;
  score_home: number | null;
  score_away: number | null;
  updated_at: Date;
}

export type MarketType = OneOf<typeof MARKET_TYPES>;
export type MarketStatus = OneOf<typeof MARKET_STATES>;

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
}

export type BetStatus = OneOf<typeof BET_STATES>;
export type ExposureScope = OneOf<typeof EXPOSURE_SCOPES>;

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

export interface ExposureTable {
  tenant_id: string;
  scope: ExposureScope;
  ref_id: string;
  reserved: number;
}

export interface BetExposureTable {
  bet_id: string;
  scope: ExposureScope;
  ref_id: string;
  amount: number;
  released_at: Date | null;
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
  staff_id: string;
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

export type Bet = Selectable<BetsTable>;
export type BetLeg = Selectable<BetLegsTable>;
export type Cashout = Selectable<CashoutsTable>;
export type Adjustment = Selectable<AdjustmentsTable>;
export type WalletObligation = Selectable<WalletObligationsTable>;
export type ObligationHistoryEntry = Selectable<WalletObligationHistoryTable>;
