import { ADJUSTMENT_DIRECTIONS } from './states.ts';
import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { idempotencyErrors } from '../platform/idempotency/errors.ts';
import { IdempotencyHeaders } from '../platform/idempotency/schemas.ts';
import { walletErrors } from './errors.ts';
import { OBLIGATION_ENDPOINTS } from './states.ts';
import { OBLIGATION_KINDS } from './states.ts';
import {
  ADJUSTMENT_MAKERS,
  ADJUSTMENT_STATES,
  HISTORY_ACTORS,
  HOLD_REASONS,
  OBLIGATION_STATES,
  PARTNER_STATES,
} from './states.ts';
import { ListOrderQuery } from '../platform/http/cursor.ts';

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
  body: Type.String({
    description: 'the request body, the same bytes on every attempt (POST {walletUrl}/{endpoint}, signed over them)',
  }),
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
  writtenOff: Nullable(
    Type.Integer({
      description:
        'a debit resolved in part: what was not collected and is written off (minor units); it counted for ' +
        'amount - writtenOff in the money reports',
    }),
  ),
  actions: Type.Array(Type.Enum(REVIEW_ACTIONS), { description: 'what an operator may do with it now' }),
  withheld: Type.Array(
    Type.Object({
      action: Type.Enum(REVIEW_ACTIONS),
      reason: Type.String({ description: 'why, as a code: in_flight, or the retry rule’s (details.reason)' }),
      message: Type.String({ description: 'why, in words' }),
    }),
    { description: 'each decision on a held movement that is not offered now, and why' },
  ),
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
    order: ListOrderQuery,
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
const ResolveBody = Type.Object(
  {
    reason: Reason,
    collected: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: Number.MAX_SAFE_INTEGER,
        description:
          'a debit collected in part outside the service: how much was collected (minor units, at most its amount); ' +
          'the rest is written off. Left out: all of it was done',
      }),
    ),
  },
  { additionalProperties: false },
);
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
  errors: [platformErrors.validation, platformErrors.forbidden, platformErrors.not_found],
};
export const obligationCountsSchema = {
  tags: workspaceTags,
  operationId: 'countObligations',
  summary: 'How many obligations are in each state, and held ones for each reason (the workspace badges)',
  querystring: ObligationCountsQuery,
  response: { 200: ObligationCounts },
  errors: [platformErrors.validation, platformErrors.forbidden, platformErrors.not_found],
};
export const retrySchema = {
  tags: workspaceTags,
  operationId: 'retryObligation',
  summary: 'Send a held movement again: same txId, same body, same wallet',
  params: ObligationParams,
  body: RetryBody,
  response: { 200: Type.Object({ obligation: ObligationRecord }) },
  errors: [...reviewErrors, walletErrors.retry_not_allowed, walletErrors.sent_again_too_soon],
};
export const resolveSchema = {
  tags: workspaceTags,
  operationId: 'resolveObligation',
  summary:
    'Record that a held movement was done outside the service (the casino confirms it), or a debit collected in part ' +
    'with the rest written off',
  params: ObligationParams,
  body: ResolveBody,
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
    playerId: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'our player id (pl_…)' })),
    externalPlayerId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description: "or the casino's own id of the player (the one its server opens sessions with)",
      }),
    ),
    tenantId: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: "the player's tenant, with externalPlayerId: platform staff only (an operator's is their own)",
      }),
    ),
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
  externalPlayerId: Type.String({ description: "the casino's own id of the player" }),
  direction: Type.Enum(ADJUSTMENT_DIRECTIONS),
  amount: Type.Integer(),
  currency: Type.String(),
  reason: Type.String(),
  madeBy: Type.Enum(ADJUSTMENT_MAKERS, {
    description:
      "staff: a staff member (createdBy); sandbox_server: the casino's sandbox server, through the sandbox controls " +
      '(approved at once, no staff member)',
  }),
  createdBy: Nullable(
    Type.String({ description: "the staff member who made (proposed) it; null when the casino's sandbox server did" }),
  ),
  createdByEmail: Nullable(
    Type.String({ description: 'their e-mail address (null once the account is gone, or without a staff member)' }),
  ),
  createdAt: Timestamp,
  status: Type.Enum(ADJUSTMENT_STATES, {
    description: "proposed: above the tenant's approval threshold, nothing owed until another staff member approves it",
  }),
  decision: Nullable(
    Type.Object(
      {
        by: Type.String(),
        byEmail: Nullable(Type.String({ description: 'their e-mail address' })),
        at: Timestamp,
        reason: Nullable(Type.String()),
      },
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
    order: ListOrderQuery,
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
  errors: [platformErrors.validation, platformErrors.forbidden, platformErrors.not_found],
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

// ---- the casino's view of money owed, and its reconciliation statements (integration API) ----

const casinoTags = ['integration'];
export const PARTNER_PAGE = 50;
/** Formats a statement is served in (statementSchema). */
const STATEMENT_FORMATS = ['json', 'csv'] as const;

const PartnerAttempt = Type.Object({
  at: { ...Timestamp, description: 'when the attempt ended: the wallet answered, or it timed out or failed' },
  latencyMs: Type.Integer({ description: 'how long the wallet took to answer (or until the attempt gave up)' }),
  httpStatus: Nullable(Type.Integer({ description: "the wallet's HTTP status; null when there was no answer" })),
  outcome: Type.Enum(['applied', 'refused', 'unknown', 'not_sent'], {
    description:
      'applied: confirmed; refused: a 4xx with an error envelope (nothing moved); unknown: no answer that proves ' +
      'anything (timeout, 5xx, 408, 429, a malformed answer); not_sent: the destination was refused before sending',
  }),
  code: Nullable(Type.String({ description: "the wallet's error.code when it refused" })),
  reason: Nullable(
    Type.String({ description: 'why the outcome is unknown or it was not sent: timeout, status_5xx, ...' }),
  ),
});

const PartnerChange = Type.Object({
  at: Timestamp,
  from: Nullable(Type.Enum(OBLIGATION_STATES)),
  to: Type.Enum(OBLIGATION_STATES),
  holdReason: Nullable(Type.Enum(HOLD_REASONS)),
  by: Type.Enum(HISTORY_ACTORS, { description: 'system: the service; staff: an operator of the casino or platform' }),
  cause: Type.String({ description: "what decided it: the attempt's outcome, superseded, retry, redelivery, ..." }),
  note: Nullable(Type.String({ description: "in words: the wallet's answer, what superseded it, a reason" })),
});

export const PartnerObligation = Type.Object({
  id: Type.String({ description: 'our id of the movement (ob_…): the one to ask a redelivery of' }),
  txId: Type.String(),
  betId: Nullable(Type.String()),
  playerId: Type.String({ description: 'your id of the player (externalPlayerId), as sent to the wallet' }),
  kind: Type.Enum(OBLIGATION_KINDS),
  endpoint: Type.Enum(OBLIGATION_ENDPOINTS),
  amount: Type.Integer({ description: 'minor units' }),
  currency: Type.String(),
  state: Type.Enum(PARTNER_STATES, {
    description:
      'pending: owed, delivery goes on by itself; failed: your wallet (or its address) refused it, nothing moved, ' +
      'automatic delivery stopped; held: held for review by our operators; delivered: counts as applied; closed: ' +
      'final, counts for nothing',
  }),
  status: Type.Enum(OBLIGATION_STATES, { description: "the ledger's own state (docs/ledger.md)" }),
  holdReason: Nullable(Type.Enum(HOLD_REASONS)),
  createdAt: { ...Timestamp, description: 'when it was owed' },
  deliveredAt: Nullable({ ...Timestamp, description: 'when it counted as applied (delivered only)' }),
  nextAttemptAt: Nullable({ ...Timestamp, description: 'when the next attempt is due (pending only)' }),
  attemptCount: Type.Integer({ description: 'attempts so far (every one is in the wallet call log)' }),
  lastOutcome: Nullable(Type.String()),
  operatorCode: Nullable(Type.String({ description: "your wallet's error.code when it refused it" })),
  request: Type.Object(
    {
      method: Type.Literal('POST'),
      url: Type.String({ description: 'the only address it is ever sent to: the wallet URL it was recorded for' }),
      body: Type.String({
        description:
          'the exact body text, byte for byte the same on every attempt (each attempt signs it with a fresh ' +
          'X-Timestamp and X-Signature)',
      }),
    },
    { description: 'what every attempt sends' },
  ),
  confirmation: Nullable(
    Type.Object(
      { txId: Type.String(), balance: Type.Integer() },
      { description: 'what your wallet answered when it confirmed it: the txId echoed, and the balance after it' },
    ),
  ),
  waitingFor: Nullable(
    Type.String({
      description:
        'the txId of an earlier movement of the same bet that is not settled yet: the postings of a bet go out in ' +
        'order, so this one waits for it',
    }),
  ),
  inFlight: Type.Boolean({ description: 'an attempt is on its way to the wallet now' }),
  redeliverable: Type.Boolean({ description: 'a redelivery may be asked now (POST …/redeliver)' }),
  attempts: Type.Array(PartnerAttempt, { description: `its newest attempts (at most ${CALLS_SHOWN}), newest first` }),
  history: Type.Array(PartnerChange, { description: 'every change of its state or hold reason, oldest first' }),
});
export type PartnerObligation = Static<typeof PartnerObligation>;

export const PartnerObligationsQuery = Type.Object(
  {
    state: Type.Optional(Type.Enum(PARTNER_STATES)),
    player: Type.Optional(
      Type.String({ minLength: 1, maxLength: 128, description: 'your id of the player (externalPlayerId)' }),
    ),
    bet: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'bet id (bt_…)' })),
    from: Type.Optional({ ...Timestamp, description: 'owed at or after this time' }),
    to: Type.Optional({ ...Timestamp, description: 'owed before this time' }),
    order: ListOrderQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PARTNER_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100, description: 'nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);
export type PartnerObligationsQuery = Static<typeof PartnerObligationsQuery>;

export const partnerObligationsSchema = {
  tags: casinoTags,
  operationId: 'listOwedMovements',
  summary: 'Money owed to or by your wallet in this environment, with each movement’s attempts; newest first',
  querystring: PartnerObligationsQuery,
  response: {
    200: Type.Object({
      obligations: Type.Array(PartnerObligation),
      nextCursor: Type.String({ description: 'empty when there is no further page' }),
    }),
  },
  errors: [platformErrors.validation],
};

export const REDELIVERY_EFFECTS = ['scheduled', 'already_due'] as const;
const RedeliverBody = Type.Object(
  { reason: Type.Optional({ ...Reason, description: 'why, for the audit trail' }) },
  { additionalProperties: false },
);

export const redeliverSchema = {
  tags: casinoTags,
  operationId: 'redeliverMovement',
  summary: 'Send a pending or failed movement again now: same txId, same body, same wallet; never a new one',
  description:
    'Idempotent: asking again, or many times at once, changes nothing more. `scheduled`: it is due now; ' +
    '`already_due`: it was due already (or waits for an earlier movement of its bet, see waitingFor). One attempt ' +
    'at a time, at most one redelivery or retry of a movement every 10 s: 409 `obligation_in_flight` while an ' +
    'attempt is on its way, 429 `sent_again_too_soon` (with Retry-After) within 10 s of the last.',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  body: RedeliverBody,
  response: {
    202: Type.Object({
      obligation: PartnerObligation,
      redelivery: Type.Enum(REDELIVERY_EFFECTS),
    }),
  },
  errors: [
    platformErrors.not_found,
    walletErrors.redelivery_not_allowed,
    walletErrors.obligation_in_flight,
    walletErrors.sent_again_too_soon,
  ],
};

export const transactionSchema = {
  tags: casinoTags,
  operationId: 'getTransaction',
  summary: 'One movement by its txId: what was sent, where and when, and every answer',
  description: 'Money movements only: balance reads (balance:<uuid>) are not kept and answer 404.',
  params: Type.Object({ txId: Type.String({ minLength: 1, maxLength: 200 }) }),
  response: { 200: Type.Object({ transaction: PartnerObligation }) },
  errors: [platformErrors.not_found],
};

const Day = Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'a UTC day, YYYY-MM-DD' });

