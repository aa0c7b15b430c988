import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../platform/clock.ts';
import type { Db } from '../../platform/db/database.ts';
import type { WalletObligation } from '../tables.ts';
import type { TenantService, TenantWallet } from '../../tenants/service.ts';
import type { WalletAttempt, WalletClient } from './client.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { AttemptRecorder, RECORD_BATCH } from './recorder.ts';
import { Lanes, type Slot } from './lanes.ts';
import { WalletTargets, type Target } from './targets.ts';
import type { WalletMetrics } from '../metrics.ts';
import * as store from './store.ts';

/** Contract: up to 5 attempts, waiting 200 ms, 400 ms, 800 ms, 1.6 s between them (doubling, at most 2 s). */
export const RETRY_DELAYS_MS = [200, 400, 800, 1_600];
/** Contract: settlements that could not be paid are retried every 30 s. */
const RESEND_AFTER_MS = 30_000;
/** Calls in flight to one wallet at most: a casino's wallet is not ours to flood. */
export const WALLET_CONCURRENCY = 64;
/**
 * Movements claimed for one wallet at most: its calls in flight and as many again waiting for a free slot, so a
 * slot freed by an answer starts the next call at once instead of after the next claim's round trip.
 */
const CLAIMED_PER_SLOT = 2;
/** How long a claim keeps others off an obligation: past the 5 s timeout with a wide margin. */
const CLAIM_MS = 60_000;
/** How often an idle engine looks for work it was not told about (operator actions of another process, clocks). */
const POLL_MS = 1_000;
/** Answers waiting to be recorded at most before the engine stops claiming more. */
const MAX_UNRECORDED = 4 * RECORD_BATCH;

export interface DeliveryOptions {
  retryDelaysMs?: number[];
  resendAfterMs?: number;
  walletConcurrency?: number;
  claimMs?: number;
}

type DeliveryEngineDeps = {
  db: Db;
  clock: Clock;
  wallets: WalletClient;
  tenants: TenantService;
  ledger: Ledger;
  log: FastifyBaseLogger;
  metrics: WalletMetrics;
};

/**
 * The one delivery engine for money owed to or by a wallet. Obligations are rows first (exact body text, txId,
 * destination); this claims them in the database, sends them outside any transaction, and records every attempt.
 *
 * - A stake debit is sent exactly once, by the placement (attempt()); the engine never sends it.
 * - Everything else is delivered with the same txId and body until the wallet answers for sure: five attempts
 *   200, 400, 800 and 1,600 ms apart, then one every 30 s. Each next attempt is a time in the row, so a restart
 *   continues the schedule. A refusal stops automatic delivery and waits for review (held).
 * - Postings of one bet go out in creation order; an unsettled predecessor blocks that bet only.
 * - Many bets deliver at once, at most `walletConcurrency` calls in flight per wallet, each wallet claiming its
 *   own share, so one slow wallet cannot starve the others. A wallet's claims run one window ahead: as many
 *   movements again wait for its next free slot, so a freed slot never waits for a claim.
 * - A claim is a lease with an expiry, and every record is guarded by the attempt count: a crash at any point
 *   neither loses a movement (the lease expires) nor records a stale attempt over a newer one.
 * - An obligation goes only to the wallet URL it was recorded for; a changed URL holds it for review.
 */
export class DeliveryEngine {
  readonly #deps: DeliveryEngineDeps;
  readonly #retryDelaysMs: number[];
  readonly #resendAfterMs: number;
  readonly #walletConcurrency: number;
  readonly #claimMs: number;
  /** Deliveries in progress (sending, or claimed and waiting for a slot), and each tenant's lane (one wallet). */
  readonly #inFlight = new Set<Promise<void>>();
  readonly #lanes: Lanes;
  /** Answers waiting to be recorded, written together. */
  readonly #records: AttemptRecorder;
  #loop: Promise<void> | undefined;
  #wake: (() => void) | undefined;
  /** Set by wake() while the loop is busy, so the wake is not lost. */
  #woken = false;
  /**
   * Something may be due that no lane knows of (new work, a retry's time, the poll): the next claim must look. An
   * answer or a record only nudges the loop, and a claim then looks only if a lane has room for a batch.
   */
  #mustLook = true;
  /** The earliest time an attempt recorded by this engine is due again (clock milliseconds). */
  #nextDue: number | undefined;
  /** Where each wallet is: read per claim, and again for a movement that waited for a slot. */
  readonly #targets: WalletTargets;
  /** The one timer for that time or the next poll, and when it fires (clock milliseconds). */
  #timer: NodeJS.Timeout | undefined;
  #timerAt = 0;
  #stopped = false;

