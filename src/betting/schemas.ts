import { Type, type Static } from 'typebox';
import { Odds } from '../catalog/schemas.ts';
import { EVENT_STATUSES, MARKET_STATES, MARKET_TYPES, SELECTION_RESULTS } from '../catalog/states.ts';
import { platformErrors } from '../platform/errors.ts';
import { HOLD_REASONS, OBLIGATION_ENDPOINTS, OBLIGATION_KINDS, OBLIGATION_STATES } from '../wallet/states.ts';
import { BET_STATES, ODDS_CHANGE_ACCEPTANCE } from './states.ts';
import { catalogErrors } from '../catalog/errors.ts';
import { bettingErrors } from './errors.ts';
import { ListOrderQuery } from '../platform/http/cursor.ts';

const MAX_LEGS = 20;
/** How a player sees a movement: done, still owed (being delivered, or under review), or never done. */
export const MOVEMENT_STATUSES = ['applied', 'owed', 'not_applied', 'in_review'] as const;
export const MY_BETS_PAGE = 20;
export const STAFF_BETS_PAGE = 50;
const Timestamp = Type.String({ format: 'date-time' });
const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export type OddsChangeAcceptance = (typeof ODDS_CHANGE_ACCEPTANCE)[number];

export const PlaceBetBody = Type.Object(
  {
    requestId: Type.String({
      pattern: '^[A-Za-z0-9_.:-]{8,64}$',
      description: 'made by the client once per bet slip submission; a repeat places nothing new',
    }),
    stake: Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description: 'minor units of the tenant currency' }),
    legs: Type.Array(
      Type.Object(
        { selectionId: Type.String({ minLength: 1, maxLength: 64 }), odds: Odds },
        { additionalProperties: false },
      ),
      {
        minItems: 1,
        maxItems: MAX_LEGS,
        description: 'one leg: a single; more: an accumulator (one selection per event)',
      },
    ),
    acceptOddsChanges: Type.Optional(
      Type.Enum(ODDS_CHANGE_ACCEPTANCE, {
        default: 'higher',
        description:
          'odds changed since the player saw them: none refuses any change, higher accepts better odds only, any ' +
          'accepts worse odds too; a refusal is 409 odds_changed with the current odds. The bet always takes the ' +
          'current odds',
      }),
    ),
  },
  { additionalProperties: false },
);
export type PlaceBetBody = Static<typeof PlaceBetBody>;

const BetLegView = Type.Object({
  selectionId: Type.String(),
  selectionName: Type.String(),
  marketId: Type.String(),
  marketName: Type.String(),
  eventId: Type.String(),
  eventName: Type.String(),
  eventStartsAt: Timestamp,
  odds: Type.String(),
  result: Nullable(Type.Enum(SELECTION_RESULTS, { description: "null until the leg's market is settled" })),
});

/** The player's view of one wallet movement of the bet: a result can show before its money is delivered. */
const MovementView = Type.Object({
  txId: Type.String(),
  kind: Type.String({ description: 'bet, payout, refund, cashout, resettle or rollback' }),
  direction: Type.Enum(['debit', 'credit']),
  amount: Type.Integer(),
  status: Type.Enum(MOVEMENT_STATUSES, {
    description:
      'applied: the wallet confirmed it; owed: still being delivered; not_applied: it did not happen; in_review: replaced by a resettlement before it was confirmed, an operator decides',
  }),
  at: Type.String({ format: 'date-time', description: 'when the service owed it (the order of delivery)' }),
});

export const BetView = Type.Object({
  id: Type.String(),
  requestId: Type.String(),
  status: Type.Enum(BET_STATES),
  refusal: Nullable(Type.Object({ code: Type.String(), message: Type.String() })),
  stake: Type.Integer(),
  remainingStake: Type.Integer({ description: 'the stake not cashed out yet' }),
  currency: Type.String(),
  odds: Type.String({ description: 'combined decimal odds' }),
  potentialPayout: Type.Integer({ description: 'floor(remaining stake x odds), minor units' }),
  settledReturn: Nullable(
    Type.Integer({ description: 'what the results pay for the remaining stake (0 when lost); null while open' }),
  ),
  placedAt: Timestamp,
  decidedAt: Nullable(Timestamp),
  settledAt: Nullable(Timestamp),
  legs: Type.Array(BetLegView),
  cashOuts: Type.Array(Type.Object({ stake: Type.Integer(), amount: Type.Integer(), at: Timestamp })),
  movements: Type.Array(MovementView, { description: 'wallet movements of the bet, in delivery order' }),
});
export type BetView = Static<typeof BetView>;

