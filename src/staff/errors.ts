import { defineErrors } from '../platform/errors.ts';

export const staffErrors = defineErrors({
  invalid_credentials: { status: 401, message: 'E-mail, password or authenticator code is wrong.' },
  account_locked: {
    status: 429,
    message: 'Too many failed log-ins: the account is locked for a while (details.retryAfterSeconds).',
    headers: (details) => ({ 'retry-after': String(details.retryAfterSeconds) }),
  },
  enrolment_invalid: {
    status: 401,
    message:
      'The enrolment token is unknown, used, replaced by a newer sign-in or expired (details.reason: unknown or ' +
      'expired); sign in again to start a new enrolment.',
  },
  session_expired: {
    status: 401,
    message: 'The staff session has ended (details.reason: idle, expired or revoked); sign in again.',
  },
  staff_exists: { status: 409, message: 'A staff account with this e-mail already exists.' },
  cannot_disable_self: { status: 409, message: 'You cannot disable your own account; ask another administrator.' },
  last_platform_admin: {
    status: 409,
    message: 'This is the last enabled platform administrator: enable or create another one first.',
  },
});
