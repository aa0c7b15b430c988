import type { operations } from './generated/openapi.d.ts';

/**
 * The shapes of the API answers the sportsbook reads, named. Every one is derived from the types generated from
 * the v1 OpenAPI document (generated/openapi.d.ts, `npm run api-types`), never declared here: when the API changes
 * and the file is regenerated, code that no longer matches does not compile. The document names no schemas
 * (`components.schemas` is empty), so each shape is taken from the successful answer of an operation.
 */

type Operation = keyof operations;

/** The JSON body of an operation's successful answer (200, or 201 for a creation; a union when it has both). */
export type ApiResponse<Op extends Operation> = JsonOf<SuccessOf<operations[Op]['responses']>>;
/** The JSON body an operation takes. */
export type ApiRequest<Op extends Operation> = JsonOf<NonNullable<operations[Op]['requestBody']>>;
/** The query parameters an operation reads. */
export type ApiQuery<Op extends Operation> = NonNullable<operations[Op]['parameters']['query']>;

type SuccessOf<Responses> = Responses[Extract<keyof Responses, 200 | 201>];
type JsonOf<Response> = Response extends { content: { 'application/json': infer Body } } ? Body : never;

export type Player = ApiResponse<'getPlayerSession'>['player'];

export type EventDetail = ApiResponse<'getEvent'>['event'];
export type Market = EventDetail['markets'][number];
export type Selection = Market['selections'][number];
export type MarketType = Market['type'];
/** What every view of an event has (a list's summary, the event page): the event without its markets. */
export type EventHeader = Omit<EventDetail, 'markets'>;
export type EventStatus = EventHeader['status'];

export type SportSummary = ApiResponse<'listSports'>['sports'][number];
export type EventSummary = ApiResponse<'listLiveEvents'>['events'][number];

export type Bet = ApiResponse<'getMyBet'>['bet'];
export type CashOutOffer = ApiResponse<'getCashOutOffer'>['offer'];
