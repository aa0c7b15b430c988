import { Type, type Static } from 'typebox';
import { betOutcomeErrors } from '../betting/errors.ts';
import { BetOutcomeReport, BetView, OwnLegResults } from '../betting/schemas.ts';
import { platformErrors } from '../platform/errors.ts';
import { idempotencyErrors } from '../platform/idempotency/errors.ts';
import { IdempotencyHeaders } from '../platform/idempotency/schemas.ts';
import { PlayerRecord } from '../integration/schemas.ts';
import { PLAYER_STATUSES } from '../integration/states.ts';
import { walletErrors } from '../wallet/errors.ts';
import { ADJUSTMENT_DIRECTIONS } from '../wallet/states.ts';
import { sandboxErrors } from './errors.ts';

const SANDBOX = '/api/v1/integration/sandbox';
export const SANDBOX_BETS = `${SANDBOX}/bets`;
export const SANDBOX_ADJUSTMENTS = `${SANDBOX}/adjustments`;
export const SANDBOX_PLAYERS = `${SANDBOX}/players`;

const tags = ['integration'];
const TenantId = Type.String({ minLength: 1, maxLength: 80, description: 'tenant id of the sandbox environment' });
const TenantHeaders = Type.Object({ 'x-tenant-id': TenantId });
const WriteHeaders = Type.Object({ 'x-tenant-id': TenantId, ...IdempotencyHeaders.properties });
const BetParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'the bet id' }) });
const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'why, for the audit trail' });
const Timestamp = Type.String({ format: 'date-time' });
const ExternalPlayerId = Type.String({
  minLength: 1,
  maxLength: 128,
  description: "your id of the player: the externalPlayerId your server opens the player's sessions with",
});

export const OwnResultsBody = Type.Object(
  { results: OwnLegResults, reason: Type.Optional(Reason) },
  { additionalProperties: false },
);
export type OwnResultsBody = Static<typeof OwnResultsBody>;

export const ActionBody = Type.Object({ reason: Type.Optional(Reason) }, { additionalProperties: false });
export type ActionBody = Static<typeof ActionBody>;

const answer = {
  200: Type.Object(BetOutcomeReport.properties, {
    description:
      'what the call did; a repeat of the same Idempotency-Key gets the same answer with Idempotency-Replayed: true',
  }),
};

/** What every call of the controls can answer, besides its input and guard errors. */
const common = [platformErrors.not_found, sandboxErrors.sandbox_only, ...Object.values(idempotencyErrors)];
const { bet_pending, bet_closed, bet_settled, bet_not_settled } = betOutcomeErrors;

export const settleSandboxBetSchema = {
  tags,
  operationId: 'settleSandboxBet',
  summary: "Sandbox: settle one of your bets' legs won, lost, void, half_won or half_lost (quarter lines)",
  headers: WriteHeaders,
  params: BetParams,
  body: OwnResultsBody,
  response: answer,
  errors: [...common, bet_pending, bet_closed, bet_settled],
};

export const resettleSandboxBetSchema = {
  tags,
  operationId: 'resettleSandboxBet',
  summary: 'Sandbox: change the results of one of your settled bets; the difference is owed as a correction',
  headers: WriteHeaders,
  params: BetParams,
  body: OwnResultsBody,
  response: answer,
  errors: [...common, bet_pending, bet_closed, bet_not_settled],
};

export const reopenSandboxBetSchema = {
  tags,
  operationId: 'reopenSandboxBet',
  summary: 'Sandbox: take the results off one of your bets: a settled bet is open again',
  headers: WriteHeaders,
  params: BetParams,
  body: ActionBody,
  response: answer,
  errors: [...common, bet_pending, bet_closed],
};

export const cancelSandboxBetSchema = {
  tags,
  operationId: 'cancelSandboxBet',
  summary: 'Sandbox: cancel one of your bets: its stake rolled back before any credit, refunded after',
  headers: WriteHeaders,
  params: BetParams,
  body: ActionBody,
  response: answer,
  errors: [...common, bet_pending, bet_closed],
};

