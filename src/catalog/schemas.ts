import { Type, type Static } from 'typebox';
import { platformErrors } from '../platform/errors.ts';
import { catalogErrors } from './errors.ts';
import {
  CLOCK_DIRECTIONS,
  EVENT_STATUSES,
  LIVE_PERIODS,
  MARKET_CONTROLS,
  MARKET_STATES,
  MARKET_TYPES,
  SELECTION_RESULTS,
} from './states.ts';
import { LINE_PATTERN, ODDS_PATTERN } from './odds.ts';

const TRADER_MARKET_STATUSES = ['open', 'suspended', 'closed'] as const;

const Timestamp = Type.String({ format: 'date-time' });
export const Name = Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' });
export const Odds = Type.String({
  pattern: ODDS_PATTERN,
  description: 'decimal odds, at most 3 decimals, e.g. "2.15"',
});
export const Line = Type.String({
  pattern: LINE_PATTERN,
  description:
    'the line of a totals (above 0) or handicap (the home side\'s, either sign) market, e.g. "2.5" or "-1.5"',
});
const Id = Type.String({ minLength: 1, maxLength: 64 });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

// ---- reads ----

const SelectionView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  outcome: Type.String(),
  odds: Type.String(),
  oddsVersion: Type.Integer(),
  result: Nullable(Type.Enum(SELECTION_RESULTS, { description: 'null until the market is settled' })),
});
const MarketView = Type.Object({
  id: Type.String(),
  type: Type.Enum(MARKET_TYPES),
  name: Type.String(),
  line: Nullable(Type.String()),
  status: Type.Enum(MARKET_STATES),
  settlementVersion: Type.Integer({ description: '0 until settled, 1 when settled, +1 for each resettlement' }),
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
  period: Nullable(Type.Enum(LIVE_PERIODS, { description: 'where a live event stands; null when not set' })),
  clock: Nullable(
    Type.Object(
      {
        seconds: Type.Integer({ minimum: 0, description: 'the reading when it was set' }),
        running: Type.Boolean(),
        direction: Type.Enum(CLOCK_DIRECTIONS, { description: 'up: time played; down: time left in the period' }),
        setAt: Timestamp,
      },
      {
        description:
          'the match clock as last set. A running clock reads seconds plus (down: minus) the time since setAt, ' +
          'never below 0; a stopped one reads seconds.',
      },
    ),
  ),
  betDelaySeconds: Type.Integer({
    minimum: 0,
    description:
      "how long a bet on this event waits before it is accepted: the sport's in-play delay while live, else 0",
  }),
};
export const EventSummary = Type.Object({
  ...EventHeader,
  marketCount: Type.Integer(),
  mainMarket: Nullable(MarketView),
});
export const EventDetail = Type.Object({ ...EventHeader, markets: Type.Array(MarketView) });

/** A market as traders see it: who controls its prices, and the feed's price kept beside a trader's. */
const TradingMarketView = Type.Object({
  ...MarketView.properties,
  control: Type.Enum(MARKET_CONTROLS, {
    description: "feed: the producer's messages set its prices and status; trader: only traders do",
  }),
  producerId: Nullable(Type.String({ description: 'the feed producer that created it; null for a trader’s own' })),
  heldByProducer: Type.Boolean({ description: 'suspended because its producer fell silent; reopens on its recovery' }),
  selections: Type.Array(
    Type.Object({
      ...SelectionView.properties,
      fedOdds: Nullable(Type.String({ description: "the feed's latest price while a trader controls the market" })),
    }),
  ),
});
export const TradingEventDetail = Type.Object({ ...EventHeader, markets: Type.Array(TradingMarketView) });
export type TradingEventDetail = Static<typeof TradingEventDetail>;
export type EventDetail = Static<typeof EventDetail>;
export type EventSummary = Static<typeof EventSummary>;

const SportView = Type.Object({
  id: Type.String(),
  name: Type.String(),
  eventCount: Type.Integer({ minimum: 0, description: 'events scheduled or live' }),
  liveCount: Type.Integer({ minimum: 0, description: 'events in play now' }),
});

export const SEARCH_COMPETITIONS = 10;
export const SEARCH_EVENTS = 20;
const SearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: 2,
      maxLength: 64,
      pattern: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$',
      description:
        'words to find, 2-64 characters (at least 2 besides surrounding spaces), no control characters; every word ' +
        'is matched anywhere in a name, ignoring case and accents ("sao paulo" finds "São Paulo")',
    }),
  },
  { additionalProperties: false },
);

