import { ADJUSTMENT_DIRECTIONS } from './states.ts';
import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { idempotencyErrors } from '../platform/idempotency/errors.ts';
import { IdempotencyHeaders } from '../platform/idempotency/schemas.ts';
import { walletErrors } from './errors.ts';
import { OBLIGATION_ENDPOINTS } from './states.ts';
import { OBLIGATION_KINDS } from './states.ts';
import { ADJUSTMENT_STATES, HISTORY_ACTORS, HOLD_REASONS, OBLIGATION_STATES } from './states.ts';

export const balanceSchema = {
  tags: ['player: wallet'],
  operationId: 'getBalance',
  summary: 'The balance in the casino wallet, asked of the wallet now',
  response: { 200: Type.Object({ balance: Type.Integer(), currency: Type.String() }) },
  errors: [walletErrors.balance_unavailable],
};

// ---- the operator workspace: financial delivery and exceptions ----

const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);
/** A reason a person writes: required, bounded, plain text. */
const Reason = Type.String({ minLength: 3, maxLength: 500, pattern: '\\S' });
export const OBLIGATIONS_PAGE = 50;
/** Attempts shown per obligation: the newest ones (every attempt stays in the wallet call log). */
export const CALLS_SHOWN = 20;
/** What an operator can do with an obligation in its state. */
export const REVIEW_ACTIONS = ['retry', 'resolve', 'cancel'] as const;

const WalletCallView = Type.Object({
  at: Timestamp,
  httpStatus: Nullable(Type.Integer()),
  outcome: Type.Enum(['applied', 'refused', 'unknown', 'not_sent']),
  reason: Nullable(Type.String({ description: 'why the outcome is unknown or the call was not sent' })),
  operatorCode: Nullable(Type.String({ description: "the wallet's error.code when it refused" })),
  durationMs: Type.Integer(),
});

const ObligationChange = Type.Object({
  at: Timestamp,
  from: Nullable(Type.Enum(OBLIGATION_STATES, { description: 'null: the state it was in when its history began' })),
  to: Type.Enum(OBLIGATION_STATES),
  holdReason: Nullable(Type.Enum(HOLD_REASONS)),
  by: Type.Object({
    type: Type.Enum(HISTORY_ACTORS),
    id: Type.String({ description: 'the staff member, or the part of the service (delivery, settlement, ...)' }),
  }),
  cause: Type.String({ description: "what decided it: the attempt's outcome, superseded, replaced, retry, ..." }),
  note: Nullable(
    Type.String({ description: "in words: the operator's reason, what superseded it, the wallet's answer" }),
  ),
});

export const ObligationRecord = Type.Object({
  id: Type.String(),
  tenantId: Type.String(),
  txId: Type.String(),
  betId: Nullable(Type.String()),
  playerId: Type.String({ description: 'our id of the player (pl_…)' }),
  externalPlayerId: Type.String({ description: "the casino's id of the player, as sent to the wallet" }),
  endpoint: Type.Enum(OBLIGATION_ENDPOINTS),
  kind: Type.Enum(OBLIGATION_KINDS),
  amount: Type.Integer(),
  currency: Type.String(),
  walletUrl: Type.String({ description: 'the only wallet this movement is ever sent to' }),
  status: Type.Enum(OBLIGATION_STATES),
  holdReason: Nullable(Type.Enum(HOLD_REASONS)),
  attempts: Type.Integer(),
  lastOutcome: Nullable(Type.String()),
  operatorCode: Nullable(Type.String()),
  nextAttemptAt: Nullable(Timestamp),
  createdAt: Timestamp,
  resolvedAt: Nullable(Timestamp),
  review: Nullable(Type.Object({ by: Type.String(), reason: Nullable(Type.String()) })),
  requestSent: Type.Boolean({
    description:
      'false proves that no request for it ever left the service (never claimed for delivery, no attempt): the ' +
      'wallet cannot have applied it; true: it may have reached the wallet',
  }),
  inFlight: Type.Boolean({
    description: 'an attempt is on its way to the wallet now: its answer is recorded and decides; no action until then',
  }),
  supersededBy: Nullable(
    Type.String({ description: 'the settlement that superseded it: result:<marketId>:<settlementVersion>' }),
  ),
  confirmation: Nullable(
    Type.Object(
      { txId: Type.String(), balance: Type.Integer() },
      { description: 'what the wallet answered when it confirmed it: the txId it echoed and the balance after it' },
    ),
  ),
  history: Type.Array(ObligationChange, { description: 'every change of its state or hold reason, oldest first' }),
  actions: Type.Array(Type.Enum(REVIEW_ACTIONS), { description: 'what an operator may do with it now' }),
  calls: Type.Array(WalletCallView, { description: `its newest attempts (at most ${CALLS_SHOWN}), newest first` }),
});
export type ObligationRecord = Static<typeof ObligationRecord>;

