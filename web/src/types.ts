import type { ApiResponse } from '../../ui-shared/api-shapes.ts';

/**
 * The shapes of the API answers the sportsbook reads, named. Every one is derived from the types generated from
 * the v1 OpenAPI document (api-shapes.ts), never declared here: when the API changes and the file is regenerated,
 * code that no longer matches does not compile.
 */

export type Player = ApiResponse<'getPlayerSession'>['player'];

export type EventDetail = ApiResponse<'getEvent'>['event'];
export type Market = EventDetail['markets'][number];
export type Selection = Market['selections'][number];
export type MarketType = Market['type'];
/** What every view of an event has (a list's summary, the event page): the event without its markets. */
export type EventHeader = Omit<EventDetail, 'markets'>;
export type EventStatus = EventHeader['status'];
export type LivePeriod = NonNullable<EventHeader['period']>;
export type LiveClock = NonNullable<EventHeader['clock']>;

export type SportSummary = ApiResponse<'listSports'>['sports'][number];
export type EventSummary = ApiResponse<'listLiveEvents'>['events'][number];

export type Bet = ApiResponse<'getMyBet'>['bet'];
export type CashOutOffer = ApiResponse<'getCashOutOffer'>['offer'];
