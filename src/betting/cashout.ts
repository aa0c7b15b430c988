import { randomBytes } from 'node:crypto';
import { cashOutValue, potentialPayout, type CashOutLeg } from '../catalog/odds.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Queryable } from '../platform/db/database.ts';
import type { Bet, BetLeg } from './tables.ts';
import { notFound, validationError } from '../platform/errors.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import type { DeliveryEngine } from '../wallet/delivery/engine.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import type { LockedBet } from '../wallet/ledger/locks.ts';
import { bettingErrors } from './errors.ts';
import { releaseExposure } from './exposure.ts';
import type { BettingMetrics } from './metrics.ts';
import type { BetView, CashOutBody } from './schemas.ts';
import { moveBet } from './moves.ts';
import { isOpen } from './states.ts';
import * as betStore from './store/bets.ts';
import * as cashoutStore from './store/cashouts.ts';
import * as legStore from './store/legs.ts';
import type { BetViews } from './views.ts';

/** The book's margin on a cash-out, in basis points of its fair value (5%). */
const CASHOUT_MARGIN_BASIS_POINTS = 500;

const newCashoutId = () => `co_${randomBytes(8).toString('hex')}`;

export interface Offer {
  amount: number;
  currency: string;
  stake: number;
}

type CashOutDeps = {
  db: Db;
  clock: Clock;
  catalog: CatalogService;
  ledger: Ledger;
  delivery: DeliveryEngine;
  views: BetViews;
  metrics: BettingMetrics;
};

/**
 * Cash-out: the player is offered what the standing stake is worth at current odds, less the margin
 * (catalog/odds.ts, cashOutValue), and may take it for all of the stake or a part. Accepting re-prices inside the
 * transaction, with the bet's selections and the bet itself locked: the player gets exactly the amount accepted,
 * or a 409 with the new offer. A full cash-out closes the bet (`cashout:<betId>`); a partial one
 * (`cashout:<betId>:p<n>`) leaves the rest standing, to be settled later. Either is guaranteed once confirmed: a
 * resettlement never takes it back.
 */
export class CashOut {
  readonly #deps: CashOutDeps;

  constructor(deps: CashOutDeps) {
    this.#deps = deps;
  }

  async offer(player: SessionPrincipal, betId: string, stake?: number): Promise<Offer> {
    const bet = await betStore.findBet(this.#deps.db, betId);
    if (!bet || bet.player_id !== player.playerId) throw notFound('Bet');
    const legs = await legStore.legsOfBets(this.#deps.db, [betId]);
    const paid = (await this.#deps.ledger.settledSums(this.#deps.db, [betId])).get(betId) ?? 0;
    return priceOf(bet, legs, await this.#prices(this.#deps.db, legs, false), paid, stake);
  }

  accept(player: SessionPrincipal, betId: string, body: CashOutBody): Promise<{ bet: BetView }> {
    return this.#deps.metrics.cashOuts.time(() => this.#accept(player, betId, body));
  }

  async #accept(player: SessionPrincipal, betId: string, body: CashOutBody): Promise<{ bet: BetView }> {
    const legs = await legStore.legsOfBets(this.#deps.db, [betId]);
    const cashedOut = await inTransaction(this.#deps.db, async (tx) => {
      // The selections first (as a settlement takes them), then the bet and its obligations (the lock order): the
      // price, the bet and what it was paid hold still.
      const prices = await this.#prices(tx, legs, true);
      const locked = (await this.#deps.ledger.lockBets(tx, [betId])).get(betId);
      const bet = locked && (await betStore.findBet(tx, betId));
      if (!locked || !bet || bet.player_id !== player.playerId) throw notFound('Bet');
      const earlier = (await cashoutStore.cashoutsOfBets(tx, [betId])).find((row) => row.request_id === body.requestId);
      if (earlier) {
        const same = earlier.amount === body.amount && (body.stake === undefined || earlier.stake === body.stake);
        if (!same) throw bettingErrors.request_id_reused();
        return false;
      }
      // what was paid, as the bet's next settlement would count it (the offer's read, settledSums, counts the same)
      const offer = priceOf(bet, legs, prices, locked.settledFor(bet.settled_version + 1), body.stake);
      if (offer.amount !== body.amount) throw bettingErrors.cashout_offer_changed({ offer });
      await this.#record(locked, bet, legs, offer, body.requestId);
      return true;
    });
    if (cashedOut) this.#deps.delivery.wake();
    return { bet: await this.#deps.views.view(betId) };
  }

  async #prices(q: Queryable, legs: BetLeg[], lock: boolean): Promise<Prices> {
    const rows = await this.#deps.catalog.pricesOf(
      q,
      legs.map((leg) => leg.selection_id),
      { lock },
    );
    return new Map(rows.map((row) => [row.id, row]));
  }

  async #record(locked: LockedBet, bet: Bet, legs: BetLeg[], offer: Offer, requestId: string): Promise<void> {
    const tx = locked.tx;
    const now = this.#deps.clock.now();
    const standing = bet.stake - bet.cashed_out_stake;
    const closes = offer.stake === standing;
    const number = (await cashoutStore.cashoutsOfBets(tx, [bet.id])).length + 1;
    await cashoutStore.insertCashout(tx, {
      id: newCashoutId(),
      bet_id: bet.id,
      request_id: requestId,
      number,
      stake: offer.stake,
      amount: offer.amount,
      closes_bet: closes,
      created_at: now,
    });
    const remaining = standing - offer.stake;
    await moveBet(tx, bet, closes ? 'cashed_out' : 'partially_cashed_out', {
      cashed_out_stake: bet.cashed_out_stake + offer.stake,
      potential_payout: Number(
        potentialPayout(
          remaining,
          legs.map((leg) => leg.odds_milli),
        ),
      ),
    });
    if (closes) await releaseExposure(tx, [bet], now);
    await this.#deps.ledger.oweOnBets([
      {
        bet: locked,
        movement: {
          kind: 'cashout',
          endpoint: 'credit',
          txId: closes ? `cashout:${bet.id}` : `cashout:${bet.id}:p${number}`,
          amount: offer.amount,
        },
      },
    ]);
  }
}

