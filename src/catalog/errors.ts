import { defineErrors } from '../platform/errors.ts';

export const catalogErrors = defineErrors({
  market_closed: { status: 409, message: 'The market is closed or settled; it cannot change any more.' },
  market_settled: {
    status: 409,
    message: 'The market is settled already; correct its results with resettle.',
  },
  market_not_settled: {
    status: 409,
    message: 'The market has no results yet; settle it first.',
  },
  event_not_started: {
    status: 409,
    message: 'The event has not started; a final score comes after it ends. Move it to live or finished first.',
  },
  event_cancelled: {
    status: 409,
    message: 'The event is cancelled: it has no final score, and its markets are voided, not settled from one.',
  },
  market_not_fed: {
    status: 409,
    message: 'A trader created this market: no feed producer prices it, so it cannot be given to the feed.',
  },
  catalog_not_empty: { status: 409, message: 'The catalog is not empty; demo seed only fills an empty database.' },
});
