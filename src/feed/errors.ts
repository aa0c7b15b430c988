import { defineErrors } from '../platform/errors.ts';

export const feedErrors = defineErrors({
  producer_exists: { status: 409, message: 'A producer with this id exists already.' },
  producer_mismatch: {
    status: 403,
    message: "A message names a producer other than the key's: a key speaks for its own producer only.",
  },
});
