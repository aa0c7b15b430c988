import { Type, type Static } from 'typebox';
import { Odds } from '../catalog/schemas.ts';
import { ErrorResponse } from '../platform/http/schemas.ts';

export const MAX_LEGS = 20;
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const PlaceBetBody = Type.Object(
  {
    requestId: Type.String({ pattern: '^[A-Za-z0-9_.:-]{8,64}$', description: 'made by the client once per bet slip submission; a repeat places nothing new' }),
    stake: Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'minor units of the tenant currency' }),
    legs: Type.Array(
      Type.Object({ selectionId: Type.String({ minLength: 1, maxLength: 64 }), odds: Odds }, { additionalProperties: false }),
      { minItems: 1, maxItems: MAX_LEGS, description: 'one leg: a single; more: an accumulator (one selection per event)' },
    ),
  },
  { additionalProperties: false },
);
export type PlaceBetBody = Static<typeof PlaceBetBody>;

export const BetLegView = Type.Object({
  selectionId: Type.String(),
  selectionName: Type.String(),
  marketId: Type.String(),
  marketName: Type.String(),
  eventId: Type.String(),
  eventName: Type.String(),
  eventStartsAt: Timestamp,
  odds: Type.String(),
});

export const BetView = Type.Object({
  id: Type.String(),
  requestId: Type.String(),
  status: Type.Enum(['pending', 'accepted', 'refused']),
  refusal: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  stake: Type.Integer(),
  currency: Type.String(),
  odds: Type.String({ description: 'combined decimal odds' }),
  potentialPayout: Type.Integer({ description: 'floor(stake x odds), minor units' }),
  placedAt: Timestamp,
  decidedAt: Nullable(Timestamp),
  legs: Type.Array(BetLegView),
});
export type BetView = Static<typeof BetView>;

export const ListBetsQuery = Type.Object(
  {
    status: Type.Enum(['open', 'settled'], { default: 'open' }),
    limit: Type.Integer({ minimum: 1, maximum: 50, default: 20 }),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ListBetsQuery = Static<typeof ListBetsQuery>;

const security = [{ sessionToken: [] }];
const tags = ['player: bets'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 402: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 503: ErrorResponse };

export const placeBetSchema = {
  tags, security, summary: 'Place a single or an accumulator; the stake is debited once from the casino wallet',
  body: PlaceBetBody,
  response: { 200: Type.Object({ bet: BetView }), 201: Type.Object({ bet: BetView, balance: Type.Object({ balance: Type.Integer(), currency: Type.String() }) }), ...errors },
};
export const listBetsSchema = {
  tags, security, summary: 'My Bets: open or settled bets, newest first', querystring: ListBetsQuery,
  response: { 200: Type.Object({ bets: Type.Array(BetView), nextCursor: Type.String() }), ...errors },
};
export const getBetSchema = {
  tags, security, summary: 'One of my bets', params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  response: { 200: Type.Object({ bet: BetView }), ...errors },
};
export const balanceSchema = {
  tags: ['player: wallet'], security, summary: 'The balance in the casino wallet, asked of the wallet now',
  response: { 200: Type.Object({ balance: Type.Integer(), currency: Type.String() }), 401: ErrorResponse, 503: ErrorResponse },
};

export const ObligationView = Type.Object({
  txId: Type.String(),
  endpoint: Type.String(),
  kind: Type.String(),
  amount: Type.Integer(),
  status: Type.Enum(['sending', 'pending', 'applied', 'refused', 'unknown', 'failed']),
  attempts: Type.Integer(),
  lastOutcome: Nullable(Type.String()),
  operatorCode: Nullable(Type.String()),
  createdAt: Timestamp,
  resolvedAt: Nullable(Timestamp),
});

export const StaffBetView = Type.Object({ ...BetView.properties, money: Type.Array(ObligationView, { description: 'wallet postings of the bet, in delivery order' }) });

export const StaffBetsQuery = Type.Object(
  {
    player: Type.String({ minLength: 1, maxLength: 64, description: 'player id (pl_…)' }),
    limit: Type.Integer({ minimum: 1, maximum: 100, default: 50 }),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type StaffBetsQuery = Static<typeof StaffBetsQuery>;

export const staffBetsSchema = {
  tags: ['admin: bets'],
  security: [{ staffToken: [] }],
  summary: "A player's bets, every status, with the wallet postings of each (operator of the tenant or platform administrator)",
  querystring: StaffBetsQuery,
  response: { 200: Type.Object({ bets: Type.Array(StaffBetView), nextCursor: Type.String() }), 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse },
};
