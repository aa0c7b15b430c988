import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { OPEN_STATES } from '../states.ts';

/** What an open bet still stands to win and stake: less the part already cashed out, rounded down. */
const remainingStake = sql<number>`(b.stake - b.cashed_out_stake)`;
const remainingPayout = sql<number>`floor(b.potential_payout::numeric * (b.stake - b.cashed_out_stake) / b.stake)`;

/**
 * Per selection of the event, per currency: the open bets with a leg on it, their stakes and what they would pay.
 * A bet has at most one leg per event, so a market's stakes are its selections' added up.
 */
export function openStakesOnEvent(q: Queryable, eventId: string) {
  return q
    .selectFrom('bet_legs as l')
    .innerJoin('bets as b', 'b.id', 'l.bet_id')
    .select([
      'l.market_id',
      'l.selection_id',
      'b.currency',
      sql<number>`count(*)::int`.as('bets'),
      sql<number>`sum(${remainingStake})::bigint`.as('stakes'),
      sql<number>`sum(${remainingPayout})::bigint`.as('payouts'),
    ])
    .where('l.event_id', '=', eventId)
    .where('b.status', 'in', OPEN_STATES)
    .groupBy(['l.market_id', 'l.selection_id', 'b.currency'])
    .execute();
}

/** The open bets on the event that would pay the most, with how many legs each has. */
export function largestOpenBets(q: Queryable, eventId: string, limit: number) {
  return q
    .selectFrom('bet_legs as l')
    .innerJoin('bets as b', 'b.id', 'l.bet_id')
    .select([
      'b.id',
      'b.tenant_id',
      'b.player_id',
      'b.currency',
      'b.placed_at',
      'l.selection_id',
      remainingStake.as('stake'),
      sql<number>`${remainingPayout}::bigint`.as('payout'),
      (eb) =>
        eb
          .selectFrom('bet_legs as all_legs')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('all_legs.bet_id', '=', 'b.id')
          .as('legs'),
    ])
    .where('l.event_id', '=', eventId)
    .where('b.status', 'in', OPEN_STATES)
    .orderBy('payout', 'desc')
    .orderBy('b.id')
    .limit(limit)
    .execute();
}

/** Liability reserved on the event and on each of its selections, per tenant (exposure.ts keeps it). */
export function reservedOnEvent(q: Queryable, eventId: string, selectionIds: string[]) {
  return q
    .selectFrom('exposure')
    .select(['tenant_id', 'scope', 'ref_id', 'reserved'])
    .where((eb) =>
      eb.or([
        eb.and([eb('scope', '=', 'event'), eb('ref_id', '=', eventId)]),
        ...(selectionIds.length > 0 ? [eb.and([eb('scope', '=', 'selection'), eb('ref_id', 'in', selectionIds)])] : []),
      ]),
    )
    .execute();
}
