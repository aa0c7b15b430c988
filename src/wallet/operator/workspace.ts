import type { AuditLog } from '../../platform/audit/log.ts';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../../platform/db/database.ts';
import type { WalletObligation } from '../tables.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { tenantFilter, tenantScope } from '../../platform/http/permissions.ts';
import { cursorAfter, keysetPage } from '../../platform/http/cursor.ts';
import type { StaffCall } from '../../platform/http/principals.ts';
import type { TenantService } from '../../tenants/service.ts';
import type { DeliveryEngine } from '../delivery/engine.ts';
import { walletErrors } from '../errors.ts';
import { requestMayHaveLeft } from '../ledger/delivery-table.ts';
import * as store from './store.ts';
import * as deliveryStore from '../delivery/store.ts';
import type { Review } from '../ledger/decisions.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { LockedObligation } from '../ledger/locks.ts';
import { HOLD_REASONS, OBLIGATION_STATES } from '../states.ts';
import { retryRefusal, sendAgainWait } from '../ledger/retry-rule.ts';
import { partialResolveRefusal, reviewActions } from '../ledger/review-rules.ts';
import type { Movement } from '../ledger/movement.ts';
import {
  CALLS_SHOWN,
  OBLIGATIONS_PAGE,
  type ObligationCounts,
  type ObligationCountsQuery,
  type ObligationRecord,
  type ObligationsQuery,
  type REVIEW_ACTIONS,
} from '../schemas.ts';

type ReviewAction = (typeof REVIEW_ACTIONS)[number];

type ObligationReviewDeps = {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  delivery: DeliveryEngine;
  tenants: TenantService;
  audit: AuditLog;
};

/**
 * The operator workspace (Integration / Financial delivery and exceptions): every movement owed to or by a wallet
 * with its attempts and its history, and the three decisions on a held one, each audited with its reason:
 *
 * - retry: delivery resumes with the same txId and body, to the same wallet (never to another one);
 * - resolve: the movement was done outside the service, so it counts as applied;
 * - cancel: the movement is not owed and did not happen.
 *
 * No decision is taken while an attempt is on its way to the wallet: its answer decides. Operators see and act on
 * their own tenant only; platform administrators on any.
 */
export class ObligationReview {
  readonly #deps: ObligationReviewDeps;

  constructor(deps: ObligationReviewDeps) {
    this.#deps = deps;
  }