const catalogTags = ['catalog'];
const notFound = [platformErrors.not_found];
export const catalogSchemas = {
  sports: {
    tags: catalogTags,
    operationId: 'listSports',
    summary: 'Sports with their upcoming and live event counts',
    response: { 200: Type.Object({ sports: Type.Array(SportView) }) },
  },
  live: {
    tags: catalogTags,
    operationId: 'listLiveEvents',
    summary: 'Events in play now',
    querystring: Type.Object({ sport: Type.Optional(Id) }, { additionalProperties: false }),
    response: { 200: Type.Object({ events: Type.Array(EventSummary) }) },
  },
  sport: {
    tags: catalogTags,
    operationId: 'getSport',
    summary: 'A sport: its competitions and their upcoming events',
    params: Type.Object({ sportId: Id }),
    response: {
      200: Type.Object({
        sport: Type.Object({ id: Type.String(), name: Type.String() }),
        competitions: Type.Array(
          Type.Object({
            id: Type.String(),
            name: Type.String(),
            country: Type.String(),
            events: Type.Array(EventSummary),
          }),
        ),
      }),
    },
    errors: notFound,
  },
  competition: {
    tags: catalogTags,
    operationId: 'getCompetition',
    summary: 'A competition and its events',
    params: Type.Object({ competitionId: Id }),
    response: {
      200: Type.Object({
        competition: Type.Object({
          id: Type.String(),
          name: Type.String(),
          country: Type.String(),
          sport: Type.Object({ id: Type.String(), name: Type.String() }),
        }),
        events: Type.Array(EventSummary),
      }),
    },
    errors: notFound,
  },
  search: {
    tags: catalogTags,
    operationId: 'searchCatalog',
    summary: 'Competitions, and upcoming or live events, whose names match the words searched',
    description:
      'Competitions whose name or country holds every word (by name), and scheduled or live events whose teams ' +
      'hold every word (live first, then by start time), each list limited.',
    querystring: SearchQuery,
    response: {
      200: Type.Object({
        competitions: Type.Array(
          Type.Object({
            id: Type.String(),
            name: Type.String(),
            country: Type.String(),
            sport: Type.Object({ id: Type.String(), name: Type.String() }),
          }),
          { maxItems: SEARCH_COMPETITIONS },
        ),
        events: Type.Array(EventSummary, { maxItems: SEARCH_EVENTS }),
      }),
    },
    errors: [platformErrors.validation],
  },
  event: {
    tags: catalogTags,
    operationId: 'getEvent',
    summary: 'An event with all its markets',
    params: Type.Object({ eventId: Id }),
    response: { 200: Type.Object({ event: EventDetail }) },
    errors: notFound,
  },
};

// ---- trading ----

const CreateSportBody = Type.Object(
  {
    id: Type.String({ pattern: '^[a-z][a-z0-9-]{1,31}$' }),
    name: Name,
    sortOrder: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  },
  { additionalProperties: false },
);
const CreateCompetitionBody = Type.Object(
  { sportId: Id, name: Name, country: Type.String({ minLength: 2, maxLength: 60 }) },
  { additionalProperties: false },
);
const CreateEventBody = Type.Object(
  { competitionId: Id, home: Name, away: Name, startsAt: Timestamp },
  { additionalProperties: false },
);
export const UpdateEventBody = Type.Object(
  {
    startsAt: Type.Optional(Timestamp),
    status: Type.Optional(Type.Enum(EVENT_STATUSES)),
    score: Type.Optional(
      Type.Object(
        { home: Type.Integer({ minimum: 0, maximum: 999 }), away: Type.Integer({ minimum: 0, maximum: 999 }) },
        { additionalProperties: false },
      ),
    ),
    period: Type.Optional(Nullable(Type.Enum(LIVE_PERIODS))),
    clock: Type.Optional(
      Nullable(
        Type.Object(
          {
            seconds: Type.Integer({ minimum: 0, maximum: 86_400, description: 'the reading now' }),
            running: Type.Boolean(),
            direction: Type.Optional(Type.Enum(CLOCK_DIRECTIONS, { default: 'up' })),
          },
          { additionalProperties: false, description: 'set the clock (the server stamps when); null removes it' },
        ),
      ),
    ),
  },
  { additionalProperties: false, minProperties: 1 },
);
export const CreateMarketBody = Type.Object(
  {
    type: Type.Enum(MARKET_TYPES, {
      description:
        "the market's kind; its name, whether it takes a line and its outcomes follow from it (totals: a line above " +
        "0, over/under; handicap: the home side's line, home/away; double_chance: home_draw/home_away/draw_away; " +
        'correct_score and set_betting: "2-1" scores; the rest no line; see docs/catalog-and-trading.md)',
    }),
    line: Type.Optional(Line),
    status: Type.Optional(Type.Enum(['open', 'suspended'])),
    selections: Type.Array(
      Type.Object(
        { name: Name, outcome: Type.String({ minLength: 1, maxLength: 20 }), odds: Odds },
        { additionalProperties: false },
      ),
      { minItems: 2, maxItems: 60 },
    ),
  },
  { additionalProperties: false },
);
export type CreateMarketBody = Static<typeof CreateMarketBody>;
const MarketStatusBody = Type.Object({ status: Type.Enum(TRADER_MARKET_STATUSES) }, { additionalProperties: false });
const OddsBody = Type.Object({ odds: Odds }, { additionalProperties: false });

