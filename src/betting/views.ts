import { formatMilli } from '../catalog/odds.ts';
import type { CatalogService, SelectionName } from '../catalog/service.ts';
import type { IntegrationService } from '../integration/service.ts';
import type { Db } from '../platform/db/database.ts';
import type { WalletObligation } from '../wallet/tables.ts';
import type { Bet, BetLeg, Cashout } from './tables.ts';
import { notFound, validationError } from '../platform/errors.ts';
import { tenantFilter } from '../platform/http/permissions.ts';
import { cursorAfter, keysetPage } from '../platform/http/cursor.ts';
import type { SessionPrincipal, StaffCall } from '../platform/http/principals.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import type { ObligationState } from '../wallet/states.ts';
import { bettingErrors } from './errors.ts';
import { storedRefusal } from './refusals.ts';
import {
  MY_BETS_PAGE,
  STAFF_BETS_PAGE,
  type BetView,
  type ListBetsQuery,
  type MOVEMENT_STATUSES,
  type StaffBetsQuery,
} from './schemas.ts';
import { BET_STATES, CLOSED_STATES, OPEN_STATES, type BetState } from './states.ts';
import * as betStore from './store/bets.ts';
import * as cashoutStore from './store/cashouts.ts';
import * as legStore from './store/legs.ts';
import type { ListOrder } from '../platform/db/paging.ts';

type BetViewsDeps = { db: Db; catalog: CatalogService; integration: IntegrationService; ledger: Ledger };

/** Bets as players (My Bets) and staff (the look-up, with each bet's wallet postings) see them. */
export class BetViews {
  readonly #deps: BetViewsDeps;

  constructor(deps: BetViewsDeps) {
    this.#deps = deps;
  }