  constructor(deps: DeliveryEngineDeps, options: DeliveryOptions = {}) {
    this.#deps = deps;
    this.#targets = new WalletTargets(deps.tenants);
    this.#retryDelaysMs = options.retryDelaysMs ?? RETRY_DELAYS_MS;
    this.#resendAfterMs = options.resendAfterMs ?? RESEND_AFTER_MS;
    this.#walletConcurrency = options.walletConcurrency ?? WALLET_CONCURRENCY;
    this.#lanes = new Lanes(this.#walletConcurrency, () => this.#nudge());
    this.#claimMs = options.claimMs ?? CLAIM_MS;
    this.#records = new AttemptRecorder(deps, (due) => (this.#nextDue = Math.min(this.#nextDue ?? due, due)));
  }

  /**
   * The stake debit's one attempt (the placement's). The caller decides what the outcome means and logs the call
   * with it (Ledger.stakeOutcome), or alone if that cannot be recorded (logAttempt).
   */
  async attempt(obligation: WalletObligation): Promise<WalletAttempt> {
    return this.#send(obligation, await this.#deps.tenants.walletTarget(obligation.tenant_id, { fromCache: true }));
  }

  /** Logs an attempt whose outcome could not be recorded with it; a log that cannot be written is only logged. */
  async logAttempt(obligation: WalletObligation, attempt: WalletAttempt): Promise<void> {
    await store
      .logWalletCalls(this.#deps.db, [store.callOfObligation(obligation, attempt, this.#deps.clock.now())])
      .catch((err: unknown) => this.#deps.log.error({ err, txId: obligation.tx_id }, 'wallet call not logged'));
  }

  /** Starts the engine: claims left by a previous process are released (this one holds the instance lock). */
  async start(): Promise<void> {
    await this.#deps.ledger.releaseClaims(this.#deps.db);
    this.#stopped = false;
    this.#loop ??= this.#run().finally(() => (this.#loop = undefined));
  }

  /** New work was committed (a settlement, a rollback, an operator's retry): look now rather than at the next poll. */
  wake(): void {
    this.#mustLook = true;
    this.#nudge();
  }

  #nudge(): void {
    this.#woken = true;
    this.#wake?.();
  }

  /**
   * Claims what is due now, within the free slots, and delivers it; resolves when those deliveries are recorded.
   * Returns how many it claimed.
   */
  async runOnce(): Promise<number> {
    const claimed = await this.#claim();
    await Promise.all(claimed);
    return claimed.length;
  }

  /** Resolves when nothing is in flight and nothing is due now. */
  async idle(): Promise<void> {
    for (;;) {
      await Promise.all(this.#inFlight);
      if ((await this.runOnce()) === 0 && this.#inFlight.size === 0) return;
    }
  }

  /** Stops claiming and waits for the deliveries in flight to be recorded. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.wake();
    await this.#loop;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#inFlight.size > 0) await Promise.all(this.#inFlight);
  }

  /** When an attempt proved nothing: the next of the five, then every 30 s. */
  nextAttemptAt(attemptsSoFar: number): Date {
    const wait = this.#retryDelaysMs[attemptsSoFar - 1] ?? this.#resendAfterMs;
    return new Date(this.#deps.clock.now().getTime() + wait);
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      let claimed = 0;
      try {
        claimed = (await this.#claim()).length;
      } catch (err) {
        // What the claim was asked to look for is still to be looked for.
        this.#mustLook = true;
        this.#deps.log.error({ err }, 'claiming wallet obligations failed');
      }
      if (claimed > 0 || this.#stopped) continue;
      await this.#sleep();
    }
  }

  /** Nothing claimable: sleep until a delivery ends, new work is committed, a retry falls due, or the next poll. */
  async #sleep(): Promise<void> {
    this.#armTimer();
    if (this.#woken) {
      this.#woken = false;
      return;
    }
    await new Promise<void>((resolve) => (this.#wake = resolve));
    this.#wake = undefined;
    this.#woken = false;
  }

  /**
   * One timer at a time, for the next retry's time or the poll, whichever is first. Nudges do not reset it: under
   * load answers nudge the loop all the time, and neither a retry nor the poll may be put off by them.
   */
  #armTimer(): void {
    const now = this.#deps.clock.now().getTime();
    const at = Math.min(now + POLL_MS, Math.max(now, this.#nextDue ?? Infinity));
    if (this.#timer && this.#timerAt <= at) return;
    clearTimeout(this.#timer);
    this.#nextDue = undefined;
    this.#timerAt = at;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#mustLook = true;
      this.#nudge();
    }, at - now);
  }

  /** Claims due obligations and starts their deliveries; returns the deliveries' promises. */
  async #claim(): Promise<Array<Promise<void>>> {
    // Answers waiting to be written hold their claims: let the database catch up before sending more.
    if (this.#stopped || this.#records.waiting >= MAX_UNRECORDED) return [];
    const perWallet = CLAIMED_PER_SLOT * this.#walletConcurrency;
    const busy = this.#lanes.room(perWallet);
    // Under load every answer nudges the loop: a claim for one or two movements at a time would cost the database
    // more than the movements (each claim reads past the rows claimed ahead). Claim when a lane has room for a batch.
    const roomForBatch = busy.length === 0 || busy.some((lane) => lane.free >= this.#walletConcurrency / 2);
    if (!this.#mustLook && !roomForBatch) return [];
    this.#mustLook = false;
    const now = this.#deps.clock.now();
    const claimed = await this.#deps.ledger.claimDue(this.#deps.db, {
      now,
      claimUntil: new Date(now.getTime() + this.#claimMs),
      perWallet,
      busy,
    });
    if (claimed.length === 0) return [];
    const targets = await this.#targets.ofClaim(claimed);
    return claimed.map((obligation) => this.#start(obligation, targets));
  }

  /**
   * Delivers one claimed obligation once a slot of its wallet is free. The slot is held until the wallet has
   * answered (the bound is on calls in flight to a wallet), then handed to the next movement waiting in the lane, or
   * freed for the next claim, while the answer waits to be recorded with others; the delivery stays in flight, for
   * stop() and idle(), until it is recorded. A movement still waiting when the engine stops is not sent: its claim is
   * given back.
   */
  #start(obligation: WalletObligation, targets: Map<string, Target>): Promise<void> {
    const tenantId = obligation.tenant_id;
    let slot: Slot | undefined;
    const tracked = this.#lanes
      .take(tenantId)
      .then(async (taken) => {
        slot = taken;
        if (this.#stopped) return this.#deps.ledger.giveBackClaim(this.#deps.db, obligation);
        if (!taken.waited) return this.#deliver(obligation, targets.get(tenantId)!, taken.free);
        // While it waited, a resettlement may have superseded it, an operator decided on it, or its wallet's URL or
        // secret changed: only what is still owed as claimed is sent, with its wallet as it is now. What is not
        // sent gives its claim back, so nothing says it may have reached the wallet.
        if (!(await this.#stillOwedAsClaimed(obligation)))
          return this.#deps.ledger.giveBackClaim(this.#deps.db, obligation);
        return this.#deliver(obligation, await this.#targets.now(tenantId), taken.free);
      })
      .catch((err: unknown) => this.#deps.log.error({ err }, 'wallet delivery failed'))
      .finally(() => {
        slot?.free();
        this.#inFlight.delete(tracked);
        // A wallet with nothing left in flight nudges no more: what this record unblocked (its bet's next posting)
        // must be looked for now, even while another wallet's lane is full.
        if (!this.#lanes.has(tenantId)) this.#mustLook = true;
        this.#nudge();
      });
    this.#inFlight.add(tracked);
    return tracked;
  }

  async #stillOwedAsClaimed(obligation: WalletObligation): Promise<boolean> {
    const current = await this.#deps.ledger.find(this.#deps.db, obligation.id);
    return current?.status === 'pending' && current.claims === obligation.claims;
  }

  /** One attempt of one claimed obligation, then its record (written with others). */
  async #deliver(obligation: WalletObligation, target: Target, answered: () => void): Promise<void> {
    if (target instanceof Error) throw target;
    if (target.walletUrl !== obligation.wallet_url) {
      // A movement goes only to the wallet it was recorded for: never to a replacement.
      await this.#deps.ledger.attempts.holdUnsent(this.#deps.db, obligation, 'destination_changed');
      return;
    }
    const attempt = await this.#send(obligation, target).finally(answered);
    this.#deps.metrics.delivered(attempt);
    await this.#records.record({ obligation, attempt, nextAttemptAt: this.nextAttemptAt(obligation.attempts + 1) });
  }

  #send(obligation: WalletObligation, target: TenantWallet): Promise<WalletAttempt> {
    return this.#deps.wallets.send(
      { walletUrl: obligation.wallet_url, secret: target.secret, tenantId: obligation.tenant_id },
      obligation.endpoint,
      obligation.body,
      { txId: obligation.tx_id, currency: target.currency },
    );
  }
}
