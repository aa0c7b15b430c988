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
  retry_not_allowed: {
    status: 409,
    message: 'Sending this movement again cannot help (details.reason says why); resolve or cancel it instead.',
  },
});