export const ListBetsQuery = Type.Object(
  {
    status: Type.Optional(
      Type.Enum(['open', 'settled'], {
        default: 'open',
        description: 'open: waiting for results; settled: with a result or fully cashed out',
      }),
    ),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: MY_BETS_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type ListBetsQuery = Static<typeof ListBetsQuery>;

const tags = ['player: bets'];

export const placeBetSchema = {
  tags,
  operationId: 'placeBet',
  summary: 'Place a single or an accumulator; the stake is debited once from the casino wallet',
  body: PlaceBetBody,
  response: {
    200: Type.Object({ bet: BetView }, { description: 'a repeat of an accepted request id: the same bet' }),
    201: Type.Object({ bet: BetView, balance: Type.Object({ balance: Type.Integer(), currency: Type.String() }) }),
  },
  errors: Object.values(bettingErrors),
};
export const listBetsSchema = {
  tags,
  operationId: 'listMyBets',
  summary: 'My Bets: open or settled bets, newest first',
  querystring: ListBetsQuery,
  response: { 200: Type.Object({ bets: Type.Array(BetView), nextCursor: Type.String() }) },
};
export const getBetSchema = {
  tags,
  operationId: 'getMyBet',
  summary: 'One of my bets',
  params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }),
  response: { 200: Type.Object({ bet: BetView }) },
  errors: [platformErrors.not_found],
};

const ObligationView = Type.Object({
  txId: Type.String(),
  endpoint: Type.String(),
  kind: Type.String(),
  amount: Type.Integer(),
  status: Type.Enum(OBLIGATION_STATES),
  holdReason: Nullable(Type.Enum(HOLD_REASONS)),
  attempts: Type.Integer(),
  lastOutcome: Nullable(Type.String()),
  operatorCode: Nullable(Type.String()),
  createdAt: Timestamp,
  resolvedAt: Nullable(Timestamp),
});

const StaffBetView = Type.Object({
  ...BetView.properties,
  playerId: Type.String({ description: 'our id of the player (pl_…)' }),
  externalPlayerId: Type.String({ description: "the casino's own id of the player" }),
  money: Type.Array(ObligationView, { description: 'wallet postings of the bet, in delivery order' }),
});

const LookUpId = (description: string) => Type.Optional(Type.String({ minLength: 1, maxLength: 64, description }));

export const StaffBetsQuery = Type.Object(
  {
    player: LookUpId('our id of the player (pl_…); one of player, externalPlayerId and betId'),
    externalPlayerId: LookUpId(
      "the casino's own id of the player (as its server opened sessions with), within one tenant: operators' own; " +
        'platform administrators name it with tenantId',
    ),
    betId: LookUpId('one bet (bt_…): the answer holds that bet only'),
    tenantId: LookUpId(
      'the tenant the look-up is limited to; needed by platform administrators with externalPlayerId; operators ' +
        'may name only their own',
    ),
    order: ListOrderQuery,
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: STAFF_BETS_PAGE })),
    cursor: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
export type StaffBetsQuery = Static<typeof StaffBetsQuery>;

export const staffBetsSchema = {
  tags: ['admin: bets'],
  operationId: 'staffPlayerBets',
  summary:
    "A player's bets (by our player id or the casino's) or one bet, every status, with the wallet postings of each",
  description: [
    'Exactly one of `player` (our id, pl_…), `externalPlayerId` (the casino’s id, within one tenant) and `betId`.',
    'Operators see their own tenant only: a player or bet of another tenant is answered 404, and naming another',
    'tenant with `tenantId` 403. Bets newest first (`order=oldest` for the first first); `limit` and `cursor` page a player’s bets.',
  ].join(' '),
  querystring: StaffBetsQuery,
  response: { 200: Type.Object({ bets: Type.Array(StaffBetView), nextCursor: Type.String() }) },
  errors: [platformErrors.not_found, platformErrors.forbidden, platformErrors.validation],
};