export const StatementMovement = Type.Object({
  txId: Type.String(),
  betId: Nullable(Type.String()),
  playerId: Type.String({ description: 'your id of the player' }),
  kind: Type.Enum(OBLIGATION_KINDS),
  endpoint: Type.Enum(OBLIGATION_ENDPOINTS),
  direction: Type.Enum(['debit', 'credit'], { description: 'debit: from the player; credit (and rollback): to' }),
  amount: Type.Integer(),
  currency: Type.String(),
  ref: Nullable(
    Type.String({ description: 'as sent: the debit a rollback reverses, the settlement a payout comes from' }),
  ),
  appliedAt: { ...Timestamp, description: 'when it counted as applied: the wallet confirmed it, or it was resolved' },
  status: Type.Enum(['applied', 'resolved'], {
    description: 'applied: your wallet confirmed it; resolved: an operator recorded it as done outside the service',
  }),
});
export type StatementMovement = Static<typeof StatementMovement>;

export const StatementTotal = Type.Object({
  kind: Type.Enum(OBLIGATION_KINDS),
  endpoint: Type.Enum(OBLIGATION_ENDPOINTS),
  direction: Type.Enum(['debit', 'credit']),
  movements: Type.Integer(),
  amount: Type.Integer(),
});
export type StatementTotal = Static<typeof StatementTotal>;

