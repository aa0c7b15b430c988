import { Type, type Static, type TSchema } from 'typebox';
import { FinalScore } from '../betting/schemas.ts';
import { CreateMarketBody, Line, Name, Odds, UpdateEventBody } from '../catalog/schemas.ts';
import { CLOCK_DIRECTIONS, EVENT_STATUSES, LIVE_PERIODS, MARKET_TYPES } from '../catalog/states.ts';
import { platformErrors } from '../platform/errors.ts';
import { feedErrors } from './errors.ts';
import { PRODUCER_STATES } from './states.ts';

/** A provider's own id (the feed names sports, competitions, events and markets by it): `sr:match:4711`, say. */
const FeedId = Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$' });
const Timestamp = Type.String({ format: 'date-time' });
const Producer = { producer: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,31}$', description: 'the producer id' }) };
const Evented = {
  ...Producer,
  eventId: FeedId,
  sequence: Type.Integer({
    minimum: 0,
    maximum: Number.MAX_SAFE_INTEGER,
    description: "the producer's count of its messages about this event: one more each time (a timestamp will do)",
  }),
};
const message = <K extends string, T extends Record<string, TSchema>>(type: K, properties: T, description: string) =>
  Type.Object({ type: Type.Literal(type), ...properties }, { additionalProperties: false, description });
const Price = Type.Object(
  { outcome: Type.String({ minLength: 1, maxLength: 16 }), odds: Odds },
  {
    additionalProperties: false,
  },
);

const FEED_MESSAGES = [
  message(
    'alive',
    { ...Producer, state: Type.Optional(Type.Enum(['up', 'down'] as const, { default: 'up' })) },
    'a heartbeat; `down` says the producer cannot price now (its markets are suspended at once)',
  ),
  message('snapshot_complete', Producer, "the producer's recovery snapshot is sent: markets held for it reopen"),
  message(
    'fixture',
    {
      ...Evented,
      sport: Type.Object({ id: FeedId, name: Name }, { additionalProperties: false }),
      competition: Type.Object(
        { id: FeedId, name: Name, country: Type.String({ minLength: 2, maxLength: 60 }) },
        { additionalProperties: false },
      ),
      home: Name,
      away: Name,
      startsAt: Timestamp,
    },
    'an event and where it belongs, created the first time; a later one moves its start',
  ),
  message(
    'market',
    {
      ...Evented,
      marketId: FeedId,
      marketType: Type.Enum(MARKET_TYPES),
      line: Type.Optional(Line),
      status: Type.Optional(Type.Enum(['open', 'suspended'] as const)),
      selections: CreateMarketBody.properties.selections,
    },
    "a market the producer prices, created the first time; a later one sets its prices (each selection's odds)",
  ),
  message(
    'odds',
    { ...Evented, marketId: FeedId, prices: Type.Array(Price, { minItems: 1, maxItems: 60 }) },
    'new prices for some of a market’s outcomes',
  ),
  message(
    'market_status',
    { ...Evented, marketId: FeedId, status: Type.Enum(['open', 'suspended', 'closed'] as const) },
    'a market opened, suspended or closed',
  ),
  message('bet_stop', Evented, 'every open market of the event that the producer controls, suspended at once'),
  message(
    'event_state',
    { ...Evented, ...UpdateEventBody.properties },
    'the event live, its score, period, clock, start or status (as the trading API sets them)',
  ),
  message(
    'result',
    { ...Evented, score: FinalScore },
    "the final score: a trusted producer's settles every market by its rule; another's waits for a trader",
  ),
  message(
    'cancel',
    { ...Evented, reason: Type.Optional(Type.String({ maxLength: 200 })) },
    "the event will not be played: a trusted producer's voids every market; another's suspends them for a trader",
  ),
  message(
    'result_rollback',
    Evented,
    "the result was wrong: a trusted producer's settled markets are open to a result again (suspended), their bets " +
      'open; send the corrected result next',
  ),
  message(
    'cancel_rollback',
    Evented,
    'the event will be played after all: scheduled again (live if its start has passed), its markets suspended; a ' +
      "trusted producer's voided markets are open to a result again, their bets open",
  ),
];
type FeedMessageUnion = Static<(typeof FEED_MESSAGES)[number]>;

/** One of the messages, told apart by `type` (the document shows it as a oneOf with a discriminator). */
export const FeedMessage = Type.Unsafe<FeedMessageUnion>({
  type: 'object',
  required: ['type'],
  discriminator: { propertyName: 'type' },
  oneOf: FEED_MESSAGES,
});
export type FeedMessage = FeedMessageUnion;

export const FeedBatch = Type.Object(
  { messages: Type.Array(FeedMessage, { minItems: 1, maxItems: 500, description: 'applied in this order' }) },
  { additionalProperties: false },
);
export type FeedBatch = Static<typeof FeedBatch>;

