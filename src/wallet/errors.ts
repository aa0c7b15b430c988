import { defineErrors } from '../platform/errors.ts';

export const walletErrors = defineErrors({
  balance_unavailable: {
    status: 503,
    message: 'The casino wallet did not give a balance; none is shown until it does.',
  },
  obligation_not_held: {
    status: 409,
    message: 'Only a movement held for review can be retried, resolved or cancelled; this one is not held.',
  },
  obligation_in_flight: {
    status: 409,
    message:
      'An attempt to deliver this movement is on its way to the wallet; its answer is recorded and decides. ' +
      'Look again in a minute.',
  },
  adjustment_above_maximum: {
    status: 400,
    message:
      "The amount is above the tenant's largest single adjustment (details.maxAmount); split it, or ask the platform.",
  },
  adjustment_not_proposed: {
    status: 409,
    message: 'Only a proposed adjustment can be approved or rejected; this one was decided already (details.status).',
  },
  second_approver_required: {
    status: 403,
    message: 'The staff member who proposed an adjustment cannot decide it: another staff member must.',
  },
  retry_not_allowed: {
    status: 409,
    message: 'Sending this movement again cannot help (details.reason says why); resolve or cancel it instead.',
  },
  sent_again_too_soon: {
    status: 429,
    message:
      'This movement was retried or redelivered moments ago: ask again after Retry-After seconds ' +
      '(details.retryAfterSeconds), once that attempt has had its answer.',
    headers: (details) => ({ 'retry-after': String(details.retryAfterSeconds) }),
  },
  redelivery_not_allowed: {
    status: 409,
    message:
      'Only a movement still owed (pending) or one the wallet refused (failed) can be sent again now, and only when ' +
      'sending it again can help; details.state and details.reason say why not.',
  },
  statement_not_ready: {
    status: 409,
    message:
      'The statement of a UTC day is final, and served, from a few minutes after the day ends (details.availableAt).',
  },
});

/**
 * What `bookmaker reconcile` refuses (src/cli/reconcile.ts): it runs on the casino's side, on files, and never answers
 * over HTTP (the statuses are the catalogue's form only).
 */
export const reconciliationErrors = defineErrors({
  unreadable_input: {
    status: 400,
    message:
      'A file given to reconcile cannot be read or is not in its documented format (see docs/reconciliation.md).',
  },
  signature_invalid: {
    status: 400,
    message:
      'The statement’s signature does not verify with the public key given: it was changed after it was served, ' +
      'or it was not served by this platform. Nothing was compared.',
  },
  differences_found: {
    status: 409,
    message: 'The statement and the wallet export differ; each difference is listed above.',
  },
});