// ---- a bet's own outcome (the sandbox outcome controls: own-settlement.ts) ----

/** Results for legs of one bet, by their selection; legs not named keep the result they have (none: open). */
export const OwnLegResults = Type.Array(
  Type.Object(
    {
      selectionId: Type.String({ minLength: 1, maxLength: 64, description: 'the selection of one leg of the bet' }),
      result: Type.Enum(SELECTION_RESULTS, {
        description: "half_won and half_lost only where the leg's market is a quarter line (such as 2.25)",
      }),
    },
    { additionalProperties: false },
  ),
  {
    minItems: 1,
    maxItems: MAX_LEGS,
    description: 'legs of the bet, each at most once; legs not named keep their result (none: still open)',
  },
);

export const BetOutcomeReport = Type.Object({
  changed: Type.Boolean({
    description: "false: the bet was already as asked, and nothing was changed or owed (the call's target state)",
  }),
  bet: Type.Object({
    id: Type.String(),
    status: Type.Enum(BET_STATES, { description: 'after the call' }),
    previousStatus: Type.Enum(BET_STATES, { description: 'before the call' }),
    stake: Type.Integer(),
    remainingStake: Type.Integer({ description: 'the stake not cashed out' }),
    currency: Type.String(),
    settledReturn: Nullable(
      Type.Integer({ description: 'what the results pay for the remaining stake (0 when lost); null while open' }),
    ),
    settlementVersion: Type.Integer({ description: '0 while never settled; +1 each time the bet is settled again' }),
    legs: Type.Array(
      Type.Object({
        selectionId: Type.String(),
        marketId: Type.String(),
        result: Nullable(Type.Enum(SELECTION_RESULTS)),
      }),
    ),
  }),
  owed: Type.Array(
    Type.Object({
      txId: Type.String(),
      kind: Type.Enum(OBLIGATION_KINDS),
      endpoint: Type.Enum(OBLIGATION_ENDPOINTS, { description: 'the wallet endpoint it is delivered to' }),
      amount: Type.Integer({ description: 'minor units' }),
    }),
    { description: 'movements this call owes the wallet: recorded now, delivered right after the answer' },
  ),
  superseded: Type.Array(Type.String(), {
    description: 'txIds of earlier settlement movements not delivered yet, stopped and held for review',
  }),
});
export type BetOutcomeReport = Static<typeof BetOutcomeReport>;

// ---- settlement (traders) ----

