import { formatMilli } from '../catalog/odds.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Db } from '../platform/db/database.ts';
import type { TenantService } from '../tenants/service.ts';
import type { EventRiskView } from './schemas.ts';
import * as riskStore from './store/risk.ts';

/** The largest open bets shown. */
const LARGEST = 10;

/**
 * The trader's risk view of an event: per market, per selection, the open bets on it, their stakes and what the
 * book would pay if it won, and so the book's result on each outcome (the market's stakes less that payout); the
 * largest open bets; and the liability limits in use per tenant. Amounts are never added across currencies. An
 * accumulator counts its whole stake and payout on its leg here (as the exposure limits do): the worst case, since
 * its other legs may lose.
 */
export class EventRisk {
  readonly #deps: { db: Db; catalog: CatalogService; tenants: TenantService };

  constructor(deps: { db: Db; catalog: CatalogService; tenants: TenantService }) {
    this.#deps = deps;
  }

  async view(eventId: string): Promise<EventRiskView> {
    const { event, markets } = await this.#deps.catalog.eventMarkets(eventId);
    const selectionIds = markets.flatMap(({ selections }) => selections.map((selection) => selection.id));
    const [stakes, largest, reserved] = await Promise.all([
      riskStore.openStakesOnEvent(this.#deps.db, eventId),
      riskStore.largestOpenBets(this.#deps.db, eventId, LARGEST),
      riskStore.reservedOnEvent(this.#deps.db, eventId, selectionIds),
    ]);
    const currencies = [...new Set(stakes.map((row) => row.currency))].sort();
    return {
      event: { id: event.id, name: `${event.home} vs ${event.away}`, status: event.status },
      currencies: currencies.map((currency) => {
        const mine = stakes.filter((row) => row.currency === currency);
        const of = (selectionId: string) => mine.find((row) => row.selection_id === selectionId);
        return {
          currency,
          stakes: sum(mine.map((row) => row.stakes)),
          markets: markets
            .filter(({ market }) => mine.some((row) => row.market_id === market.id))
            .map(({ market, selections }) => {
              const marketStakes = sum(mine.filter((row) => row.market_id === market.id).map((row) => row.stakes));
              return {
                marketId: market.id,
                name: market.name,
                status: market.status,
                stakes: marketStakes,
                selections: selections.map((selection) => {
                  const row = of(selection.id);
                  const payouts = row?.payouts ?? 0;
                  return {
                    selectionId: selection.id,
                    name: selection.name,
                    odds: formatMilli(selection.odds_milli),
                    bets: row?.bets ?? 0,
                    stakes: row?.stakes ?? 0,
                    payouts,
                    bookResult: marketStakes - payouts,
                  };
                }),
              };
            }),
        };
      }),
      largestBets: largest.map((bet) => ({
        betId: bet.id,
        tenantId: bet.tenant_id,
        playerId: bet.player_id,
        currency: bet.currency,
        selectionId: bet.selection_id,
        stake: bet.stake,
        potentialPayout: bet.payout,
        legs: bet.legs ?? 1,
        placedAt: bet.placed_at.toISOString(),
      })),
      limits: await this.#limits(eventId, reserved),
    };
  }

  /** Per tenant with liability on the event: what is reserved on it and on its busiest selection, against the caps. */
  async #limits(eventId: string, reserved: Awaited<ReturnType<typeof riskStore.reservedOnEvent>>) {
    const tenantIds = [...new Set(reserved.map((row) => row.tenant_id))].sort();
    return Promise.all(
      tenantIds.map(async (tenantId) => {
        const tenant = await this.#deps.tenants.current(tenantId);
        const mine = reserved.filter((row) => row.tenant_id === tenantId);
        const onEvent = mine.find((row) => row.scope === 'event' && row.ref_id === eventId)?.reserved ?? 0;
        const busiest = mine
          .filter((row) => row.scope === 'selection')
          .reduce<{ ref_id: string; reserved: number } | undefined>(
            (top, row) => (!top || row.reserved > top.reserved ? row : top),
            undefined,
          );
        return {
          tenantId,
          currency: tenant.currency,
          event: { reserved: onEvent, max: tenant.max_event_liability },
          busiestSelection: busiest
            ? { selectionId: busiest.ref_id, reserved: busiest.reserved, max: tenant.max_selection_liability }
            : null,
        };
      }),
    );
  }
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