const MESSAGE_OUTCOMES = ['applied', 'kept', 'ignored', 'duplicate', 'stale', 'refused'] as const;
export const FeedReceipt = Type.Object({
  results: Type.Array(
    Type.Object({
      outcome: Type.Enum(MESSAGE_OUTCOMES, {
        description:
          'applied; kept (a price for a market a trader controls, shown beside the trader’s); ignored (a market ' +
          'closed or settled, or one a trader controls); duplicate (the sequence the event has); stale (older); ' +
          'refused (see error: nothing of it applied, and the event asks for a snapshot)',
      }),
      error: Type.Optional(Type.Object({ code: Type.String(), message: Type.String() })),
    }),
    { description: 'one per message, in order' },
  ),
  producer: Type.Object({ state: Type.Enum(PRODUCER_STATES) }),
  snapshot: Type.Object(
    {
      all: Type.Boolean({ description: 'recovering: send everything you price, then snapshot_complete' }),
      eventIds: Type.Array(Type.String(), {
        description: 'events with a gap in their sequence or a refused message: send their whole state again',
      }),
    },
    { description: 'what the service asks the producer to send again' },
  ),
});
export type FeedReceipt = Static<typeof FeedReceipt>;

export const feedMessagesSchema = {
  tags: ['feed'],
  operationId: 'pushFeedMessages',
  summary: 'Push a batch of feed messages (a producer key in Authorization: Bearer)',
  body: FeedBatch,
  response: { 200: FeedReceipt },
  errors: [platformErrors.validation, feedErrors.producer_mismatch],
};

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An event as the service holds it for the producer that prices it: what a snapshot or a simulator starts from. */
const PricedEvent = Type.Object({
  eventId: Type.String(),
  sequence: Type.Integer({ description: 'the last sequence of yours the service applied for this event' }),
  sportId: Type.String(),
  competitionId: Type.String(),
  home: Type.String(),
  away: Type.String(),
  startsAt: Timestamp,
  status: Type.Enum(EVENT_STATUSES),
  score: Nullable(Type.Object({ home: Type.Integer(), away: Type.Integer() })),
  period: Nullable(Type.Enum(LIVE_PERIODS)),
  clock: Nullable(
    Type.Object({
      seconds: Type.Integer(),
      running: Type.Boolean(),
      direction: Type.Enum(CLOCK_DIRECTIONS),
      setAt: Timestamp,
    }),
  ),
  updatedAt: Timestamp,
  markets: Type.Array(
    Type.Object({
      marketId: Type.String(),
      marketType: Type.Enum(MARKET_TYPES),
      line: Nullable(Type.String()),
      status: Type.Enum(['open', 'suspended'] as const),
      control: Type.Enum(['feed', 'trader'] as const, {
        description: "trader: a trader took it over; your prices are kept beside the trader's, not applied",
      }),
      held: Type.Boolean({
        description: 'suspended by the silence rule, not by you: it reopens when your snapshot is complete',
      }),
      updatedAt: Timestamp,
      prices: Type.Array(Price, { description: "your last price of each outcome (also where a trader's differs)" }),
    }),
    { description: 'your markets of the event that are open or suspended' },
  ),
});
export type PricedEvent = Static<typeof PricedEvent>;

export const pricedEventsSchema = {
  tags: ['feed'],
  operationId: 'listPricedEvents',
  summary: "What the service holds of the events you price (scheduled or live): your producer key's read-back",
  response: {
    200: Type.Object({
      producer: Type.String({ description: "the key's producer: the id your messages name" }),
      now: Timestamp,
      events: Type.Array(PricedEvent),
    }),
  },
  errors: [],
};

// ---- producers (platform administrators) ----

const ProducerView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  trusted: Type.Boolean({ description: 'its results and cancellations settle markets without a trader' }),
  state: Type.Enum(PRODUCER_STATES),
  lastMessageAt: Type.Union([Timestamp, Type.Null()]),
  staleMessages: Type.Integer({ description: 'messages ignored as older than what their event had' }),
  gaps: Type.Integer({ description: 'times a sequence skipped ahead (a snapshot of the event was asked for)' }),
  markets: Type.Object({
    fed: Type.Integer({ description: 'open or suspended markets it controls' }),
    held: Type.Integer({ description: 'of those, suspended by the silence rule' }),
    takenOver: Type.Integer({ description: 'markets it created that a trader controls now' }),
  }),
  createdAt: Timestamp,
});
export type ProducerView = Static<typeof ProducerView>;

const RegisterProducerBody = Type.Object(
  {
    id: Producer.producer,
    name: Name,
    trusted: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type RegisterProducerBody = Static<typeof RegisterProducerBody>;

export const registerProducerSchema = {
  tags: ['admin: feed'],
  operationId: 'registerFeedProducer',
  summary: 'Register a feed producer; its key is in this answer only',
  body: RegisterProducerBody,
  response: {
    201: Type.Object({
      producer: ProducerView,
      key: Type.String({ description: 'bm_feed_…: shown once, stored only as a hash' }),
    }),
  },
  errors: [platformErrors.validation, feedErrors.producer_exists],
};

export const issueProducerKeySchema = {
  tags: ['admin: feed'],
  operationId: 'issueFeedProducerKey',
  summary: 'Issue a producer a new key (its old one stops working at once); the key is in this answer only',
  params: Type.Object({ producerId: Producer.producer }),
  response: {
    200: Type.Object({
      producer: ProducerView,
      key: Type.String({ description: 'bm_feed_…: shown once, stored only as a hash' }),
    }),
  },
  errors: [platformErrors.validation, platformErrors.not_found],
};

export const listProducersSchema = {
  tags: ['admin: feed'],
  operationId: 'listFeedProducers',
  summary: 'Every feed producer: its state, its last message, and the markets it prices',
  response: { 200: Type.Object({ producers: Type.Array(ProducerView) }) },
  errors: [],
};
