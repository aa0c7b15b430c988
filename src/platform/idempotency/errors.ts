import { defineErrors } from '../errors.ts';

export const idempotencyErrors = defineErrors({
  idempotency_mismatch: {
    status: 409,
    message: 'This Idempotency-Key was used with another request body, operation or API credential (details.reason).',
  },
  idempotency_expired: {
    status: 409,
    message: 'The replay window of this Idempotency-Key has passed; read the current state instead of retrying.',
  },
  idempotency_in_progress: {
    status: 409,
    message: 'A request with this Idempotency-Key is still being processed; retry later with the same key.',
  },
});