type Prices = Map<string, Awaited<ReturnType<CatalogService['pricesOf']>>[number]>;

/**
 * The offer for `stake` (all of the standing stake if omitted), or why there is none. `paid` is what the bet's
 * settlement postings that count add up to: not zero on an open bet only when a sandbox control reopened a settled
 * one, whose payout still counts until it is settled again. A cash-out then would pay the standing stake a second
 * time, and nothing would ever correct it (a cash-out is final): there is no offer until the bet is settled again.
 */
function priceOf(bet: Bet, legs: BetLeg[], prices: Prices, paid: number, stake: number | undefined): Offer {
  if (!isOpen(bet.status)) throw bettingErrors.cashout_unavailable({ reason: 'bet_not_open', status: bet.status });
  if (paid !== 0) throw bettingErrors.cashout_unavailable({ reason: 'settlement_counts', paid });
  const standing = bet.stake - bet.cashed_out_stake;
  const part = stake ?? standing;
  if (part > standing) throw validationError('stake', `At most the remaining stake, ${standing}.`);
  // A bet whose outcome is its own (a sandbox control) is valued on its legs' own results, never on the market's.
  const own = bet.outcome_override_at !== null;
  const priced: CashOutLeg[] = legs.map((leg) => {
    const price = prices.get(leg.selection_id)!;
    if (own && leg.result) return { oddsMilli: leg.odds_milli, result: leg.result };
    if (!own && price.market_status === 'settled' && price.result) {
      return { oddsMilli: leg.odds_milli, result: price.result };
    }
    // A finished event's result is known before its market is settled: no price may be offered on it.
    if (price.event_status === 'finished' || price.event_status === 'cancelled') {
      throw bettingErrors.cashout_unavailable({
        reason: 'event_over',
        eventId: price.event_id,
        eventStatus: price.event_status,
      });
    }
    if (price.market_status !== 'open') {
      throw bettingErrors.cashout_unavailable({
        reason: 'market_suspended',
        marketId: price.market_id,
        marketStatus: price.market_status,
      });
    }
    return { oddsMilli: leg.odds_milli, currentOddsMilli: price.odds_milli };
  });
  const amount = cashOutValue(part, priced, CASHOUT_MARGIN_BASIS_POINTS);
  if (amount <= 0) throw bettingErrors.cashout_unavailable({ reason: 'no_value' });
  return { amount, currency: bet.currency, stake: part };
}
