/**
 * The states of a bet and the moves between them, as data with no dependencies. Placement, settlement and cash-out
 * move a bet only through moves.ts, which refuses a move this table does not allow; the database CHECK holds the
 * same list.
 */
export const BET_STATES = [
  /** Recorded with its stake debit, which is on its one attempt. */
  'pending',
  /** The stake was taken: the bet stands, unsettled. */
  'accepted',
  /**
   * Not placed: the stake was refused, or its outcome was unknown and it is rolled back; or (sandbox tenants only)
   * the bet was cancelled before any credit, its stake rolled back. Final.
   */
  'refused',
  /** Part of the stake was cashed out; the rest stands, unsettled. */
  'partially_cashed_out',
  /** Settled as a winner: every leg won (accumulators: or was void, not all of them). */
  'won',
  /** Settled as a loser: a leg lost. */
  'lost',
  /** Settled void: every leg void; the standing stake is refunded. */
  'void',
  /** Settled on a quarter line: a leg half won (half at its odds, half refunded), none lost or half lost. */
  'half_won',
  /** Settled on a quarter line: a leg half lost (half refunded, half lost), none lost. */
  'half_lost',
  /** Closed by a full cash-out; a later resettlement does not change it. Final. */
  'cashed_out',
] as const;
export type BetState = (typeof BET_STATES)[number];

/** Bets still waiting for their result. */
export const OPEN_STATES = ['accepted', 'partially_cashed_out'] as const satisfies readonly BetState[];
/** Bets with a result; a resettlement may move them among these, or reopen them. */
export const SETTLED_STATES = ['won', 'lost', 'void', 'half_won', 'half_lost'] as const satisfies readonly BetState[];
export type SettledState = (typeof SETTLED_STATES)[number];
/** What My Bets shows as settled: a result, or a full cash-out. */
export const CLOSED_STATES: readonly BetState[] = [...SETTLED_STATES, 'cashed_out'];

/**
 * The only moves a bet makes. A settled bet moves again only when a market of it is resettled (or, on a sandbox
 * tenant, when the partner resettles or reopens the bet itself): to another result, to the same result with another
 * return (an accumulator's leg turned void), or back to open (an accumulator lost early by a leg that the correction
 * makes a winner, while other legs still wait for their result).
 */
export const BET_TRANSITIONS: Readonly<Record<BetState, readonly BetState[]>> = {
  pending: ['accepted', 'refused'],
  // refused: a sandbox cancellation of a bet that no credit has reached yet (own-settlement.ts); its stake is rolled back.
  accepted: [...SETTLED_STATES, 'partially_cashed_out', 'cashed_out', 'refused'],
  partially_cashed_out: [...SETTLED_STATES, 'partially_cashed_out', 'cashed_out'],
  won: [...SETTLED_STATES, ...OPEN_STATES],
  lost: [...SETTLED_STATES, ...OPEN_STATES],
  void: [...SETTLED_STATES, ...OPEN_STATES],
  half_won: [...SETTLED_STATES, ...OPEN_STATES],
  half_lost: [...SETTLED_STATES, ...OPEN_STATES],
  refused: [],
  cashed_out: [],
};

export function isOpen(state: BetState): state is (typeof OPEN_STATES)[number] {
  return (OPEN_STATES as readonly BetState[]).includes(state);
}

export function isSettled(state: BetState): state is SettledState {
  return (SETTLED_STATES as readonly BetState[]).includes(state);
}

export class ForbiddenBetTransitionError extends Error {
  constructor(from: BetState, to: BetState) {
    super(`a bet cannot move from ${from} to ${to}`);
    this.name = 'ForbiddenBetTransitionError';
  }
}

/** Another writer moved the bet first: read what happened instead of assuming. */
export class BetRaceError extends Error {
  constructor(id: string, expected: BetState) {
    super(`bet ${id} is no longer ${expected}`);
    this.name = 'BetRaceError';
  }
}

export function checkBetTransition(from: BetState, to: BetState): void {
  if (!BET_TRANSITIONS[from].includes(to)) throw new ForbiddenBetTransitionError(from, to);
}

/** exposure.scope and bet_exposure.scope: liability is reserved per selection and per event. */
export const EXPOSURE_SCOPES = ['selection', 'event'] as const;

/**
 * Which changes of the odds since the player saw them a slip accepts (`acceptOddsChanges`, slip-rules.ts): none,
 * better odds only, or any. The player's standing choice is kept by the preferences domain.
 */
export const ODDS_CHANGE_ACCEPTANCE = ['none', 'higher', 'any'] as const;
