import { sql } from 'kysely';
import type { Queryable } from '../../platform/db/database.ts';
import { pageInTimeOrder, type TimePage } from '../../platform/db/paging.ts';
import type { ObligationStatus, WalletObligation } from '../tables.ts';
import { UNSETTLED_STATES } from '../states.ts';

/** The casino's own view of its tenant's movements, and what its daily statement lists. */

/** One page of a tenant's obligations for the casino by time owed (and one more row to tell whether more exist). */
export interface PartnerObligationFilter extends TimePage {
  tenantId: string;
  /** The ledger states wanted; with `held` among them, the hold reasons below narrow the held rows. */
  statuses?: readonly ObligationStatus[] | undefined;
  heldFor?: { in: readonly string[] } | { notIn: readonly string[] } | undefined;
  playerId?: string | undefined;
  betId?: string | undefined;
  /** Owed at or after `createdFrom`, before `createdTo`. */
  createdFrom?: Date | undefined;
  createdTo?: Date | undefined;
}

export function partnerObligations(q: Queryable, filter: PartnerObligationFilter): Promise<WalletObligation[]> {
  let query = q.selectFrom('wallet_obligations').selectAll().where('tenant_id', '=', filter.tenantId);
  if (filter.statuses) query = query.where('status', 'in', filter.statuses);
  const heldFor = filter.heldFor;
  if (heldFor) {
    query = query.where((eb) =>
      eb.or([
        eb('status', '<>', 'held'),
        'in' in heldFor
          ? eb('hold_reason', 'in', heldFor.in as WalletObligation['hold_reason'][])
          : eb('hold_reason', 'not in', heldFor.notIn as WalletObligation['hold_reason'][]),
      ]),
    );
  }
  if (filter.playerId) query = query.where('player_id', '=', filter.playerId);
  if (filter.betId) query = query.where('bet_id', '=', filter.betId);
  if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom);
  if (filter.createdTo) query = query.where('created_at', '<', filter.createdTo);
  return pageInTimeOrder(query, 'created_at', filter).execute();
}

/** The obligation of a txId (txIds are unique across tenants: the caller checks the tenant). */
export function obligationOfTxId(q: Queryable, txId: string): Promise<WalletObligation | undefined> {
  return q.selectFrom('wallet_obligations').selectAll().where('tx_id', '=', txId).executeTakeFirst();
}

/**
 * For owed postings of bets: the txId of the earliest earlier posting of the same bet that is not settled (the
 * delivery engine sends none of a bet's postings before its predecessors are settled).
 */
export async function waitingFor(q: Queryable, obligationIds: string[]): Promise<Map<string, string>> {
  if (obligationIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; blocker: string }>`
    select o.id, b.tx_id as blocker
    from wallet_obligations o
    cross join lateral (
      select e.tx_id from wallet_obligations e
      where e.bet_id = o.bet_id and e.sequence < o.sequence and e.status in (${sql.join(UNSETTLED_STATES)})
      order by e.sequence limit 1
    ) b
    where o.id in (${sql.join(obligationIds)}) and o.status = 'pending' and o.bet_id is not null`.execute(q);
  return new Map(rows.map((row) => [row.id, row.blocker]));
}

/**
 * What counts as applied in [from, to) for one tenant, by the time it counted (the wallet confirmed it, or an
 * operator resolved it): the reconciliation statement's movements, in time order then txId.
 */
export function appliedBetween(q: Queryable, tenantId: string, from: Date, to: Date) {
  return q
    .selectFrom('wallet_obligations')
    .select(['tx_id', 'bet_id', 'kind', 'endpoint', 'amount', 'written_off', 'body', 'status', 'resolved_at'])
    .where('tenant_id', '=', tenantId)
    .where('status', 'in', ['applied', 'resolved'])
    .where('resolved_at', '>=', from)
    .where('resolved_at', '<', to)
    .orderBy('resolved_at')
    .orderBy('tx_id')
    .execute();
}
