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
  catalog_not_empty: { status: 409, message: 'The catalog is not empty; demo seed only fills an empty database.' },
});
