import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../platform/clock.ts';
import type { Db, Queryable } from '../platform/db/database.ts';
import type { Tenant, WalletObligation } from '../platform/db/schema.ts';
import type { TenantService } from '../tenants/service.ts';
import type { WalletAttempt, WalletClient } from './client.ts';
import * as store from './store.ts';

/** Contract: up to 5 attempts, waiting 200 ms, 400 ms, 800 ms, 1.6 s between them (doubling, at most 2 s). */
export const RETRY_DELAYS_MS = [200, 400, 800, 1_600];
/** Contract: settlements that could not be paid are retried every 30 s. */
export const RESEND_AFTER_MS = 30_000;

export interface DeliveryOptions {
  retryDelaysMs?: number[];
  resendAfterMs?: number;
}

/**
 * The one delivery engine for money owed to or by a wallet. Obligations are rows first (exact body text, txId,
 * destination); this sends them, one attempt at a time, outside any transaction, and records every attempt.
 *
 * - A stake debit is sent exactly once (sendOnce); its outcome is final.
 * - Everything else is delivered with the same txId and body until the wallet answers for sure: a burst of up to
 *   five attempts, then again every 30 s. A refusal stops automatic delivery and waits for review (failed).
 * - Postings of one bet go out in creation order; an unresolved predecessor blocks that bet only.
 */
export class DeliveryEngine {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #wallets: WalletClient;
  readonly #tenants: TenantService;
  readonly #log: FastifyBaseLogger;
  readonly #retryDelaysMs: number[];
  readonly #resendAfterMs: number;
  readonly #inFlight = new Map<string, Promise<void>>();
  #stopped = false;

  constructor(deps: { db: Db; clock: Clock; wallets: WalletClient; tenants: TenantService; log: FastifyBaseLogger }, options: DeliveryOptions = {}) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#wallets = deps.wallets;
    this.#tenants = deps.tenants;
    this.#log = deps.log;
    this.#retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.#resendAfterMs = options.resendAfterMs ?? RESEND_AFTER_MS;
  }

  /** One attempt, recorded in the wallet call log; the caller decides what the outcome means. */
  async attempt(obligation: WalletObligation): Promise<WalletAttempt> {
    const tenant = await this.#tenant(this.#db, obligation.tenant_id);
    const attempt = await this.#wallets.send(
      { walletUrl: obligation.wallet_url, secret: this.#tenants.walletSecret(tenant) },
      obligation.endpoint,
      obligation.body,
      { txId: obligation.tx_id, currency: tenant.currency },
    );
    const call = { tenantId: obligation.tenant_id, obligationId: obligation.id, txId: obligation.tx_id, endpoint: obligation.endpoint, kind: obligation.kind };
    await store.logWalletCall(this.#db, { ...call, at: this.#clock.now() }, attempt);
    return attempt;
  }

  /** Starts delivering an obligation in the background (or joins the delivery already running). */
  schedule(obligationId: string): Promise<void> {
    const running = this.#inFlight.get(obligationId);
    if (running) return running;
    const delivery = this.#deliver(obligationId)
      .catch((err: unknown) => this.#log.error({ err, obligationId }, 'wallet delivery failed'))
      .finally(() => this.#inFlight.delete(obligationId));
    this.#inFlight.set(obligationId, delivery);
    return delivery;
  }

  /** The worker's tick: every due obligation whose bet is not blocked. */
  async deliverDue(limit = 100): Promise<number> {
    if (this.#stopped) return 0;
    const due = await store.dueObligations(this.#db, this.#clock.now(), limit);
    await Promise.all(due.map((obligation) => this.schedule(obligation.id)));
    return due.length;
  }

  /** Resolves when no delivery is in progress (the ones running now, and any they lead to). */
  async idle(): Promise<void> {
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight.values());
  }

  /** Waits for deliveries in progress; no new burst starts after this. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await this.idle();
  }

  async #deliver(obligationId: string): Promise<void> {
    for (let attempt = 0; attempt <= this.#retryDelaysMs.length; attempt++) {
      if (this.#stopped && attempt > 0) return;
      const obligation = await store.findObligation(this.#db, obligationId);
      // Only owed movements are redelivered; a stake debit (kind bet) is never sent twice.
      if (!obligation || obligation.status !== 'pending' || obligation.kind === 'bet') return;
      if (await store.hasUnresolvedPredecessor(this.#db, obligation)) return;
      if (await this.#destinationChanged(obligation)) return;
      const outcome = await this.attempt(obligation);
      if (outcome.outcome === 'applied') {
        await store.recordAttempt(this.#db, obligationId, 'pending', { status: 'applied', lastOutcome: 'applied', resolvedAt: this.#clock.now() });
        return;
      }
      if (outcome.outcome === 'refused') {
        // A definitive refusal of money owed: never retried automatically, held for review.
        await store.recordAttempt(this.#db, obligationId, 'pending', { status: 'failed', lastOutcome: 'refused', operatorCode: outcome.code });
        return;
      }
      const next = new Date(this.#clock.now().getTime() + this.#resendAfterMs);
      await store.recordAttempt(this.#db, obligationId, 'pending', { status: 'pending', lastOutcome: outcome.reason, nextAttemptAt: next });
      const wait = this.#retryDelaysMs[attempt];
      if (wait !== undefined) await sleep(wait);
    }
  }

  /**
   * A movement goes only to the wallet it was recorded for. If the tenant's wallet URL no longer matches, the
   * obligation is held for review rather than sent to a replacement.
   */
  async #destinationChanged(obligation: WalletObligation): Promise<boolean> {
    if (!(await this.destinationChanged(obligation))) return false;
    await store.holdForReview(this.#db, obligation.id, 'destination_changed');
    return true;
  }

  async destinationChanged(obligation: WalletObligation): Promise<boolean> {
    const tenant = await this.#tenant(this.#db, obligation.tenant_id);
    return tenant.wallet_url !== obligation.wallet_url;
  }

  async #tenant(q: Queryable, tenantId: string): Promise<Tenant> {
    return q.selectFrom('tenants').selectAll().where('id', '=', tenantId).executeTakeFirstOrThrow();
  }
}
