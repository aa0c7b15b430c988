import { defineErrors } from '../platform/errors.ts';

export const integrationErrors = defineErrors({
  launch_token_invalid: {
    status: 401,
    message: 'The launch token is not valid.',
  },
  launch_token_used: { status: 401, message: 'The launch token was already used; ask the casino for a new one.' },
  launch_token_expired: { status: 401, message: 'The launch token expired 120 s after it was issued.' },
  session_expired: { status: 401, message: 'The session has ended; open a new one from the casino.' },
  account_blocked: { status: 403, message: 'The player is blocked on the platform.' },
  account_paused: { status: 403, message: 'The player account is paused.' },
  account_closed: { status: 403, message: 'The player account is closed.' },
  operator_managed: {
    status: 403,
    message: 'Accounts, KYC, deposits and withdrawals are managed by the casino, not by the sportsbook.',
  },
  unavailable: { status: 503, message: 'The sportsbook is temporarily unavailable for this casino.' },
});