export const Statement = Type.Object({
  format: Type.Literal('bookmaker-statement/1'),
  tenantId: Type.String(),
  environment: Type.String({ description: 'production or sandbox' }),
  preview: Type.Optional(
    Type.Literal(true, {
      description: 'sandbox only: the day is not over, and this is what counted up to `to`; never served in production',
    }),
  ),
  currency: Type.String(),
  day: Day,
  from: Timestamp,
  to: Timestamp,
  keyId: Type.String({ description: 'the key that signs it (GET /api/v1/integration/statement-keys)' }),
  movements: Type.Array(StatementMovement, { description: 'every movement that counted as applied that day' }),
  totals: Type.Array(StatementTotal, { description: 'per kind and endpoint, every pair listed, zeros included' }),
  summary: Type.Object({
    movements: Type.Integer(),
    debited: Type.Integer({ description: 'the amounts of the debits' }),
    credited: Type.Integer({
      description:
        'the amounts of the credits and rollbacks (a rollback of a debit the wallet never applied moves nothing: ' +
        'the stake debits whose outcome stayed unknown are not in a statement, their rollbacks are)',
    }),
  }),
});
export type Statement = Static<typeof Statement>;

export const statementSchema = {
  tags: casinoTags,
  operationId: 'getStatement',
  summary: 'The signed reconciliation statement of a UTC day: every movement that counted as applied, with totals',
  description:
    'JSON, or CSV with format=csv (or Accept: text/csv). The exact bytes served are signed with Ed25519: the ' +
    'signature (base64) is in X-Statement-Signature, the key in X-Statement-Key-Id; the public keys are at GET ' +
    '/api/v1/integration/statement-keys. A day is served from 5 minutes after it ends, and never changes after. ' +
    'A sandbox tenant may also read its day under way: a preview up to now (`preview: true`, X-Statement-Preview: ' +
    'true, a file name ending -preview), signed alike, that later movements will join. See docs/reconciliation.md.',
  params: Type.Object({ day: Day }),
  querystring: Type.Object(
    {
      format: Type.Optional(Type.Enum(STATEMENT_FORMATS, { description: 'json by default' })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: {
      description: 'the statement; X-Statement-Signature and X-Statement-Key-Id sign its exact bytes',
      headers: {
        'x-statement-signature': Type.String({ description: 'the Ed25519 signature of the body, base64' }),
        'x-statement-key-id': Type.String({ description: 'the key that made it (GET …/statement-keys)' }),
      },
      content: {
        'application/json': { schema: Statement },
        'text/csv': { schema: Type.String({ description: 'the same statement as CSV (RFC 4180)' }) },
      },
    },
  },
  errors: [platformErrors.validation, walletErrors.statement_not_ready],
};

export const statementKeysSchema = {
  tags: casinoTags,
  operationId: 'listStatementKeys',
  summary: 'The public keys that sign reconciliation statements (Ed25519); public',
  response: {
    200: Type.Object({
      keys: Type.Array(
        Type.Object({
          keyId: Type.String(),
          algorithm: Type.Literal('ed25519'),
          publicKey: Type.String({ description: 'SubjectPublicKeyInfo, PEM' }),
          current: Type.Boolean({ description: 'true: the key new statements are signed with' }),
        }),
      ),
    }),
  },
};
