import { defineErrors } from '../platform/errors.ts';

export const staffErrors = defineErrors({
  invalid_credentials: { status: 401, message: 'E-mail, password or authenticator code is wrong.' },
  account_locked: {
    status: 429,
    message: 'Too many failed log-ins: the account is locked for a while (details.retryAfterSeconds).',
    headers: (details) => ({ 'retry-after': String(details.retryAfterSeconds) }),
  },
  staff_exists: { status: 409, message: 'A staff account with this e-mail already exists.' },
});