// ---- trading reads: the traders' catalog tree ----

export const TRADING_EVENTS_PAGE = 50;
export const TRADING_COMPETITIONS_PAGE = 100;
/** Text a trader searches with: matched anywhere in a name, ignoring case; `%`, `_` and `\` match themselves. */
const SEARCHED = 'matched anywhere, ignoring case; % _ and \\ are plain characters';
const Search = (what: string) => Type.String({ minLength: 1, maxLength: 100, description: `${what}, ${SEARCHED}` });
const Limit = (fallback: number) => Type.Integer({ minimum: 1, maximum: 100, default: fallback });
const Cursor = Type.String({ maxLength: 200, description: "the previous page's nextCursor, with the same filters" });

const countsOf = <const T extends readonly string[]>(states: T, description: string) =>
  Type.Object(
    Object.fromEntries(states.map((state) => [state, Type.Integer({ minimum: 0 })])) as {
      [K in T[number]]: ReturnType<typeof Type.Integer>;
    },
    { description },
  );
const EventCounts = countsOf(EVENT_STATUSES, 'how many events it has in each status');
const MarketCounts = countsOf(MARKET_STATES, 'how many markets it has in each status');

const LiveDelay = Type.Integer({
  minimum: 0,
  maximum: 30,
  description: 'seconds a bet with a leg on a live event of the sport waits before it is accepted (0: none)',
});
const TradingSport = Type.Object({
  id: Type.String(),
  name: Type.String(),
  sortOrder: Type.Integer(),
  liveDelaySeconds: LiveDelay,
  competitionCount: Type.Integer(),
  events: EventCounts,
});
const TradingCompetition = Type.Object({
  id: Type.String(),
  name: Type.String(),
  country: Type.String(),
  sport: Type.Object({ id: Type.String(), name: Type.String() }),
  events: EventCounts,
});
export type TradingCompetition = Static<typeof TradingCompetition>;
export const TradingEventRow = Type.Object({
  ...EventHeader,
  name: Type.String({ description: '"home vs away"' }),
  score: Nullable(
    Type.Object(
      { home: Type.Integer(), away: Type.Integer() },
      { description: 'the live score once the event has one' },
    ),
  ),
  markets: MarketCounts,
});
export type TradingEventRow = Static<typeof TradingEventRow>;

export const TradingEventsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Array(Type.Enum(EVENT_STATUSES), {
        minItems: 1,
        maxItems: EVENT_STATUSES.length,
        description: 'events in any of these statuses; repeat the parameter for several (status=scheduled&status=live)',
      }),
    ),
    sportId: Type.Optional(Id),
    competitionId: Type.Optional(Id),
    startsFrom: Type.Optional({ ...Timestamp, description: 'events starting at or after this instant' }),
    startsTo: Type.Optional({ ...Timestamp, description: 'events starting at or before this instant' }),
    q: Type.Optional(Search('the event\'s name ("home vs away") or its competition\'s name')),
    sort: Type.Optional(
      Type.Enum(['startsAt', '-startsAt'], {
        default: 'startsAt',
        description: 'startsAt: soonest first; -startsAt: latest first (ties by id)',
      }),
    ),
    limit: Type.Optional(Limit(TRADING_EVENTS_PAGE)),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type TradingEventsQuery = Static<typeof TradingEventsQuery>;

export const TradingCompetitionsQuery = Type.Object(
  {
    sportId: Type.Optional(Id),
    q: Type.Optional(Search("the competition's name")),
    limit: Type.Optional(Limit(TRADING_COMPETITIONS_PAGE)),
    cursor: Type.Optional(Cursor),
  },
  { additionalProperties: false },
);
export type TradingCompetitionsQuery = Static<typeof TradingCompetitionsQuery>;

const tradingTags = ['admin: trading'];
const MarketControlBody = Type.Object(
  {
    control: Type.Enum(MARKET_CONTROLS, {
      description: "trader: take the market over (the feed's prices kept, not applied); feed: give it back",
    }),
  },
  { additionalProperties: false },
);