export const SettleBody = Type.Object(
  {
    results: Type.Array(
      Type.Object(
        {
          selectionId: Type.String({ minLength: 1, maxLength: 64 }),
          result: Type.Enum(SELECTION_RESULTS, { description: 'half_won and half_lost only on quarter lines' }),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 60, description: 'every selection of the market, exactly once' },
    ),
  },
  { additionalProperties: false },
);
export type SettleBody = Static<typeof SettleBody>;

export const SettlementReport = Type.Object({
  market: Type.Object({
    id: Type.String(),
    status: Type.Enum(MARKET_STATES),
    settlementVersion: Type.Integer({ description: '1 when settled, +1 for each resettlement that changed a result' }),
  }),
  bets: Type.Object(
    {
      settled: Type.Integer({ description: 'bets that got their result now' }),
      resettled: Type.Integer({ description: 'settled bets whose result or return changed' }),
      reopened: Type.Integer({
        description:
          'bets open again: an accumulator whose losing leg won after all, or every bet of a rolled-back result',
      }),
      unchanged: Type.Integer({ description: 'bets on the market this action did not change' }),
    },
    { description: 'bets with a leg on the market (fully cashed-out bets are never changed and not counted)' },
  ),
  owed: Type.Array(
    Type.Object({
      currency: Type.String(),
      credits: Type.Integer({ description: 'sum of the credits this action owes, minor units' }),
      debits: Type.Integer({ description: 'sum of the correction debits this action owes, minor units' }),
      movements: Type.Integer(),
    }),
    { description: 'the money owed by this action, per currency; delivered by the engine after the answer' },
  ),
});
export type SettlementReport = Static<typeof SettlementReport>;

const Counted = (description: string) =>
  Type.Object(
    {
      count: Type.Integer({ description: 'movements' }),
      amount: Type.Integer({ description: 'their sum, minor units' }),
    },
    { description },
  );

export const SettlementPreview = Type.Object({
  market: { ...SettlementReport.properties.market, description: 'what the settle (resettle) answer would say' },
  resultsChanged: Type.Boolean({
    description: 'false: these are the results recorded already, and a resettlement would change nothing',
  }),
  bets: Type.Integer({ description: 'bets with a leg on the market that the action judges (changes.* added up)' }),
  changes: { ...SettlementReport.properties.bets, description: 'what the settle (resettle) answer would say' },
  byResult: Type.Object(
    {
      won: Type.Integer(),
      lost: Type.Integer(),
      void: Type.Integer(),
      half_won: Type.Integer(),
      half_lost: Type.Integer(),
      open: Type.Integer({ description: 'still waiting for the result of another leg (accumulators)' }),
    },
    { description: 'the bets judged, by the result each would have afterwards (unchanged ones included)' },
  ),
  owed: Type.Array(
    Type.Object({
      currency: Type.String(),
      credits: Counted("credits owed to players' wallets (the 0 payout credits of lost bets counted)"),
      debits: Counted("correction debits owed by players' wallets"),
    }),
    { description: 'the money the action would owe, per currency (never added across currencies)' },
  ),
});
export type SettlementPreview = Static<typeof SettlementPreview>;

const MarketParams = Type.Object({ marketId: Type.String({ minLength: 1, maxLength: 64 }) });
const settlementErrors = [
  platformErrors.not_found,
  platformErrors.validation,
  catalogErrors.market_settled,
  catalogErrors.market_not_settled,
  bettingErrors.bets_pending,
];

export const settleSchema = {
  tags: ['admin: trading'],
  operationId: 'settleMarket',
  summary: 'Settle a market: a result for every selection; every bet on it is settled and owed its money',
  params: MarketParams,
  body: SettleBody,
  response: { 200: SettlementReport },
  errors: settlementErrors.filter((error) => error !== catalogErrors.market_not_settled),
};
export const resettleSchema = {
  tags: ['admin: trading'],
  operationId: 'resettleMarket',
  summary: "Correct a settled market's results; each affected bet is owed (or owes) the difference",
  params: MarketParams,
  body: SettleBody,
  response: { 200: SettlementReport },
  errors: settlementErrors.filter((error) => error !== catalogErrors.market_settled),
};
export const settlePreviewSchema = {
  ...settleSchema,
  operationId: 'previewSettleMarket',
  summary: 'Dry run of settle: what the same body would do now, nothing of it kept',
  response: { 200: SettlementPreview },
};
export const resettlePreviewSchema = {
  ...resettleSchema,
  operationId: 'previewResettleMarket',
  summary: 'Dry run of resettle: what the same body would do now, nothing of it kept',
  response: { 200: SettlementPreview },
};

// ---- results by rule (traders) ----

const Points = (description: string) => Type.Integer({ minimum: 0, maximum: 999, description });
const SideScore = (what: string) =>
  Type.Object(
    { home: Points(`the home side's ${what}`), away: Points(`the away side's ${what}`) },
    {
      additionalProperties: false,
    },
  );
export const FinalScore = Type.Object(
  {
    home: Points('goals or points; in a sport played in sets, the sets won'),
    away: Points('goals or points; in a sport played in sets, the sets won'),
    halfTime: Type.Optional(SideScore('score at half time (for the half-time markets)')),
    sets: Type.Optional(
      Type.Array(SideScore('games in the set'), {
        maxItems: 7,
        description:
          "each set's games, in order (for set betting and the first set; totals and handicaps then count games)",
      }),
    ),
  },
  { additionalProperties: false },
);
const EventResultBody = Type.Object({ score: FinalScore }, { additionalProperties: false });

const MARKET_ACTIONS = ['settle', 'resettle', 'unchanged', 'skipped'] as const;
export const MarketByRule = Type.Object({
  marketId: Type.String(),
  name: Type.String(),
  type: Type.Enum(MARKET_TYPES),
  action: Type.Enum(MARKET_ACTIONS, {
    description:
      'settle: no results yet; resettle: settled with other results (a corrected score); unchanged: settled with ' +
      'these results; skipped: the score lacks a part its rule needs (see reason)',
  }),
  reason: Type.Optional(
    Type.Enum(['needs_half_time', 'needs_sets'] as const, { description: 'why a market was skipped' }),
  ),
  results: Type.Optional(
    Type.Array(
      Type.Object({
        selectionId: Type.String(),
        name: Type.String(),
        outcome: Type.String(),
        result: Type.Enum(SELECTION_RESULTS, { description: "by the market type's rule" }),
        was: Nullable(Type.Enum(SELECTION_RESULTS, { description: 'the result before, null if none' })),
      }),
    ),
  ),
});
export type MarketByRule = Static<typeof MarketByRule>;
const EventWithScore = Type.Object({
  id: Type.String(),
  status: Type.Enum(EVENT_STATUSES),
  score: Nullable(Type.Object({ home: Type.Integer(), away: Type.Integer() })),
});
export const EventResultPreview = Type.Object({
  event: { ...EventWithScore, description: 'the event as it is now (applying ends it with the score given)' },
  markets: Type.Array(
    Type.Object({
      ...MarketByRule.properties,
      preview: Type.Optional({ ...SettlementPreview, description: "the market's settlement dry run" }),
    }),
  ),
});
export type EventResultPreview = Static<typeof EventResultPreview>;
export const EventResultReport = Type.Object({
  event: EventWithScore,
  markets: Type.Array(
    Type.Object({
      ...MarketByRule.properties,
      report: Type.Optional({ ...SettlementReport, description: "the market's settlement, as settle answers" }),
      error: Type.Optional(
        Type.Object(
          { code: Type.String(), message: Type.String() },
          { description: 'why this market was not settled (the others were): apply again once it can be' },
        ),
      ),
    }),
  ),
});
export type EventResultReport = Static<typeof EventResultReport>;

const EventParams = Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64 }) });
const eventResultErrors = [
  platformErrors.not_found,
  platformErrors.validation,
  catalogErrors.event_cancelled,
  catalogErrors.event_not_started,
];
export const eventResultPreviewSchema = {
  tags: ['admin: trading'],
  operationId: 'previewEventResult',
  summary: "Dry run of an event's final score: every market's results by its rule, and what settling them would do",
  params: EventParams,
  body: EventResultBody,
  response: { 200: EventResultPreview },
  errors: eventResultErrors,
};
export const eventResultSchema = {
  tags: ['admin: trading'],
  operationId: 'applyEventResult',
  summary: "An event's final score: the event ends, and every market settles (or resettles) by its rule",
  params: EventParams,
  body: EventResultBody,
  response: { 200: EventResultReport },
  errors: eventResultErrors,
};