export const ObligationsQuery = Type.Object(
  {
    state: Type.Optional(Type.Enum(OBLIGATION_STATES)),
    player: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'player id (pl_…)' })),
    bet: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'bet id (bt_…)' })),
    tenantId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'platform administrators: one tenant only' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: OBLIGATIONS_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ObligationsQuery = Static<typeof ObligationsQuery>;

export const ObligationCountsQuery = Type.Object(
  {
    tenantId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'platform administrators: one tenant only (every tenant when left out); operators: their own',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ObligationCountsQuery = Static<typeof ObligationCountsQuery>;

const countsOf = <const T extends readonly string[]>(keys: T, description: string) =>
  Type.Object(
    Object.fromEntries(keys.map((key) => [key, Type.Integer({ minimum: 0 })])) as {
      [K in T[number]]: ReturnType<typeof Type.Integer>;
    },
    { description },
  );

export const ObligationCounts = Type.Object({
  tenantId: Nullable(Type.String({ description: 'the tenant counted; null: every tenant' })),
  states: countsOf(OBLIGATION_STATES, 'obligations in each state, every state listed'),
  held: countsOf(HOLD_REASONS, 'held obligations for each hold reason, every reason listed'),
});
export type ObligationCounts = Static<typeof ObligationCounts>;

const RetryBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });
const ReviewBody = Type.Object({ reason: Reason }, { additionalProperties: false });
const CancelBody = Type.Object(
  {
    reason: Type.Optional({
      ...Reason,
      description:
        'required, except for a superseded movement that was never sent: its reason then names the settlement ' +
        'that superseded it',
    }),
  },
  { additionalProperties: false },
);

const workspaceTags = ['admin: financial delivery'];
const ObligationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const reviewErrors = [
  platformErrors.not_found,
  platformErrors.validation,
  walletErrors.obligation_not_held,
  walletErrors.obligation_in_flight,
];

export const obligationsSchema = {
  tags: workspaceTags,
  operationId: 'listObligations',
  summary: 'Money owed to or by wallets, with each movement’s attempts; newest first',
  querystring: ObligationsQuery,
  response: { 200: Type.Object({ obligations: Type.Array(ObligationRecord), nextCursor: Type.String() }) },
  errors: [platformErrors.validation, platformErrors.forbidden],
};
export const obligationCountsSchema = {
  tags: workspaceTags,
  operationId: 'countObligations',
  summary: 'How many obligations are in each state, and held ones for each reason (the workspace badges)',
  querystring: ObligationCountsQuery,
  response: { 200: ObligationCounts },
  errors: [platformErrors.validation, platformErrors.forbidden],
};
export const retrySchema = {
  tags: workspaceTags,
  operationId: 'retryObligation',
  summary: 'Send a held movement again: same txId, same body, same wallet',
  params: ObligationParams,
  body: RetryBody,
  response: { 200: Type.Object({ obligation: ObligationRecord }) },
  errors: [...reviewErrors, walletErrors.retry_not_allowed],
};
export const resolveSchema = {
  tags: workspaceTags,
  operationId: 'resolveObligation',
  summary: 'Record that a held movement was done outside the service (the casino confirms it)',
  params: ObligationParams,
  body: ReviewBody,
  response: { 200: Type.Object({ obligation: ObligationRecord }) },
  errors: reviewErrors,
};
export const cancelSchema = {
  tags: workspaceTags,
  operationId: 'cancelObligation',
  summary: 'Record that a held movement is not owed and did not happen',
  params: ObligationParams,
  body: CancelBody,
  response: { 200: Type.Object({ obligation: ObligationRecord }) },
  errors: reviewErrors,
};

