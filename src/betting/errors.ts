import { defineErrors } from '../platform/errors.ts';

/** Why a bet is refused. Codes (never HTTP statuses) are what a refused bet stores. */
export const bettingErrors = defineErrors({
  stake_out_of_range: { status: 400, message: 'The stake is outside the limits of this casino.' },
  payout_above_maximum: {
    status: 400,
    message: 'The potential payout is above the maximum per bet; lower the stake.',
  },
  insufficient_funds: { status: 402, message: 'Not enough balance for this stake.' },
  payment_rejected: {
    status: 402,
    message: 'The casino wallet refused the stake.',
  },
  selection_unavailable: { status: 409, message: 'A selection of the slip no longer exists.' },
  market_unavailable: { status: 409, message: 'A market of the slip is not open for bets right now.' },
  odds_changed: {
    status: 409,
    message: 'The odds have changed; review the new odds and place again.',
  },
  exposure_limit: {
    status: 409,
    message: 'This bet would take the book past its limit on a selection or event; try a smaller stake.',
  },
  bet_in_progress: { status: 409, message: 'A bet with this request id is being placed; ask again shortly.' },
  request_id_reused: {
    status: 409,
    message: 'This request id was used for a different bet slip; make a new request id for each slip.',
  },
  bets_pending: {
    status: 409,
    message: 'Bets on this market are being placed right now; settle again in a few seconds.',
  },
  cashout_unavailable: {
    status: 409,
    message: 'No cash-out is available for this bet now; details.reason says why.',
  },
  cashout_offer_changed: {
    status: 409,
    message: 'The cash-out offer has changed; details.offer is the new one, accept it to cash out.',
  },
  bet_cancelled: {
    status: 409,
    message: 'The bet was cancelled in the sandbox before any credit, and its stake rolled back: it does not stand.',
  },
  wallet_unavailable: {
    status: 503,
    message: 'The casino wallet did not confirm the stake, so the bet was not placed; any amount taken is returned.',
  },
});

export type RefusalCode = keyof typeof bettingErrors;

/**
 * Why a bet's own outcome (a sandbox outcome control, own-settlement.ts) cannot be decided as asked: the bet's state
 * does not allow it. details.status is the bet's state.
 */
export const betOutcomeErrors = defineErrors({
  bet_pending: {
    status: 409,
    message: "The bet's stake is still on its way to the wallet; ask again in a few seconds.",
  },
  bet_settled: {
    status: 409,
    message: 'The bet is settled already, with other results: resettle it (or reopen it) to change them.',
  },
  bet_not_settled: { status: 409, message: 'The bet is not settled: settle it first.' },
  bet_closed: {
    status: 409,
    message: 'The bet is closed for good (refused, cancelled or fully cashed out): its outcome cannot change.',
  },
});