// ---- the trader's risk view ----

const Minor = (description: string) => Type.Integer({ description: `${description}, minor units` });
export const EventRiskView = Type.Object({
  event: Type.Object({ id: Type.String(), name: Type.String(), status: Type.Enum(EVENT_STATUSES) }),
  currencies: Type.Array(
    Type.Object({
      currency: Type.String(),
      stakes: Minor('the open stakes on the event'),
      markets: Type.Array(
        Type.Object({
          marketId: Type.String(),
          name: Type.String(),
          status: Type.Enum(MARKET_STATES),
          stakes: Minor("the open stakes on the market's selections"),
          selections: Type.Array(
            Type.Object({
              selectionId: Type.String(),
              name: Type.String(),
              odds: Type.String(),
              bets: Type.Integer({ description: 'open bets with a leg on it' }),
              stakes: Minor('their stakes (less what was cashed out)'),
              payouts: Minor('what they would pay if it won'),
              bookResult: Minor(
                "the book's result if it won: the market's stakes less those payouts (negative: a loss); " +
                  "an accumulator's counts in full, the worst case",
              ),
            }),
          ),
        }),
        { description: 'markets with open bets, in the event’s order' },
      ),
    }),
    { description: 'one per currency of the bets: amounts are never added across currencies' },
  ),
  largestBets: Type.Array(
    Type.Object({
      betId: Type.String(),
      tenantId: Type.String(),
      playerId: Type.String(),
      currency: Type.String(),
      selectionId: Type.String({ description: "the bet's leg on this event" }),
      stake: Minor('its open stake'),
      potentialPayout: Minor('what it would pay'),
      legs: Type.Integer(),
      placedAt: Type.String({ format: 'date-time' }),
    }),
    { description: 'the ten open bets that would pay the most' },
  ),
  limits: Type.Array(
    Type.Object({
      tenantId: Type.String(),
      currency: Type.String(),
      event: Type.Object({ reserved: Minor('liability reserved on the event'), max: Minor("the tenant's cap") }),
      busiestSelection: Nullable(
        Type.Object({
          selectionId: Type.String(),
          reserved: Minor('liability reserved on it'),
          max: Minor("the tenant's cap a selection"),
        }),
      ),
    }),
    { description: 'per tenant with liability on the event: the exposure limits in use (docs/betting.md)' },
  ),
});
export type EventRiskView = Static<typeof EventRiskView>;

