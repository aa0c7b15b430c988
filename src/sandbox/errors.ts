import { defineErrors } from '../platform/errors.ts';

export const sandboxErrors = defineErrors({
  sandbox_only: {
    status: 403,
    message:
      "Sandbox outcome controls work only in a sandbox environment (its tenant id and integration key); a production bet's outcome comes from its markets' results.",
  },
});