export const getSandboxBetSchema = {
  tags,
  operationId: 'getSandboxBet',
  summary: 'Sandbox: one of your bets, with its wallet movements and where each one stands',
  headers: TenantHeaders,
  params: BetParams,
  response: { 200: Type.Object({ bet: BetView }) },
  errors: [platformErrors.not_found, sandboxErrors.sandbox_only],
};

// ---- a sandbox tenant's players and their money ----

export const SandboxAdjustmentBody = Type.Object(
  {
    externalPlayerId: ExternalPlayerId,
    direction: Type.Enum(ADJUSTMENT_DIRECTIONS, {
      description: 'credit: to the player (your wallet gets a /credit); debit: from the player (a /debit)',
    }),
    amount: Type.Integer({
      minimum: 1,
      maximum: 1_000_000_000_000,
      description: "minor units; at most the tenant's largest single adjustment (its maxAmount)",
    }),
    reason: { ...Reason, description: 'why, kept with the adjustment and in the audit trail' },
  },
  { additionalProperties: false },
);
export type SandboxAdjustmentBody = Static<typeof SandboxAdjustmentBody>;

export const SandboxAdjustmentAnswer = Type.Object({
  adjustment: Type.Object({
    id: Type.String({ description: 'adj_…' }),
    externalPlayerId: Type.String(),
    direction: Type.Enum(ADJUSTMENT_DIRECTIONS),
    amount: Type.Integer({ description: 'minor units' }),
    currency: Type.String(),
    reason: Type.String(),
    status: Type.Literal('approved', { description: 'approved at once: a sandbox has no second person to approve' }),
    madeBy: Type.Literal('sandbox_server', { description: "your sandbox server, as the operator's console shows it" }),
    createdAt: Timestamp,
  }),
  owed: Type.Array(
    Type.Object({
      txId: Type.String({ description: 'adjustment:<id>' }),
      kind: Type.Literal('adjustment'),
      endpoint: Type.Enum(ADJUSTMENT_DIRECTIONS, { description: 'the wallet endpoint it is delivered to' }),
      amount: Type.Integer({ description: 'minor units' }),
    }),
    { description: 'the movement this call owes your wallet: recorded now, delivered right after the answer' },
  ),
});
export type SandboxAdjustmentAnswer = Static<typeof SandboxAdjustmentAnswer>;

export const createSandboxAdjustmentSchema = {
  tags,
  operationId: 'createSandboxAdjustment',
  summary: 'Sandbox: a manual credit or debit on one of your players, approved at once and owed to your wallet',
  headers: WriteHeaders,
  body: SandboxAdjustmentBody,
  response: {
    201: Type.Object(SandboxAdjustmentAnswer.properties, {
      description:
        'the adjustment made; a repeat of the same Idempotency-Key gets the same answer with Idempotency-Replayed: true',
    }),
  },
  errors: [...common, walletErrors.adjustment_above_maximum],
};

const SandboxPlayerParams = Type.Object({ externalPlayerId: ExternalPlayerId });

export const SandboxPlayerStatusBody = Type.Object(
  {
    status: Type.Enum(PLAYER_STATUSES, {
      description:
        'blocked: sessions refused with account_blocked; paused: account_paused; closed: account_closed; active: ' +
        "allowed again. The player's open sessions end when it is not active",
    }),
    reason: Type.Optional(Reason),
  },
  { additionalProperties: false },
);
export type SandboxPlayerStatusBody = Static<typeof SandboxPlayerStatusBody>;

export const setSandboxPlayerStatusSchema = {
  tags,
  operationId: 'setSandboxPlayerStatus',
  summary: 'Sandbox: block, pause, close or reactivate one of your players, as the platform would',
  headers: TenantHeaders,
  params: SandboxPlayerParams,
  body: SandboxPlayerStatusBody,
  response: {
    200: Type.Object({
      player: PlayerRecord,
      previousStatus: Type.Enum(PLAYER_STATUSES, { description: 'before the call' }),
    }),
  },
  errors: [platformErrors.not_found, sandboxErrors.sandbox_only],
};
