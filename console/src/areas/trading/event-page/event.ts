import type { ApiResponse } from '../../../api.ts';

/** The event the page shows, with its markets, as the API answers it. */
export type TradingEvent = ApiResponse<'getTradingEvent'>['event'];
export type Market = TradingEvent['markets'][number];
