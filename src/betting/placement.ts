import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { combinedOddsMilli, parseMilli } from '../catalog/odds.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { Clock } from '../platform/clock.ts';
import { canonicalJson, sha256Hex } from '../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { IncompleteStatementError, writeTogether } from '../platform/db/one-statement.ts';
import type { Tenant } from '../tenants/tables.ts';
import type { WalletObligation } from '../wallet/tables.ts';
import type { Bet, BetLeg } from './tables.ts';
import { AppError } from '../platform/errors.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import type { WalletAttempt } from '../wallet/delivery/client.ts';
import type { DeliveryEngine } from '../wallet/delivery/engine.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import { bettingErrors } from './errors.ts';
import { reserveExposure } from './exposure.ts';
import type { BettingMetrics } from './metrics.ts';
import { storedRefusal, toError } from './refusals.ts';
import { checkSlipShape, checkStake, payoutWithinMaximum, priceLegs } from './slip-rules.ts';
import type { BetView, PlaceBetBody } from './schemas.ts';
import type { BetRef, StakeDecisions } from './stake-decision.ts';
import * as betStore from './store/bets.ts';
import * as legStore from './store/legs.ts';
import { betView, type BetViews } from './views.ts';

const newBetId = () => `bt_${randomBytes(8).toString('hex')}`;
/** How long a repeated request waits for the first one to decide before answering "in progress". */
const REPEAT_WAIT_MS = 8_000;

/** A bet placed now, with the balance after its stake, or the bet a repeated request already placed. */
type Placed =
  { bet: BetView; balance: { balance: number; currency: string }; replayed: false } | { bet: BetView; replayed: true };

type PlacementDeps = {
  db: Db;
  clock: Clock;
  tenants: TenantService;
  catalog: CatalogService;
  ledger: Ledger;
  delivery: DeliveryEngine;
  decisions: StakeDecisions;
  views: BetViews;
  log: FastifyBaseLogger;
  metrics: BettingMetrics;
};

/**
 * Bet placement up to an accepted or refused bet, with exactly one stake debit.
 *
 * 1. One transaction checks the slip, then one statement in it reserves exposure and records the pending bet and
 *    its stake-debit obligation (row first, call second).
 * 2. Outside any transaction the debit is sent once.
 * 3. One statement records an acceptance, one transaction a refusal (stake-decision.ts). If anything fails after
 *    step 1, the player is told what the bet's stored state says, never a guess.
 */
export class Placement {
  readonly #deps: PlacementDeps;

  constructor(deps: PlacementDeps) {
    this.#deps = deps;
  }

  placeBet(player: SessionPrincipal, body: PlaceBetBody): Promise<Placed> {
    return this.#deps.metrics.placements.time(() => this.#place(player, body));
  }

