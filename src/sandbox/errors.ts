import { defineErrors } from '../platform/errors.ts';

export const sandboxErrors = defineErrors({
  sandbox_only: {
    status: 403,
    message:
      "The sandbox controls work only in a sandbox environment (its tenant id and integration key); a production bet's outcome comes from its markets' results, and production players and money are managed by the casino and its staff.",
  },
});
