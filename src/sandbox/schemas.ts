import { Type, type Static } from 'typebox';
import { betOutcomeErrors } from '../betting/errors.ts';
import { BetOutcomeReport, BetView, OwnLegResults } from '../betting/schemas.ts';
import { platformErrors } from '../platform/errors.ts';
import { idempotencyErrors } from '../platform/idempotency/errors.ts';
import { IdempotencyHeaders } from '../platform/idempotency/schemas.ts';
import { sandboxErrors } from './errors.ts';

export const SANDBOX_BETS = '/api/v1/integration/sandbox/bets';

const tags = ['integration'];
const TenantId = Type.String({ minLength: 1, maxLength: 80, description: 'tenant id of the sandbox environment' });
const ReadHeaders = Type.Object({ 'x-tenant-id': TenantId });
const WriteHeaders = Type.Object({ 'x-tenant-id': TenantId, ...IdempotencyHeaders.properties });
const BetParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64, description: 'the bet id' }) });
const Reason = Type.String({ minLength: 1, maxLength: 500, description: 'why, for the audit trail' });

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
  headers: ReadHeaders,
  params: BetParams,
  response: { 200: Type.Object({ bet: BetView }) },
  errors: [platformErrors.not_found, sandboxErrors.sandbox_only],
};
