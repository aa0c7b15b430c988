import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import { combinedOddsMilli, formatMilli, parseMilli, potentialPayout } from '../catalog/odds.ts';
import type { Clock } from '../platform/clock.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import type { Bet, Tenant, WalletObligation } from '../platform/db/schema.ts';
import { AppError, forbidden, notFound, validationError } from '../platform/errors.ts';
import type { StaffPrincipal } from '../staff/service.ts';
import { canonicalJson } from '../platform/idempotency.ts';
import type { SessionPrincipal } from '../integration/service.ts';
import type { TenantService } from '../tenants/service.ts';
import type { WalletAttempt } from '../wallet/client.ts';
import type { DeliveryEngine } from '../wallet/delivery.ts';
import { movementBody } from '../wallet/movement.ts';
import * as walletStore from '../wallet/store.ts';
import type { BetView, ListBetsQuery, PlaceBetBody, StaffBetsQuery } from './schemas.ts';
import * as store from './store.ts';

const newBetId = () => `bt_${randomBytes(8).toString('hex')}`;
const newObligationId = () => `ob_${randomBytes(8).toString('hex')}`;
/** How long a repeated request waits for the first one to decide before answering "in progress". */
const REPEAT_WAIT_MS = 8_000;

interface Refusal {
  status: number;
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

interface Decision {
  refusal?: Refusal;
  balance?: { balance: number; currency: string };
}

const toError = (refusal: Refusal) => new AppError(refusal.code, refusal.status, refusal.message, refusal.details);

/**
 * Bet placement up to an accepted or refused bet, with exactly one stake debit.
 *
 * 1. One transaction checks the slip, reserves exposure, and records the pending bet and its stake-debit
 *    obligation (row first, call second).
 * 2. Outside any transaction the debit is sent once.
 * 3. One transaction records the outcome: applied -> accepted; refused -> refused and exposure released;
 *    unknown -> refused, exposure released and a rollback obligation recorded, then delivered by the engine.
 */
export class BettingService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #tenants: TenantService;
  readonly #delivery: DeliveryEngine;
  readonly #log: FastifyBaseLogger;

  constructor(deps: { db: Db; clock: Clock; tenants: TenantService; delivery: DeliveryEngine; log: FastifyBaseLogger }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#tenants = deps.tenants;
    this.#delivery = deps.delivery;
    this.#log = deps.log;
  }