export const tradingSchemas = {
  sports: {
    tags: tradingTags,
    operationId: 'listTradingSports',
    summary: 'Every sport, in its sort order, with its competition count and event counts by status',
    response: { 200: Type.Object({ sports: Type.Array(TradingSport) }) },
  },
  competitions: {
    tags: tradingTags,
    operationId: 'listTradingCompetitions',
    summary: 'Competitions by name, of one sport or all, with their event counts by status',
    querystring: TradingCompetitionsQuery,
    response: { 200: Type.Object({ competitions: Type.Array(TradingCompetition), nextCursor: Type.String() }) },
    errors: [platformErrors.validation],
  },
  events: {
    tags: tradingTags,
    operationId: 'listTradingEvents',
    summary: 'Events of every status by start time, filtered, with their market counts by status',
    querystring: TradingEventsQuery,
    response: { 200: Type.Object({ events: Type.Array(TradingEventRow), nextCursor: Type.String() }) },
    errors: [platformErrors.validation],
  },
  event: {
    tags: tradingTags,
    operationId: 'getTradingEvent',
    summary: 'An event with all its markets (every status), their selections, odds and results, and who prices them',
    params: Type.Object({ eventId: Id }),
    response: { 200: Type.Object({ event: TradingEventDetail }) },
    errors: [platformErrors.not_found],
  },
  createSport: {
    tags: tradingTags,
    operationId: 'createSport',
    summary: 'Create a sport',
    body: CreateSportBody,
    response: { 201: Type.Object({ sport: Type.Object({ id: Type.String(), name: Type.String() }) }) },
    errors: [platformErrors.conflict],
  },
  updateSport: {
    tags: tradingTags,
    operationId: 'updateSport',
    summary: "Set a sport's in-play bet delay",
    params: Type.Object({ sportId: Id }),
    body: Type.Object({ liveDelaySeconds: LiveDelay }, { additionalProperties: false }),
    response: { 200: Type.Object({ sport: Type.Object({ id: Type.String(), liveDelaySeconds: Type.Integer() }) }) },
    errors: [platformErrors.not_found],
  },
  createCompetition: {
    tags: tradingTags,
    operationId: 'createCompetition',
    summary: 'Create a competition',
    body: CreateCompetitionBody,
    response: {
      201: Type.Object({
        competition: Type.Object({ id: Type.String(), name: Type.String(), country: Type.String() }),
      }),
    },
    errors: [platformErrors.not_found],
  },
  createEvent: {
    tags: tradingTags,
    operationId: 'createEvent',
    summary: 'Create an event (pre-match)',
    body: CreateEventBody,
    response: { 201: Type.Object({ event: EventDetail }) },
    errors: [platformErrors.not_found],
  },
  updateEvent: {
    tags: tradingTags,
    operationId: 'updateEvent',
    summary: 'Move an event to live, update its score, start time or status',
    params: Type.Object({ eventId: Id }),
    body: UpdateEventBody,
    response: { 200: Type.Object({ event: EventDetail }) },
    errors: [platformErrors.not_found],
  },
  createMarket: {
    tags: tradingTags,
    operationId: 'createMarket',
    summary: 'Add a market with its selections and odds',
    params: Type.Object({ eventId: Id }),
    body: CreateMarketBody,
    response: { 201: Type.Object({ market: MarketView }) },
    errors: [platformErrors.not_found],
  },
  marketControl: {
    tags: tradingTags,
    operationId: 'setMarketControl',
    summary: "Take a fed market over, or give it back to its feed producer (the feed's kept prices then apply)",
    params: Type.Object({ marketId: Id }),
    body: MarketControlBody,
    response: {
      200: Type.Object({
        market: Type.Object({
          marketId: Type.String(),
          control: Type.Enum(MARKET_CONTROLS),
          producerId: Nullable(Type.String()),
        }),
      }),
    },
    errors: [platformErrors.not_found, catalogErrors.market_not_fed],
  },
  marketStatus: {
    tags: tradingTags,
    operationId: 'setMarketStatus',
    summary: 'Open, suspend or close a market',
    params: Type.Object({ marketId: Id }),
    body: MarketStatusBody,
    response: { 200: Type.Object({ market: MarketView }) },
    errors: [platformErrors.not_found, catalogErrors.market_closed],
  },
  odds: {
    tags: tradingTags,
    operationId: 'setOdds',
    summary: 'Change the odds of a selection (bumps its odds version)',
    params: Type.Object({ selectionId: Id }),
    body: OddsBody,
    response: { 200: Type.Object({ selection: SelectionView }) },
    errors: [platformErrors.not_found],
  },
};