  async #place(player: SessionPrincipal, body: PlaceBetBody): Promise<Placed> {
    checkSlipShape(body);
    // Odds are compared as numbers, so "2.1" and "2.10" are the same slip. Which odds changes it accepts is not part
    // of the slip: a repeat of a placed bet is that bet, and nothing of a refused one was kept.
    const slip = {
      stake: body.stake,
      legs: body.legs.map((leg) => ({ selectionId: leg.selectionId, odds: parseMilli(leg.odds) })),
    };
    const requestHash = sha256Hex(canonicalJson(slip));
    const heldSince = await this.#waitInPlayDelay(player, body);
    const placed = await this.#recordPendingBet(player, body, requestHash, heldSince);
    if (placed.kind === 'repeat') {
      return { bet: await this.#settledRepeat(player, body.requestId, requestHash), replayed: true };
    }
    let attempt: WalletAttempt | undefined;
    try {
      attempt = await this.#deps.delivery.attempt(placed.stake);
      const outcome = await this.#deps.decisions.decide(placed.bet, placed.stake, attempt);
      if (outcome.refusal) throw toError(outcome.refusal);
      // Built from the rows as written, as a read would show them: nothing is read again.
      const accepted = { ...placed.bet, status: 'accepted' as const, decided_at: outcome.decidedAt };
      const postings = [outcome.stake];
      const bet = betView(accepted, { legs: placed.legs, cashouts: [], postings, names: placed.names });
      return { bet, balance: outcome.balance, replayed: false };
    } catch (error) {
      if (isAnswer(error)) throw error;
      if (error instanceof IncompleteStatementError) {
        this.#deps.log.warn(
          { betId: placed.bet.id },
          'the bet was decided elsewhere while its stake debit was in flight',
        );
      } else {
        this.#deps.log.error(
          { err: error, betId: placed.bet.id },
          'placement interrupted after the stake was recorded',
        );
      }
      if (attempt) await this.#recordAttemptAlone(placed.bet, placed.stake, attempt);
      return this.#answerFromState(placed.bet, placed.stake, attempt);
    }
  }

  /**
   * The debit's attempt, when its outcome was not recorded with the bet's decision: with the stake, if another
   * writer decided the bet and left the stake behind; otherwise only its log line (the bet still pending is decided
   * next, or the outcome was recorded and its acknowledgement lost).
   */
  async #recordAttemptAlone(bet: BetRef, stake: WalletObligation, attempt: WalletAttempt): Promise<void> {
    try {
      if (await this.#deps.decisions.settleLeftStake(bet, stake, attempt)) return;
    } catch (error) {
      this.#deps.log.error({ err: error, betId: bet.id }, "the stake debit's outcome could not be recorded on its own");
    }
    await this.#deps.delivery.logAttempt(stake, attempt);
  }

  /**
   * After a failure past the commit (a lost database, a lost commit acknowledgement, another writer deciding
   * first), the bet's stored state is the truth: accepted is answered as accepted, refused as refused. A bet still
   * pending has an unknowable stake: refused and rolled back. If not even that can be recorded, the player is told
   * the outcome is not known yet; the same request id asks again, and the running service resolves the bet.
   */
  async #answerFromState(bet: BetRef, stake: WalletObligation, attempt: WalletAttempt | undefined): Promise<Placed> {
    try {
      const current = await betStore.findBet(this.#deps.db, bet.id);
      if (current?.status === 'pending' && (await this.#deps.decisions.treatAsUnknown(bet, 'internal_error'))) {
        throw toError({ code: 'wallet_unavailable' });
      }
      const decided = await betStore.findBet(this.#deps.db, bet.id);
      if (decided?.status === 'refused') throw toError(storedRefusal(decided));
      if (decided?.status === 'accepted' && attempt?.outcome === 'applied') {
        const balance = { balance: attempt.balance, currency: attempt.currency };
        return { bet: await this.#deps.views.view(bet.id), balance, replayed: false };
      }
    } catch (error) {
      if (isAnswer(error)) throw error;
      this.#deps.log.error({ err: error, betId: bet.id, stake: stake.tx_id }, "the bet's outcome cannot be read yet");
    }
    throw bettingErrors.bet_in_progress(
      undefined,
      'The outcome of this bet is not known yet; send the same request again shortly.',
    );
  }

  /**
   * In-play bets wait (docs/betting.md): a slip with a leg on a live event is checked now (refused at once when a
   * price or market is off already), then held for the longest delay of its legs' sports before anything is
   * recorded: no bet, no stake obligation, no debit. Answers when the wait began (undefined when there was none),
   * so the recording can refuse a slip whose market changed status meanwhile. A repeated request id does not wait.
   */
  async #waitInPlayDelay(player: SessionPrincipal, body: PlaceBetBody): Promise<Date | undefined> {
    const delay = await this.#deps.catalog.liveDelay(body.legs.map((leg) => leg.selectionId));
    if (delay === 0 || (await betStore.findBetByRequest(this.#deps.db, player.playerId, body.requestId))) {
      return undefined;
    }
    const since = this.#deps.clock.now();
    await inTransaction(this.#deps.db, (tx) => this.#pricedLegs(tx, body));
    // real time, whatever the business clock says: the delay is for the match's own events to reach the prices
    await sleep(delay * 1000);
    return since;
  }

  async #recordPendingBet(
    player: SessionPrincipal,
    body: PlaceBetBody,
    requestHash: string,
    heldSince: Date | undefined,
  ) {
    // The wallet identity locks before the first stake is even recorded: the stake goes to the locked identity.
    const tenant = await this.#deps.tenants.forMoneyMovement(player.tenantId);
    try {
      return await this.#recordIn(tenant, player, body, requestHash, heldSince);
    } catch (error) {
      // A repeated request id is told the first request's result, not a refusal of the slip as it stands now.
      if (isAnswer(error) && (await betStore.findBetByRequest(this.#deps.db, player.playerId, body.requestId))) {
        return { kind: 'repeat' as const };
      }
      throw error;
    }
  }

  /** The transaction of step 1. A repeated request id is found by the bet's unique key, or after a refusal. */
  #recordIn(
    tenant: Tenant,
    player: SessionPrincipal,
    body: PlaceBetBody,
    requestHash: string,
    heldSince: Date | undefined,
  ) {
    return inTransaction(this.#deps.db, async (tx) => {
      const legs = await this.#pricedLegs(tx, body);
      if (heldSince) await this.#unchangedSince(tx, legs, heldSince);
      checkStake(tenant, body.stake, player.stakeFactorBp);
      const payout = payoutWithinMaximum(tenant, body.stake, legs);
      const pending = {
        id: newBetId(),
        tenant_id: tenant.id,
        player_id: player.playerId,
        request_id: body.requestId,
        request_hash: requestHash,
        status: 'pending' as const,
        refusal: null,
        stake: body.stake,
        currency: tenant.currency,
        odds_milli: combinedOddsMilli(legs.map((leg) => leg.odds_milli)),
        potential_payout: payout,
        placed_at: this.#deps.clock.now(),
        decided_at: null,
      };
      const bet: Bet = {
        ...pending,
        cashed_out_stake: 0,
        settled_version: 0,
        settled_return: null,
        settled_at: null,
        outcome_override_at: null,
      };
      const betLegs: BetLeg[] = legs.map((leg, position) => ({
        bet_id: bet.id,
        position,
        selection_id: leg.id,
        market_id: leg.market_id,
        event_id: leg.event_id,
        odds_milli: leg.odds_milli,
        odds_version: leg.odds_version,
        result: null,
      }));
      const stake = this.#deps.ledger.oweStake(
        'stake',
        {
          tenantId: tenant.id,
          betId: bet.id,
          walletUrl: tenant.wallet_url,
          currency: tenant.currency,
          playerId: player.playerId,
          externalPlayerId: player.externalPlayerId,
          amount: body.stake,
        },
        'bet',
      );
      const exposure = reserveExposure(tenant, { id: bet.id, liability: payout - body.stake }, legs, 'bet');
      // One statement writes the bet, its legs, its stake obligation and its exposure. The exposure parts come
      // last: those rows are what concurrent bets on the same selection or event queue on.
      const written = await writeTogether(tx, [
        betStore.insertBetPart('bet', bet),
        legStore.insertLegsPart('legs', betLegs, 'bet'),
        stake.part,
        ...exposure.parts,
      ]);
      // A concurrent twin with the same request id, or an earlier request, holds the request id: nothing written.
      if (written.bet!.length === 0) return { kind: 'repeat' as const };
      // Row first, call second: the debit goes out only for a stake obligation this statement wrote.
      if (written.stake!.length !== 1) throw new Error(`bet ${bet.id}: its stake obligation was not written`);
      exposure.check(written);
      const names = legs.map((leg) => ({ ...leg, selection_id: leg.id }));
      return { kind: 'placed' as const, bet, legs: betLegs, names, stake: stake.obligation };
    });
  }

  /** A market of the slip suspended during its in-play delay refuses it, even if it is open again now. */
  async #unchangedSince(
    tx: Tx,
    legs: Array<{ id: string; market_id: string; market_status: string; event_status: string }>,
    since: Date,
  ): Promise<void> {
    const changed = await this.#deps.catalog.marketsChangedSince(
      tx,
      legs.map((leg) => leg.market_id),
      since,
    );
    const leg = legs.find((one) => changed.includes(one.market_id));
    if (!leg) return;
    throw bettingErrors.market_unavailable(
      { selectionId: leg.id, marketStatus: leg.market_status, eventStatus: leg.event_status, duringDelay: true },
      'A market of the slip was suspended while the bet waited its in-play delay; place it again.',
    );
  }

  async #pricedLegs(tx: Tx, body: PlaceBetBody) {
    const rows = await this.#deps.catalog.selectionsForBet(
      tx,
      body.legs.map((leg) => leg.selectionId),
    );
    return priceLegs(body, rows, this.#deps.clock.now());
  }

  /**
   * A repeated request id: the same slip gets the first request's result, the bet as it is now (accepted, settled,
   * cashed out, void: whatever happened since); another slip is a client bug. Only a bet still waiting for its
   * stake's answer is waited for, and answered "in progress" if it still waits.
   */
  async #settledRepeat(player: SessionPrincipal, requestId: string, requestHash: string): Promise<BetView> {
    // Waiting is real time, not the business clock: a monotonic deadline.
    const deadline = performance.now() + REPEAT_WAIT_MS;
    for (;;) {
      const bet = await betStore.findBetByRequest(this.#deps.db, player.playerId, requestId);
      if (!bet) throw bettingErrors.bet_in_progress();
      if (bet.request_hash !== requestHash) throw bettingErrors.request_id_reused();
      if (bet.status === 'refused') throw toError(storedRefusal(bet));
      if (bet.status !== 'pending') return this.#deps.views.view(bet.id);
      if (performance.now() > deadline) throw bettingErrors.bet_in_progress();
      await sleep(100);
    }
  }
}

/** An answer for the player (a catalogued refusal), as opposed to a failure to recover from. */
function isAnswer(error: unknown): boolean {
  return error instanceof AppError;
}