  async view(betId: string): Promise<BetView> {
    const bet = await betStore.findBet(this.#deps.db, betId);
    if (!bet) throw notFound('Bet');
    return (await this.#views([bet]))[0]!;
  }

  /** A casino's server reading one of its own bets (the sandbox outcome controls); another tenant's is not found. */
  async tenantBet(tenantId: string, betId: string): Promise<BetView> {
    const bet = await betStore.findBet(this.#deps.db, betId);
    if (!bet || bet.tenant_id !== tenantId) throw notFound('Bet');
    return (await this.#views([bet]))[0]!;
  }

  async playerBet(player: SessionPrincipal, betId: string): Promise<BetView> {
    const bet = await betStore.findBet(this.#deps.db, betId);
    if (!bet || bet.player_id !== player.playerId) throw notFound('Bet');
    return (await this.#views([bet]))[0]!;
  }

  /** Open bets await their result; settled ones have it (or were cashed out). Newest first. */
  async myBets(player: SessionPrincipal, query: ListBetsQuery): Promise<{ bets: BetView[]; nextCursor: string }> {
    const statuses: BetState[] = (query.status ?? 'open') === 'open' ? [...OPEN_STATES] : [...CLOSED_STATES];
    const { page, nextCursor } = await this.#page(player.playerId, statuses, query.limit ?? MY_BETS_PAGE, query.cursor);
    return { bets: await this.#views(page), nextCursor };
  }

  /**
   * Staff look-up, with each bet's wallet postings: every bet of a player named by our id or the casino's (within a
   * tenant), or one bet. Operators see their own tenant only: anything of another tenant is answered as unknown.
   */
  async playerBetsForStaff(call: Pick<StaffCall, 'staff'>, query: StaffBetsQuery) {
    const named = [query.player, query.externalPlayerId, query.betId].filter((value) => value !== undefined);
    if (named.length !== 1) {
      throw validationError(
        'player',
        'Name exactly one of player (our player id), externalPlayerId (the casino’s) and betId.',
      );
    }
    const tenantId = tenantFilter(call.staff, query.tenantId) ?? undefined;
    const { page, nextCursor } = query.betId
      ? { page: [await this.#visibleBet(tenantId, query.betId)], nextCursor: '' }
      : await this.#page(
          (await this.#player(call, tenantId, query)).id,
          [...BET_STATES],
          query.limit ?? STAFF_BETS_PAGE,
          query.cursor,
          query.order,
        );
    const postings = await this.#deps.ledger.postingsOfBets(
      this.#deps.db,
      page.map((bet) => bet.id),
    );
    const playerOf = new Map(page.map((bet) => [bet.id, bet.player_id]));
    const externalIds = await this.#deps.integration.externalIdsOf([...playerOf.values()]);
    const bets = (await this.#views(page, postings)).map((view) => ({
      ...view,
      playerId: playerOf.get(view.id)!,
      externalPlayerId: externalIds.get(playerOf.get(view.id)!)!,
      money: postings.filter((row) => row.bet_id === view.id).map(postingView),
    }));
    return { bets, nextCursor };
  }

  /** The player a staff look-up names, by our id or by the casino's within the tenant. */
  async #player(call: Pick<StaffCall, 'staff'>, tenantId: string | undefined, query: StaffBetsQuery) {
    if (query.player !== undefined) {
      const player = await this.#deps.integration.visiblePlayer(call, query.player);
      if (tenantId !== undefined && player.tenant_id !== tenantId) throw notFound('Player');
      return player;
    }
    if (tenantId === undefined) {
      throw validationError('tenantId', 'The casino’s player ids are per tenant: name the tenant with tenantId.');
    }
    return this.#deps.integration.visiblePlayerByExternalId(call, tenantId, query.externalPlayerId!);
  }

  async #visibleBet(tenantId: string | undefined, betId: string): Promise<Bet> {
    const bet = await betStore.findBet(this.#deps.db, betId);
    if (!bet || (tenantId !== undefined && bet.tenant_id !== tenantId)) throw notFound('Bet');
    return bet;
  }

  async #page(playerId: string, statuses: BetState[], limit: number, cursor: string | undefined, order?: ListOrder) {
    const after = cursorAfter(cursor);
    const rows =
      statuses.length === 0
        ? []
        : await betStore.betsOfPlayer(this.#deps.db, playerId, { statuses, limit, after, order });
    return keysetPage(rows, limit, (row) => ({ at: row.placed_at, id: row.id }));
  }

  async #views(bets: Bet[], known?: WalletObligation[]): Promise<BetView[]> {
    const ids = bets.map((bet) => bet.id);
    const legs = await legStore.legsOfBets(this.#deps.db, ids);
    const cashouts = await cashoutStore.cashoutsOfBets(this.#deps.db, ids);
    const postings = known ?? (await this.#deps.ledger.postingsOfBets(this.#deps.db, ids));
    const names = await this.#deps.catalog.selectionNames([...new Set(legs.map((leg) => leg.selection_id))]);
    return bets.map((bet) => betView(bet, { legs, cashouts, postings, names }));
  }
}

/**
 * A bet as the player sees it, from its rows (theirs among `related`, which may hold other bets' rows too). The
 * placement builds its answer from the rows it has just written, the same way as a read later.
 */
export function betView(
  bet: Bet,
  related: { legs: BetLeg[]; cashouts: Cashout[]; postings: WalletObligation[]; names: SelectionName[] },
): BetView {
  const names = new Map(related.names.map((row) => [row.selection_id, row]));
  const { legs, cashouts, postings } = related;
  const refusal = bet.refusal ? storedRefusal(bet) : null;
  return {
    id: bet.id,
    requestId: bet.request_id,
    status: bet.status,
    refusal: refusal ? { code: refusal.code, message: bettingErrors[refusal.code].message } : null,
    stake: bet.stake,
    remainingStake: bet.stake - bet.cashed_out_stake,
    currency: bet.currency,
    odds: formatMilli(bet.odds_milli),
    potentialPayout: bet.potential_payout,
    settledReturn: bet.settled_return,
    placedAt: bet.placed_at.toISOString(),
    decidedAt: bet.decided_at?.toISOString() ?? null,
    settledAt: bet.settled_at?.toISOString() ?? null,
    legs: legs
      .filter((leg) => leg.bet_id === bet.id)
      .map((leg) => {
        const name = names.get(leg.selection_id)!;
        return {
          selectionId: leg.selection_id,
          selectionName: name.selection_name,
          marketId: leg.market_id,
          marketName: name.market_name,
          eventId: leg.event_id,
          eventName: `${name.home} vs ${name.away}`,
          eventStartsAt: name.starts_at.toISOString(),
          odds: formatMilli(leg.odds_milli),
          result: leg.result,
        };
      }),
    cashOuts: cashouts
      .filter((cashout) => cashout.bet_id === bet.id)
      .map((cashout) => ({ stake: cashout.stake, amount: cashout.amount, at: cashout.created_at.toISOString() })),
    movements: postings.filter((row) => row.bet_id === bet.id).map(movementView),
  };
}

/**
 * Applied or done by an operator: it happened. Sending, owed or held: still owed (but an obsolete hold, see below).
 * Anything else: it did not.
 */
const PLAYER_STATUS: Record<ObligationState, MovementStatus> = {
  applied: 'applied',
  resolved: 'applied',
  sending: 'owed',
  pending: 'owed',
  held: 'owed',
  refused: 'not_applied',
  unknown: 'not_applied',
  cancelled: 'not_applied',
};

/**
 * Superseded by a later resettlement while still unresolved: the correction that replaced it is what the player is
 * owed, and an operator decides whether this one happened (the wallet may have applied it).
 */
const OBSOLETE = new Set<string | null>(['obsolete_credit_requires_review', 'obsolete_debit_requires_review']);

function movementView(row: WalletObligation) {
  return {
    txId: row.tx_id,
    kind: row.kind,
    direction: row.endpoint === 'debit' ? ('debit' as const) : ('credit' as const),
    amount: row.amount,
    status: row.status === 'held' && OBSOLETE.has(row.hold_reason) ? 'in_review' : PLAYER_STATUS[row.status],
    at: row.created_at.toISOString(),
  };
}

type MovementStatus = (typeof MOVEMENT_STATUSES)[number];

function postingView(row: WalletObligation) {
  return {
    txId: row.tx_id,
    endpoint: row.endpoint,
    kind: row.kind,
    amount: row.amount,
    status: row.status,
    holdReason: row.hold_reason,
    attempts: row.attempts,
    lastOutcome: row.last_outcome,
    operatorCode: row.operator_code,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
  };
}
