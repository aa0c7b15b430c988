import { Type, type Static } from 'typebox';
import { ErrorResponse } from '../platform/http/schemas.ts';
import { LINE_PATTERN, ODDS_PATTERN } from './odds.ts';

export const MARKET_TYPES = ['match_result', 'moneyline', 'totals', 'handicap', 'both_teams_to_score', 'correct_score'] as const;
export const MARKET_STATUSES = ['open', 'suspended', 'closed'] as const;
export const EVENT_STATUSES = ['scheduled', 'live', 'finished', 'cancelled'] as const;

const Timestamp = Type.String({ format: 'date-time' });
const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' });
export const Odds = Type.String({ pattern: ODDS_PATTERN, description: 'decimal odds, at most 3 decimals, e.g. "2.15"' });
const Line = Type.String({ pattern: LINE_PATTERN, description: 'line of totals or handicap markets, e.g. "2.5" or "-1.5"' });
const Id = Type.String({ minLength: 1, maxLength: 64 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

// ---- reads ----

export const SelectionView = Type.Object({ id: Type.String(), name: Type.String(), outcome: Type.String(), odds: Type.String(), oddsVersion: Type.Integer() });
export const MarketView = Type.Object({
  id: Type.String(),
  type: Type.Enum(MARKET_TYPES),
  name: Type.String(),
  line: Nullable(Type.String()),
  status: Type.String(),
  selections: Type.Array(SelectionView),
});
const EventHeader = {
  id: Type.String(),
  sport: Type.Object({ id: Type.String(), name: Type.String() }),
  competition: Type.Object({ id: Type.String(), name: Type.String(), country: Type.String() }),
  home: Type.String(),
  away: Type.String(),
  startsAt: Timestamp,
  status: Type.Enum(EVENT_STATUSES),
  score: Nullable(Type.Object({ home: Type.Integer(), away: Type.Integer() })),
};
export const EventSummary = Type.Object({ ...EventHeader, marketCount: Type.Integer(), mainMarket: Nullable(MarketView) });
export const EventDetail = Type.Object({ ...EventHeader, markets: Type.Array(MarketView) });
export type EventDetail = Static<typeof EventDetail>;
export type EventSummary = Static<typeof EventSummary>;

export const SportView = Type.Object({ id: Type.String(), name: Type.String(), eventCount: Type.Integer(), liveCount: Type.Integer() });

const catalogTags = ['catalog'];
const notFound = { 404: ErrorResponse, 400: ErrorResponse };
export const catalogSchemas = {
  sports: { tags: catalogTags, summary: 'Sports with their upcoming and live event counts', response: { 200: Type.Object({ sports: Type.Array(SportView) }) } },
  live: { tags: catalogTags, summary: 'Events in play now', querystring: Type.Object({ sport: Type.Optional(Id) }, { additionalProperties: false }), response: { 200: Type.Object({ events: Type.Array(EventSummary) }), ...notFound } },
  sport: {
    tags: catalogTags, summary: 'A sport: its competitions and their upcoming events', params: Type.Object({ sportId: Id }),
    response: { 200: Type.Object({ sport: Type.Object({ id: Type.String(), name: Type.String() }), competitions: Type.Array(Type.Object({ id: Type.String(), name: Type.String(), country: Type.String(), events: Type.Array(EventSummary) })) }), ...notFound },
  },
  competition: {
    tags: catalogTags, summary: 'A competition and its events', params: Type.Object({ competitionId: Id }),
    response: { 200: Type.Object({ competition: Type.Object({ id: Type.String(), name: Type.String(), country: Type.String(), sport: Type.Object({ id: Type.String(), name: Type.String() }) }), events: Type.Array(EventSummary) }), ...notFound },
  },
  event: { tags: catalogTags, summary: 'An event with all its markets', params: Type.Object({ eventId: Id }), response: { 200: Type.Object({ event: EventDetail }), ...notFound } },
};

// ---- trading ----

export const CreateSportBody = Type.Object({ id: Type.String({ pattern: '^[a-z][a-z0-9-]{1,31}$' }), name: Name, sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })) }, { additionalProperties: false });
export const CreateCompetitionBody = Type.Object({ sportId: Id, name: Name, country: Type.String({ minLength: 2, maxLength: 60 }) }, { additionalProperties: false });
export const CreateEventBody = Type.Object({ competitionId: Id, home: Name, away: Name, startsAt: Timestamp }, { additionalProperties: false });
export const UpdateEventBody = Type.Object(
  {
    startsAt: Type.Optional(Timestamp),
    status: Type.Optional(Type.Enum(EVENT_STATUSES)),
    score: Type.Optional(Type.Object({ home: Type.Integer({ minimum: 0, maximum: 999 }), away: Type.Integer({ minimum: 0, maximum: 999 }) }, { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const CreateMarketBody = Type.Object(
  {
    type: Type.Enum(MARKET_TYPES),
    line: Type.Optional(Line),
    name: Type.Optional(Name),
    status: Type.Optional(Type.Enum(['open', 'suspended'])),
    selections: Type.Array(
      Type.Object({ name: Name, outcome: Type.String({ minLength: 1, maxLength: 20 }), odds: Odds }, { additionalProperties: false }),
      { minItems: 2, maxItems: 60 },
    ),
  },
  { additionalProperties: false },
);
export type CreateMarketBody = Static<typeof CreateMarketBody>;
export const MarketStatusBody = Type.Object({ status: Type.Enum(MARKET_STATUSES) }, { additionalProperties: false });
export const OddsBody = Type.Object({ odds: Odds }, { additionalProperties: false });

const tradingTags = ['admin: trading'];
const security = [{ staffToken: [] }];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };
export const tradingSchemas = {
  createSport: { tags: tradingTags, security, summary: 'Create a sport', body: CreateSportBody, response: { 201: Type.Object({ sport: Type.Object({ id: Type.String(), name: Type.String() }) }), ...errors } },
  createCompetition: { tags: tradingTags, security, summary: 'Create a competition', body: CreateCompetitionBody, response: { 201: Type.Object({ competition: Type.Object({ id: Type.String(), name: Type.String(), country: Type.String() }) }), ...errors } },
  createEvent: { tags: tradingTags, security, summary: 'Create an event (pre-match)', body: CreateEventBody, response: { 201: Type.Object({ event: EventDetail }), ...errors } },
  updateEvent: { tags: tradingTags, security, summary: 'Move an event to live, update its score, start time or status', params: Type.Object({ eventId: Id }), body: UpdateEventBody, response: { 200: Type.Object({ event: EventDetail }), ...errors } },
  createMarket: { tags: tradingTags, security, summary: 'Add a market with its selections and odds', params: Type.Object({ eventId: Id }), body: CreateMarketBody, response: { 201: Type.Object({ market: MarketView }), ...errors } },
  marketStatus: { tags: tradingTags, security, summary: 'Open, suspend or close a market', params: Type.Object({ marketId: Id }), body: MarketStatusBody, response: { 200: Type.Object({ market: MarketView }), ...errors } },
  odds: { tags: tradingTags, security, summary: 'Change the odds of a selection (bumps its odds version)', params: Type.Object({ selectionId: Id }), body: OddsBody, response: { 200: Type.Object({ selection: SelectionView }), ...errors } },
};