  async list(call: Pick<StaffCall, 'staff'>, query: ObligationsQuery) {
    const tenantId = await this.#tenantNamed(call, query.tenantId);
    const limit = query.limit ?? OBLIGATIONS_PAGE;
    const rows = await store.listObligations(this.#deps.db, {
      tenantId,
      status: query.state,
      playerId: query.player,
      betId: query.bet,
      after: cursorAfter(query.cursor),
      order: query.order,
      limit,
    });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.created_at, id: row.id }));
    return { obligations: await this.#records(page), nextCursor };
  }

  /** The badges of the workspace: obligations per state, held ones per reason (every one listed, zeros too). */
  async counts(call: Pick<StaffCall, 'staff'>, query: ObligationCountsQuery): Promise<ObligationCounts> {
    const tenantId = await this.#tenantNamed(call, query.tenantId);
    const counts: ObligationCounts = {
      tenantId,
      states: zeros(OBLIGATION_STATES),
      held: zeros(HOLD_REASONS),
    };
    for (const row of await store.countObligations(this.#deps.db, tenantId)) {
      counts.states[row.status] += row.count;
      if (row.status === 'held' && row.hold_reason !== null) counts.held[row.hold_reason] += row.count;
    }
    return counts;
  }

  // ---- figures for the platform's reports and dashboard (every tenant: the caller checks the permission) ----

  /** Money confirmed (applied or resolved) in [from, to) for one tenant, per UTC day, kind and direction. */
  confirmedTotals(tenantId: string, from: Date, to: Date) {
    return store.confirmedTotals(this.#deps.db, tenantId, from, to);
  }

  /** Money confirmed (applied or resolved) in [from, to), per tenant, UTC day, kind and direction. */
  confirmedTotalsOfTenants(from: Date, to: Date) {
    return store.confirmedTotalsOfTenants(this.#deps.db, from, to);
  }

  /** Movements held for review, per tenant: how many, and since when the oldest was owed. */
  heldPerTenant() {
    return store.heldPerTenant(this.#deps.db);
  }

  /** Movements owed and waiting for delivery: how many, and since when the oldest was owed. */
  deliveryBacklog() {
    return deliveryStore.deliveryBacklog(this.#deps.db);
  }

  /** The wallet call log of (since, until], per tenant: calls, failures, refusals, latency percentiles. */
  callFigures(since: Date, until: Date) {
    return deliveryStore.callFigures(this.#deps.db, since, until);
  }

  retry(call: StaffCall, id: string, reason: string | undefined) {
    return this.#decide(call, id, 'retry', reason ?? null, async (locked, review) => {
      await this.#checkRetry(locked);
      await this.#deps.ledger.decisions.retry(locked, review);
    });
  }

  /**
   * Done outside the service. A held debit may have been collected in part (`collected`, minor units): the rest is
   * written off, reported apart from what was collected (partialResolveRefusal says when that is allowed).
   */
  resolve(call: StaffCall, id: string, reason: string, collected?: number) {
    return this.#decide(call, id, 'resolve', reason, async (locked, review) => {
      const { obligation } = locked;
      if (collected === undefined) return this.#deps.ledger.decisions.resolve(locked, review);
      const refusal = partialResolveRefusal(obligation);
      if (refusal) throw validationError('collected', refusal);
      if (collected > obligation.amount) {
        throw validationError(
          'collected',
          `Field "collected" may be at most the movement's amount, ${obligation.amount}.`,
        );
      }
      const writtenOff = obligation.amount - collected;
      await this.#deps.ledger.decisions.resolve(locked, review, writtenOff === 0 ? null : writtenOff);
    });
  }

  /**
   * A superseded movement that never left the service needs no reason of the operator's: nothing can have moved,
   * and its reason names the settlement that superseded it. Any other needs one.
   */
  cancel(call: StaffCall, id: string, reason: string | undefined) {
    return this.#decide(call, id, 'cancel', reason ?? null, (locked, review) => {
      const obligation = locked.obligation;
      if (review.reason === null) {
        if (!obligation.superseded_by || requestMayHaveLeft(obligation)) {
          throw validationError('reason', 'Field "reason" is required: say why this movement is not owed.');
        }
        review = { ...review, reason: `never sent; superseded by ${obligation.superseded_by}` };
      }
      return this.#deps.ledger.decisions.cancel(locked, review);
    });
  }

  async #decide(
    call: StaffCall,
    id: string,
    action: ReviewAction,
    reason: string | null,
    apply: (locked: LockedObligation, review: Review) => Promise<void>,
  ): Promise<{ obligation: ObligationRecord }> {
    await inTransaction(this.#deps.db, async (tx) => {
      // The lock order first (its bet, then its obligations): what is checked below holds until the commit.
      const locked = await this.#visible(call, id, tx);
      const obligation = locked.obligation;
      if (obligation.status !== 'held') throw walletErrors.obligation_not_held({ status: obligation.status });
      if (this.#inFlight(obligation)) {
        throw walletErrors.obligation_in_flight({ claimedUntil: obligation.claimed_until!.toISOString() });
      }
      await apply(locked, { staffId: call.staff.id, reason });
      const decided = (await this.#deps.ledger.find(tx, id))!;
      await this.#deps.audit.record(tx, {
        actor: { type: 'staff', id: call.staff.id },
        action: `obligation.${action}`,
        target: { type: 'obligation', id },
        outcome: 'success',
        ip: call.ip,
        details: {
          txId: obligation.tx_id,
          holdReason: obligation.hold_reason,
          reason: decided.review_reason,
          supersededBy: obligation.superseded_by,
          requestSent: requestMayHaveLeft(obligation),
          ...(decided.written_off !== null ? { writtenOff: decided.written_off } : {}),
        },
      });
    });
    this.#deps.delivery.wake();
    const [record] = await this.#records([(await this.#deps.ledger.find(this.#deps.db, id))!]);
    return { obligation: record! };
  }

  /**
   * Sending again must be able to help, can go only where the movement was recorded for, and not moments after it was
   * last sent again on request (retry-rule.ts).
   */
  async #checkRetry(locked: LockedObligation): Promise<void> {
    const tenant = await this.#deps.tenants.get(locked.obligation.tenant_id, locked.tx);
    const refusal = retryRefusal(locked.obligation, tenant.wallet_url);
    if (refusal) throw walletErrors.retry_not_allowed(refusal.details, refusal.message);
    const wait = sendAgainWait(await store.lastSentAgainAt(locked.tx, locked.obligation.id), this.#deps.clock.now());
    if (wait !== null) throw walletErrors.sent_again_too_soon({ retryAfterSeconds: wait });
  }

  /** The tenant a read is filtered to (tenantFilter); one named that does not exist is not found, not empty. */
  async #tenantNamed(call: Pick<StaffCall, 'staff'>, requested: string | undefined): Promise<string | null> {
    const tenantId = tenantFilter(call.staff, requested);
    if (requested !== undefined) await this.#deps.tenants.get(requested);
    return tenantId;
  }

  /** An attempt is on its way to the wallet: the engine's claim on it is alive. */
  #inFlight(obligation: WalletObligation): boolean {
    return obligation.claimed_until !== null && obligation.claimed_until > this.#deps.clock.now();
  }

  /** The obligation locked for a decision, if the caller may see it: another tenant's is not found. */
  async #visible(call: Pick<StaffCall, 'staff'>, id: string, tx: Tx): Promise<LockedObligation> {
    const scope = tenantScope(call.staff);
    const seen = await this.#deps.ledger.find(tx, id);
    // Nothing of another tenant's is locked: its bet is not the caller's to hold up.
    if (!seen || (scope !== null && seen.tenant_id !== scope)) throw notFound('Obligation');
    return (await this.#deps.ledger.lockObligation(tx, id))!;
  }

  async #records(rows: WalletObligation[]): Promise<ObligationRecord[]> {
    const ids = rows.map((row) => row.id);
    const calls = await deliveryStore.callsOf(this.#deps.db, ids, CALLS_SHOWN);
    const history = await store.historyOf(this.#deps.db, ids);
    // A retry goes only to the wallet a movement was recorded for: offered only while the tenant still points there.
    const heldTenants = [...new Set(rows.filter((row) => row.status === 'held').map((row) => row.tenant_id))];
    const walletUrls = new Map(
      await Promise.all(heldTenants.map(async (id) => [id, (await this.#deps.tenants.get(id)).wallet_url] as const)),
    );
    return rows.map((row) => {
      const movement = JSON.parse(row.body) as Movement;
      return {
        id: row.id,
        tenantId: row.tenant_id,
        txId: row.tx_id,
        betId: row.bet_id,
        playerId: row.player_id,
        externalPlayerId: movement.playerId,
        endpoint: row.endpoint,
        kind: row.kind,
        amount: row.amount,
        currency: movement.currency,
        walletUrl: row.wallet_url,
        body: row.body,
        status: row.status,
        holdReason: row.hold_reason,
        attempts: row.attempts,
        lastOutcome: row.last_outcome,
        operatorCode: row.operator_code,
        nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
        createdAt: row.created_at.toISOString(),
        resolvedAt: row.resolved_at?.toISOString() ?? null,
        review: row.reviewed_by ? { by: row.reviewed_by, reason: row.review_reason } : null,
        requestSent: requestMayHaveLeft(row),
        inFlight: this.#inFlight(row),
        supersededBy: row.superseded_by,
        confirmation:
          row.confirmed_tx_id !== null && row.confirmed_balance !== null
            ? { txId: row.confirmed_tx_id, balance: row.confirmed_balance }
            : null,
        history: history
          .filter((entry) => entry.obligation_id === row.id)
          .map((entry) => ({
            at: entry.at.toISOString(),
            from: entry.from_status,
            to: entry.to_status,
            holdReason: entry.hold_reason,
            by: { type: entry.actor_type, id: entry.actor_id },
            cause: entry.cause,
            note: entry.note,
          })),
        writtenOff: row.written_off,
        ...reviewActions(row, walletUrls.get(row.tenant_id), this.#inFlight(row)),
        calls: calls
          .filter((call) => call.obligation_id === row.id)
          .map((call) => ({
            at: call.attempted_at.toISOString(),
            httpStatus: call.http_status,
            outcome: call.outcome as ObligationRecord['calls'][number]['outcome'],
            reason: call.reason,
            operatorCode: call.operator_code,
            durationMs: call.duration_ms,
          })),
      };
    });
  }
}

function zeros<K extends string>(keys: readonly K[]): Record<K, number> {
  return Object.fromEntries(keys.map((key) => [key, 0])) as Record<K, number>;
}
