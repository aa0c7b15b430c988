import type { Insertable } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { insertPart, type StatementPart } from '../../platform/db/one-statement.ts';
import type { SelectionResult } from '../../catalog/tables.ts';
import type { Bet, BetLegsTable, BetStatus } from '../tables.ts';

/** The bet's legs as a part (`name`): written only if the part `gate` wrote the bet. */
export function insertLegsPart(name: string, legs: Array<Insertable<BetLegsTable>>, gate: string): StatementPart {
  return insertPart(name, 'bet_legs', legs, { gate, returning: 'bet_id' });
}

export function legsOfBets(q: Queryable, betIds: string[]) {
  if (betIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('bet_legs')
    .selectAll()
    .where('bet_id', 'in', betIds)
    .orderBy('bet_id')
    .orderBy('position')
    .execute();
}

/** Whether a bet on the market is still waiting for its stake's outcome (it would escape the settlement). */
export async function hasPendingBetOnMarket(q: Queryable, marketId: string): Promise<boolean> {
  const row = await q
    .selectFrom('bets')
    .innerJoin('bet_legs', 'bet_legs.bet_id', 'bets.id')
    .select('bets.id')
    .where('bet_legs.market_id', '=', marketId)
    .where('bets.status', '=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The bets with a leg on the market in the given states, locked, in id order (so two settlements never deadlock).
 * A bet whose outcome is its own (outcome_override_at) is never one of them: the market's results do not decide it.
 */
export function lockBetsOnMarket(q: Queryable, marketId: string, states: readonly BetStatus[]): Promise<Bet[]> {
  return q
    .selectFrom('bets')
    .selectAll()
    .where('status', 'in', states)
    .where('outcome_override_at', 'is', null)
    .where('id', 'in', (eb) => eb.selectFrom('bet_legs').select('bet_id').where('market_id', '=', marketId))
    .orderBy('id')
    .forUpdate()
    .execute();
}

/** Copies a market's results onto the legs of every bet on it, but those of bets whose outcome is their own. */
export async function setLegResults(
  q: Queryable,
  marketId: string,
  results: Map<string, SelectionResult | null>,
): Promise<void> {
  for (const [selectionId, result] of results) {
    await q
      .updateTable('bet_legs')
      .set({ result })
      .where('market_id', '=', marketId)
      .where('selection_id', '=', selectionId)
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('bets')
              .select('bets.id')
              .whereRef('bets.id', '=', 'bet_legs.bet_id')
              .where('bets.outcome_override_at', 'is not', null),
          ),
        ),
      )
      .execute();
  }
}

/**
 * A bet's own leg results (by position), and its outcome marked as its own from `at` (the first time only): from
 * now on no market's results reach it (lockBetsOnMarket, setLegResults).
 */
export async function setOwnLegResults(
  q: Queryable,
  betId: string,
  results: Array<{ position: number; result: SelectionResult | null }>,
  at: Date,
): Promise<void> {
  for (const { position, result } of results) {
    await q
      .updateTable('bet_legs')
      .set({ result })
      .where('bet_id', '=', betId)
      .where('position', '=', position)
      .execute();
  }
  await q
    .updateTable('bets')
    .set((eb) => ({ outcome_override_at: eb.fn.coalesce('outcome_override_at', eb.val(at)) }))
    .where('id', '=', betId)
    .execute();
}
