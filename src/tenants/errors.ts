import { defineErrors } from '../platform/errors.ts';

export const tenantErrors = defineErrors({
  wallet_identity_locked: {
    status: 409,
    message:
      'The tenant has moved money: its wallet URL, wallet mode and currency can no longer change through settings (details.fields).',
  },
});
