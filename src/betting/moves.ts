import type { Updateable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { StatementPart } from '../platform/db/one-statement.ts';
import { checkBetTransition, BetRaceError, type BetState } from './states.ts';
import * as betStore from './store/bets.ts';
import type { BetsTable } from './tables.ts';

/**
 * The only ways a bet changes state: each move is checked against BET_TRANSITIONS (states.ts) and made only if the
 * row is still in the state the caller read (a guarded update); otherwise BetRaceError, and the caller reads what
 * happened.
 */

/** Many moves at once (a settlement), each checked against the table and guarded like moveBet. */
export async function moveBets(q: Queryable, moves: betStore.BetMove[]): Promise<void> {
  for (const move of moves) checkBetTransition(move.from, move.to);
  const moved = await betStore.moveBets(q, moves);
  const lost = moves.find((move) => !moved.has(move.id));
  if (lost) throw new BetRaceError(lost.id, lost.from);
}

/**
 * The one way a bet changes state: the move must be in the table, and the row must still be in the state the caller
 * read (a guarded update); otherwise BetRaceError, and the caller reads what happened.
 */
export async function moveBet(
  q: Queryable,
  bet: { id: string; status: BetState },
  to: BetState,
  changes: Omit<Updateable<BetsTable>, 'status'> = {},
): Promise<void> {
  checkBetTransition(bet.status, to);
  if (!(await betStore.moveBet(q, bet.id, bet.status, { ...changes, status: to })))
    throw new BetRaceError(bet.id, bet.status);
}

/**
 * moveBet as a part of a statement (`name`), made only if the part `gate` wrote a row (with no gate: first). If it
 * cannot be made (the bet moved first) the whole statement writes nothing (IncompleteStatementError), and the caller
 * reads what happened.
 */
export function moveBetPart(
  name: string,
  move: { bet: { id: string; status: BetState }; to: BetState; changes: Omit<Updateable<BetsTable>, 'status'> },
  gate?: string,
): StatementPart {
  checkBetTransition(move.bet.status, move.to);
  return betStore.moveBetPart(
    name,
    { id: move.bet.id, from: move.bet.status, changes: { ...move.changes, status: move.to } },
    gate,
  );
}
