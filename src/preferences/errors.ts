import { defineErrors } from '../platform/errors.ts';

export const preferencesErrors = defineErrors({
  favourites_full: {
    status: 409,
    message: 'The player keeps as many favourites as allowed (details.limit); remove one before adding another.',
  },
});