  async placeBet(player: SessionPrincipal, body: PlaceBetBody): Promise<{ bet: BetView; balance?: { balance: number; currency: string }; replayed: boolean }> {
    checkSlipShape(body);
    // Odds are compared as numbers, so "2.1" and "2.10" are the same slip.
    const slip = { stake: body.stake, legs: body.legs.map((leg) => ({ selectionId: leg.selectionId, odds: parseMilli(leg.odds) })) };
    const requestHash = sha256Hex(canonicalJson(slip));
    const placed = await this.#recordPendingBet(player, body, requestHash);
    if (placed.kind === 'repeat') return { bet: await this.#settledRepeat(player, body.requestId, requestHash), replayed: true };

    let outcome: Decision;
    try {
      outcome = await this.#decide(placed.bet, placed.stake.id, await this.#delivery.attempt(placed.stake));
    } catch (error) {
      // Whatever broke after the commit, the debit may have gone out: the bet is refused and the stake rolled back.
      this.#log.error({ err: error, betId: placed.bet.id }, 'stake debit interrupted; rolling back');
      throw toError(await this.#treatAsUnknown(placed.bet, 'internal_error'));
    }
    if (outcome.refusal) throw toError(outcome.refusal);
    return { bet: await this.view(placed.bet.id), balance: outcome.balance, replayed: false };
  }

  async #recordPendingBet(player: SessionPrincipal, body: PlaceBetBody, requestHash: string) {
    // The wallet identity locks before the first stake is even recorded, in its own statement: marking it inside
    // the placement would upgrade the shared tenant lock below, and concurrent first bets would deadlock.
    await this.#tenants.markFinancialUse(this.#db, player.tenantId);
    return inTransaction(this.#db, async (tx) => {
      // FOR SHARE: the wallet identity cannot change between this read and the first stake locking it.
      const tenant = await tx.selectFrom('tenants').selectAll().where('id', '=', player.tenantId).forShare().executeTakeFirstOrThrow();
      const { external_id: externalPlayerId } = await tx.selectFrom('players').select('external_id').where('id', '=', player.playerId).executeTakeFirstOrThrow();
      if (await store.findBetByRequest(tx, player.playerId, body.requestId)) return { kind: 'repeat' as const };

      const legs = await this.#pricedLegs(tx, body);
      checkStake(tenant, body.stake);
      const exactPayout = potentialPayout(body.stake, legs.map((leg) => leg.odds_milli));
      if (exactPayout > BigInt(tenant.max_payout)) {
        throw new AppError('payout_above_maximum', 400, 'The potential payout is above the maximum per bet; lower the stake.', { maxPayout: tenant.max_payout, potentialPayout: exactPayout.toString() });
      }
      const payout = Number(exactPayout);
      const bet = {
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
        placed_at: this.#clock.now(),
        decided_at: null,
      };
      // A concurrent twin with the same request id loses here, before anything else is written.
      if (!(await store.insertBet(tx, bet))) return { kind: 'repeat' as const };
      await store.insertLegs(tx, legs.map((leg, position) => ({
        bet_id: bet.id, position, selection_id: leg.id, market_id: leg.market_id, event_id: leg.event_id, odds_milli: leg.odds_milli, odds_version: leg.odds_version,
      })));
      await this.#reserveExposure(tx, tenant, bet.id, payout - body.stake, legs);
      const stake = await this.#recordObligation(tx, tenant.wallet_url, tenant, bet.id, 1, {
        txId: `bet:${bet.id}`, endpoint: 'debit', kind: 'bet', amount: body.stake, playerId: externalPlayerId,
      }, 'sending');
      return { kind: 'placed' as const, bet, stake };
    });
  }

  /** The odds acceptance policy: equal or better odds are accepted (at the current price), worse are refused. */
  async #pricedLegs(tx: Tx, body: PlaceBetBody) {
    const rows = await store.selectionsForBet(tx, body.legs.map((leg) => leg.selectionId));
    const changed: Array<{ selectionId: string; odds: string; oddsVersion: number }> = [];
    const legs = body.legs.map((leg, index) => {
      const row = rows.find((candidate) => candidate.id === leg.selectionId);
      if (!row) throw new AppError('selection_unavailable', 409, 'A selection of the slip no longer exists.', { selectionId: leg.selectionId, field: `legs.${index}.selectionId` });
      const started = row.event_status === 'scheduled' && row.starts_at <= this.#clock.now();
      if (row.market_status !== 'open' || !['scheduled', 'live'].includes(row.event_status) || started) {
        throw new AppError('market_unavailable', 409, 'A market of the slip is not open for bets right now.', { selectionId: leg.selectionId, marketStatus: row.market_status, eventStatus: row.event_status });
      }
      if (row.odds_milli < parseMilli(leg.odds)) changed.push({ selectionId: row.id, odds: formatMilli(row.odds_milli), oddsVersion: row.odds_version });
      return row;
    });
    if (new Set(legs.map((leg) => leg.event_id)).size !== legs.length) {
      throw validationError('legs', 'An accumulator takes at most one selection per event.');
    }
    if (changed.length > 0) throw new AppError('odds_changed', 409, 'The odds have changed; review the new odds and place again.', { legs: changed });
    return legs;
  }

  /** Liability (potential payout minus stake) is reserved on every selection and event of the bet. */
  async #reserveExposure(tx: Tx, tenant: Tenant, betId: string, liability: number, legs: Array<{ id: string; event_id: string }>) {
    // Always the same order, so two bets on the same rows never lock them in opposite orders.
    const reservations = [
      ...legs.map((leg) => ({ scope: 'selection' as const, refId: leg.id, limit: tenant.max_selection_liability })),
      ...legs.map((leg) => ({ scope: 'event' as const, refId: leg.event_id, limit: tenant.max_event_liability })),
    ].sort((a, b) => (a.scope + a.refId < b.scope + b.refId ? -1 : 1));
    for (const reservation of reservations) {
      const reserved = await store.reserveExposure(tx, { tenantId: tenant.id, ...reservation, amount: liability });
      if (!reserved) {
        throw new AppError('exposure_limit', 409, 'This bet would take the book past its limit on a selection or event; try a smaller stake.', {
          scope: reservation.scope, id: reservation.refId,
        });
      }
    }
    await store.recordBetExposure(tx, reservations.map((reservation) => ({ betId, scope: reservation.scope, refId: reservation.refId, amount: liability })));
  }

  /** The obligation row, written before any call; `walletUrl` is where it must go, now and on every retry. */
  async #recordObligation(
    tx: Tx,
    walletUrl: string,
    tenant: Tenant,
    betId: string,
    sequence: number,
    movement: { txId: string; endpoint: 'debit' | 'credit' | 'rollback'; kind: 'bet' | 'rollback'; amount: number; playerId: string; ref?: string },
    status: 'sending' | 'pending',
  ) {
    const now = this.#clock.now();
    const row = {
      id: newObligationId(),
      tenant_id: tenant.id,
      bet_id: betId,
      sequence,
      tx_id: movement.txId,
      endpoint: movement.endpoint,
      wallet_url: walletUrl,
      kind: movement.kind,
      amount: movement.amount,
      body: movementBody({ txId: movement.txId, playerId: movement.playerId, amount: movement.amount, currency: tenant.currency, kind: movement.kind, betId, ref: movement.ref }),
      status,
      attempts: 0,
      last_outcome: null,
      operator_code: null,
      next_attempt_at: now,
      created_at: now,
      resolved_at: null,
    };
    await walletStore.insertObligation(tx, row);
    return row;
  }

  /** Records what the single stake debit proved, in one transaction, and says what the player is told. */
  async #decide(bet: Pick<Bet, 'id' | 'tenant_id' | 'player_id' | 'stake'>, stakeId: string, attempt: WalletAttempt): Promise<Decision> {
    const now = this.#clock.now();
    if (attempt.outcome === 'applied') {
      await inTransaction(this.#db, async (tx) => {
        await walletStore.recordAttempt(tx, stakeId, 'sending', { status: 'applied', lastOutcome: 'applied', resolvedAt: now });
        await store.decideBet(tx, bet.id, { status: 'accepted', refusal: null, at: now });
      });
      return { balance: { balance: attempt.balance, currency: attempt.currency } };
    }
    const refusal: Refusal = attempt.outcome === 'refused'
      ? attempt.code === 'insufficient_funds'
        ? { status: 402, code: 'insufficient_funds', message: 'Not enough balance for this stake.' }
        : { status: 402, code: 'payment_rejected', message: 'The casino wallet refused the stake.', details: { operatorCode: attempt.code } }
      : { status: 503, code: 'wallet_unavailable', message: 'The casino wallet did not confirm the stake, so the bet was not placed; any amount taken is returned.', details: { reason: attempt.reason } };
    const rollbackId = await inTransaction(this.#db, async (tx) => {
      const status = attempt.outcome === 'refused' ? 'refused' : 'unknown';
      await walletStore.recordAttempt(tx, stakeId, 'sending', {
        status,
        lastOutcome: attempt.outcome === 'refused' ? 'refused' : attempt.reason,
        operatorCode: attempt.outcome === 'refused' ? attempt.code : null,
        resolvedAt: now,
      });
      return this.#refuse(tx, bet, refusal, status === 'unknown');
    });
    if (rollbackId) void this.#delivery.schedule(rollbackId);
    return { refusal };
  }

  /** Refuses the bet and releases its exposure; after an unknown stake, records the rollback that settles it. */
  async #refuse(tx: Tx, bet: Pick<Bet, 'id' | 'tenant_id' | 'player_id' | 'stake'>, refusal: Refusal, stakeUnknown: boolean): Promise<string | undefined> {
    const now = this.#clock.now();
    await store.decideBet(tx, bet.id, { status: 'refused', refusal: JSON.stringify(refusal), at: now });
    await store.releaseBetExposure(tx, bet, now);
    if (!stakeUnknown) return undefined;
    const tenant = await tx.selectFrom('tenants').selectAll().where('id', '=', bet.tenant_id).executeTakeFirstOrThrow();
    const { external_id: playerId } = await tx.selectFrom('players').select('external_id').where('id', '=', bet.player_id).executeTakeFirstOrThrow();
    // The rollback goes where the stake went.
    const [stake] = await walletStore.obligationsOfBet(tx, bet.id);
    const rollback = await this.#recordObligation(tx, stake!.wallet_url, tenant, bet.id, await walletStore.nextSequence(tx, bet.id), {
      txId: `rollback:bet:${bet.id}`, endpoint: 'rollback', kind: 'rollback', amount: bet.stake, playerId, ref: `bet:${bet.id}`,
    }, 'pending');
    return rollback.id;
  }

  /**
   * Start-up recovery: a bet still pending means the process stopped between recording the stake and learning its
   * outcome. Its debit may or may not have been applied, so it is treated as unknown: refused and rolled back.
   */
  async recoverPendingBets(): Promise<number> {
    const pending = await store.pendingBets(this.#db);
    for (const bet of pending) await this.#treatAsUnknown(bet, 'interrupted');
    return pending.length;
  }

  /** The stake's outcome cannot be known: if the bet is still pending, refuse it and roll the stake back. */
  async #treatAsUnknown(bet: Pick<Bet, 'id' | 'tenant_id' | 'player_id' | 'stake'>, reason: 'interrupted' | 'internal_error'): Promise<Refusal> {
    const refusal: Refusal = { status: 503, code: 'wallet_unavailable', message: 'The bet was interrupted before the wallet confirmed the stake; it was not placed.', details: { reason } };
    const rollbackId = await inTransaction(this.#db, async (tx) => {
      const current = await store.findBet(tx, bet.id);
      if (current?.status !== 'pending') return undefined;
      const [stake] = await walletStore.obligationsOfBet(tx, bet.id);
      if (stake) await walletStore.recordAttempt(tx, stake.id, 'sending', { status: 'unknown', lastOutcome: reason, resolvedAt: this.#clock.now() });
      return this.#refuse(tx, bet, refusal, true);
    });
    if (rollbackId) void this.#delivery.schedule(rollbackId);
    return refusal;
  }

  /** A repeated request id: the same slip gets the first request's result; another slip is a client bug. */
  async #settledRepeat(player: SessionPrincipal, requestId: string, requestHash: string): Promise<BetView> {
    const deadline = Date.now() + REPEAT_WAIT_MS;
    for (;;) {
      const bet = await store.findBetByRequest(this.#db, player.playerId, requestId);
      if (!bet) throw new AppError('bet_in_progress', 409, 'A bet with this request id is being placed; ask again shortly.');
      if (bet.request_hash !== requestHash) {
        throw new AppError('request_id_reused', 409, 'This request id was used for a different bet slip; make a new request id for each slip.');
      }
      if (bet.status === 'refused') throw toError(JSON.parse(bet.refusal!) as Refusal);
      if (bet.status === 'accepted') return this.view(bet.id);
      if (Date.now() > deadline) throw new AppError('bet_in_progress', 409, 'A bet with this request id is being placed; ask again shortly.');
      await sleep(100);
    }
  }

  // ---- My Bets ----

  async view(betId: string): Promise<BetView> {
    const bet = await store.findBet(this.#db, betId);
    if (!bet) throw notFound('Bet');
    return (await this.#views([bet]))[0]!;
  }

  async playerBet(player: SessionPrincipal, betId: string): Promise<BetView> {
    const bet = await store.findBet(this.#db, betId);
    if (!bet || bet.player_id !== player.playerId) throw notFound('Bet');
    return (await this.#views([bet]))[0]!;
  }

  /** Open bets are accepted and not yet settled; settled bets arrive with settlement. Newest first. */
  async myBets(player: SessionPrincipal, query: ListBetsQuery): Promise<{ bets: BetView[]; nextCursor: string }> {
    const statuses: Array<Bet['status']> = query.status === 'open' ? ['accepted'] : [];
    const { page, nextCursor } = await this.#page(player.playerId, statuses, query);
    return { bets: await this.#views(page), nextCursor };
  }

  /** Staff look-up: every bet of a player, with its wallet postings; operators see their own tenant's players only. */
  async playerBetsForStaff(staff: StaffPrincipal, query: StaffBetsQuery) {
    if (staff.role !== 'platform_admin' && staff.role !== 'operator') throw forbidden();
    const player = await this.#db.selectFrom('players').select(['id', 'tenant_id']).where('id', '=', query.player).executeTakeFirst();
    if (!player || (staff.role === 'operator' && player.tenant_id !== staff.tenantId)) throw notFound('Player');
    const { page, nextCursor } = await this.#page(player.id, ['pending', 'accepted', 'refused'], query);
    const obligations = await walletStore.obligationsOfBets(this.#db, page.map((bet) => bet.id));
    const bets = (await this.#views(page)).map((view) => ({
      ...view,
      money: obligations.filter((row) => row.bet_id === view.id).map(obligationView),
    }));
    return { bets, nextCursor };
  }

  async #page(playerId: string, statuses: Array<Bet['status']>, query: { limit: number; cursor?: string | undefined }) {
    const before = query.cursor ? decodeCursor(query.cursor) : undefined;
    const rows = statuses.length === 0 ? [] : await store.betsOfPlayer(this.#db, playerId, { statuses, limit: query.limit, ...(before ? { before } : {}) });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return { page, nextCursor: rows.length > query.limit && last ? encodeCursor(last) : '' };
  }

  async #views(bets: Bet[]): Promise<BetView[]> {
    const legs = await store.legsWithNames(this.#db, bets.map((bet) => bet.id));
    return bets.map((bet) => {
      const refusal = bet.refusal ? (JSON.parse(bet.refusal) as Refusal) : null;
      return {
        id: bet.id,
        requestId: bet.request_id,
        status: bet.status,
        refusal: refusal ? { code: refusal.code, message: refusal.message } : null,
        stake: bet.stake,
        currency: bet.currency,
        odds: formatMilli(bet.odds_milli),
        potentialPayout: bet.potential_payout,
        placedAt: bet.placed_at.toISOString(),
        decidedAt: bet.decided_at?.toISOString() ?? null,
        legs: legs.filter((leg) => leg.bet_id === bet.id).map((leg) => ({
          selectionId: leg.selection_id,
          selectionName: leg.selection_name,
          marketId: leg.market_id,
          marketName: leg.market_name,
          eventId: leg.event_id,
          eventName: `${leg.home} vs ${leg.away}`,
          eventStartsAt: leg.starts_at.toISOString(),
          odds: formatMilli(leg.odds_milli),
        })),
      };
    });
  }
}

function obligationView(row: WalletObligation) {
  return {
    txId: row.tx_id,
    endpoint: row.endpoint,
    kind: row.kind,
    amount: row.amount,
    status: row.status,
    attempts: row.attempts,
    lastOutcome: row.last_outcome,
    operatorCode: row.operator_code,
    createdAt: row.created_at.toISOString(),
    resolvedAt: row.resolved_at?.toISOString() ?? null,
  };
}

function checkSlipShape(body: PlaceBetBody): void {
  const seen = new Set<string>();
  body.legs.forEach((leg, index) => {
    if (seen.has(leg.selectionId)) throw validationError(`legs.${index}.selectionId`, 'A selection appears twice in the slip.');
    seen.add(leg.selectionId);
    if (parseMilli(leg.odds) <= 1000) throw validationError(`legs.${index}.odds`, 'Odds are above 1.00.');
  });
}

function checkStake(tenant: Tenant, stake: number): void {
  if (stake < tenant.min_stake || stake > tenant.max_stake) {
    throw new AppError('stake_out_of_range', 400, `The stake must be between ${tenant.min_stake} and ${tenant.max_stake} (minor units).`, {
      minStake: tenant.min_stake, maxStake: tenant.max_stake,
    });
  }
}

function encodeCursor(bet: Bet): string {
  return Buffer.from(`${bet.placed_at.toISOString()}|${bet.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { placedAt: Date; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const placedAt = new Date(at ?? '');
  if (!id || Number.isNaN(placedAt.getTime())) throw validationError('cursor', 'The cursor is not one this API returned.');
  return { placedAt, id };
}