// ---- adjustments ----

export const AdjustmentBody = Type.Object(
  {
    playerId: Type.String({ minLength: 1, maxLength: 64, description: 'player id (pl_…)' }),
    direction: Type.Enum(ADJUSTMENT_DIRECTIONS),
    amount: Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'minor units' }),
    reason: Reason,
  },
  { additionalProperties: false },
);
export type AdjustmentBody = Static<typeof AdjustmentBody>;

export const AdjustmentView = Type.Object({
  id: Type.String(),
  tenantId: Type.String(),
  playerId: Type.String(),
  direction: Type.Enum(ADJUSTMENT_DIRECTIONS),
  amount: Type.Integer(),
  currency: Type.String(),
  reason: Type.String(),
  createdBy: Type.String({ description: 'the staff member who made (proposed) it' }),
  createdAt: Timestamp,
  status: Type.Enum(ADJUSTMENT_STATES, {
    description: "proposed: above the tenant's approval threshold, nothing owed until another staff member approves it",
  }),
  decision: Nullable(
    Type.Object(
      { by: Type.String(), at: Timestamp, reason: Nullable(Type.String()) },
      { description: "the second staff member's approval or rejection; null while proposed or within the threshold" },
    ),
  ),
  movement: Nullable(
    Type.Object(
      {
        txId: Type.String({ description: 'adjustment:<id>' }),
        status: Type.Enum(OBLIGATION_STATES),
      },
      { description: 'owed once approved; null while proposed, and for a rejected adjustment' },
    ),
  ),
});
export type AdjustmentView = Static<typeof AdjustmentView>;

const adjustmentTags = ['admin: financial delivery'];
const AdjustmentParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const AdjustmentAnswer = Type.Object({ adjustment: AdjustmentView });
const decisionErrors = [
  platformErrors.not_found,
  platformErrors.validation,
  walletErrors.adjustment_not_proposed,
  walletErrors.second_approver_required,
];

export const adjustmentSchema = {
  tags: adjustmentTags,
  operationId: 'createAdjustment',
  summary:
    "A manual credit or debit on a player's wallet, with its reason (audited); above the approval threshold, proposed",
  headers: IdempotencyHeaders,
  body: AdjustmentBody,
  response: {
    201: AdjustmentAnswer,
    200: Type.Object({ adjustment: AdjustmentView }, { description: 'a repeat of the same Idempotency-Key' }),
  },
  errors: [
    platformErrors.not_found,
    platformErrors.validation,
    idempotencyErrors.idempotency_mismatch,
    walletErrors.adjustment_above_maximum,
  ],
};

export const ADJUSTMENTS_PAGE = 50;
export const AdjustmentsQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(ADJUSTMENT_STATES)),
    player: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'player id (pl_…)' })),
    tenantId: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'platform administrators: one tenant only' }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: ADJUSTMENTS_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type AdjustmentsQuery = Static<typeof AdjustmentsQuery>;

export const adjustmentsSchema = {
  tags: adjustmentTags,
  operationId: 'listAdjustments',
  summary: 'Adjustments, newest first; status=proposed is the queue waiting for a second staff member',
  querystring: AdjustmentsQuery,
  response: { 200: Type.Object({ adjustments: Type.Array(AdjustmentView), nextCursor: Type.String() }) },
  errors: [platformErrors.validation, platformErrors.forbidden],
};
export const approveAdjustmentSchema = {
  tags: adjustmentTags,
  operationId: 'approveAdjustment',
  summary: 'Approve a proposed adjustment (another staff member than its proposer): its movement is owed now',
  params: AdjustmentParams,
  body: RetryBody,
  response: { 200: AdjustmentAnswer },
  errors: [...decisionErrors, walletErrors.adjustment_above_maximum],
};
export const rejectAdjustmentSchema = {
  tags: adjustmentTags,
  operationId: 'rejectAdjustment',
  summary: 'Reject a proposed adjustment (another staff member than its proposer): nothing is owed',
  params: AdjustmentParams,
  body: ReviewBody,
  response: { 200: AdjustmentAnswer },
  errors: decisionErrors,
};