export const eventRiskSchema = {
  tags: ['admin: trading'],
  operationId: 'getEventRisk',
  summary: "An event's risk: stakes and the book's result on each outcome, the largest bets, the limits in use",
  params: Type.Object({ eventId: Type.String({ minLength: 1, maxLength: 64 }) }),
  response: { 200: EventRiskView },
  errors: [platformErrors.not_found],
};

// ---- cash-out (players) ----

const BetParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });
const amount = (description: string) => Type.Integer({ minimum: 1, maximum: 1_000_000_000_000, description });

const CashOutOffer = Type.Object({
  amount: Type.Integer({ description: 'what the wallet is credited if the player accepts, minor units' }),
  currency: Type.String(),
  stake: Type.Integer({ description: 'the part of the remaining stake this offer cashes out' }),
});

const CashOutOfferQuery = Type.Object(
  { stake: Type.Optional(amount('a part of the remaining stake; all of it when omitted')) },
  { additionalProperties: false },
);

export const CashOutBody = Type.Object(
  {
    requestId: Type.String({
      pattern: '^[A-Za-z0-9_.:-]{8,64}$',
      description: 'made once per acceptance; a repeat cashes out nothing more',
    }),
    amount: amount('the offer the player accepted'),
    stake: Type.Optional(amount('the part of the remaining stake to cash out; all of it if omitted')),
  },
  { additionalProperties: false },
);
export type CashOutBody = Static<typeof CashOutBody>;

export const cashOutOfferSchema = {
  tags,
  operationId: 'getCashOutOffer',
  summary: 'The cash-out offer for one of my open bets, from current odds',
  params: BetParams,
  querystring: CashOutOfferQuery,
  response: { 200: Type.Object({ offer: CashOutOffer }) },
  errors: [platformErrors.not_found, platformErrors.validation, bettingErrors.cashout_unavailable],
};
export const cashOutSchema = {
  tags,
  operationId: 'cashOut',
  summary: 'Accept a cash-out offer: all of the remaining stake, or a part of it',
  params: BetParams,
  body: CashOutBody,
  response: { 200: Type.Object({ bet: BetView }) },
  errors: [
    platformErrors.not_found,
    platformErrors.validation,
    bettingErrors.cashout_unavailable,
    bettingErrors.cashout_offer_changed,
    bettingErrors.request_id_reused,
  ],
};
