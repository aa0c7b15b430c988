import { playerIdOf } from '../../integration/player-ids.ts';
import type { AuditLog } from '../../platform/audit/log.ts';
import type { Clock } from '../../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../../platform/db/database.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { cursorAfter, keysetPage } from '../../platform/http/cursor.ts';
import type { TenantService } from '../../tenants/service.ts';
import type { Tenant } from '../../tenants/tables.ts';
import type { DeliveryEngine } from '../delivery/engine.ts';
import { walletErrors } from '../errors.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Movement } from '../ledger/movement.ts';
import { retryRefusal, sendAgainWait } from '../ledger/retry-rule.ts';
import {
  CALLS_SHOWN,
  PARTNER_PAGE,
  type PartnerObligation,
  type PartnerObligationsQuery,
  type REDELIVERY_EFFECTS,
} from '../schemas.ts';
import { FAILED_HOLD_REASONS, PARTNER_STATE_STATUSES, type PARTNER_STATES } from '../states.ts';
import * as store from './store.ts';
import * as operatorStore from '../operator/store.ts';
import * as deliveryStore from '../delivery/store.ts';
import type { WalletObligation } from '../tables.ts';

type PartnerState = (typeof PARTNER_STATES)[number];
type RedeliveryEffect = (typeof REDELIVERY_EFFECTS)[number];

/** The casino's server behind its integration key: its tenant (one environment), and where it called from. */
export interface CasinoCall {
  tenant: Tenant;
  ip: string;
}

type PartnerObligationsDeps = {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  delivery: DeliveryEngine;
  tenants: TenantService;
  audit: AuditLog;
};

/**
 * Money owed as the casino sees it, with its integration key (the tenant is the key's environment): the movements of
 * its tenant only, with every attempt (when, what was sent and where, what the wallet answered, how long it took), so
 * its support staff can see why a payout has not arrived; one movement by its txId; and a redelivery now of a movement
 * still owed or refused by its wallet. A narrower view of the operator workspace (review.ts): no staff ids, no
 * decisions but the redelivery, never another tenant's movement (404).
 */
export class PartnerObligations {
  readonly #deps: PartnerObligationsDeps;

  constructor(deps: PartnerObligationsDeps) {
    this.#deps = deps;
  }

  /** The tenant's movements, newest first unless asked, filtered by state, player (the casino's id), bet and time owed. */
  async list(tenant: Tenant, query: PartnerObligationsQuery) {
    const limit = query.limit ?? PARTNER_PAGE;
    const after = cursorAfter(query.cursor);
    const createdFrom = query.from === undefined ? undefined : instant('from', query.from);
    const createdTo = query.to === undefined ? undefined : instant('to', query.to);
    let playerId: string | undefined;
    if (query.player !== undefined) {
      playerId = await playerIdOf(this.#deps.db, tenant.id, query.player);
      if (playerId === undefined) return { obligations: [], nextCursor: '' };
    }
    const state = query.state;
    const rows = await store.partnerObligations(this.#deps.db, {
      tenantId: tenant.id,
      statuses: state ? PARTNER_STATE_STATUSES[state] : undefined,
      heldFor:
        state === 'failed'
          ? { in: FAILED_HOLD_REASONS }
          : state === 'held'
            ? { notIn: FAILED_HOLD_REASONS }
            : undefined,
      playerId,
      betId: query.bet,
      createdFrom,
      createdTo,
      after,
      order: query.order,
      limit,
    });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.created_at, id: row.id }));
    return { obligations: await this.#records(tenant, page), nextCursor };
  }

  /** One movement of the tenant by its txId; another tenant's, or a balance read (never kept), is not found. */
  async transaction(tenant: Tenant, txId: string): Promise<{ transaction: PartnerObligation }> {
    const row = await store.obligationOfTxId(this.#deps.db, txId);
    if (!row || row.tenant_id !== tenant.id) throw notFound('Transaction');
    const [record] = await this.#records(tenant, [row]);
    return { transaction: record! };
  }

  /**
   * Sends a movement again now: the same row, so the same txId, body and wallet; never a new movement. Allowed for a
   * movement still owed (pending, but not a stake debit: it is sent once) and for one the wallet refused (failed),
   * under the operator's retry rule (retry-rule.ts). Idempotent: one already due is left as it is, and concurrent
   * requests make it due once. Throttled: refused while an attempt is on its way (409 obligation_in_flight), and
   * within SEND_AGAIN_GAP_MS of the last retry or redelivery (429 sent_again_too_soon). Audited with the effect.
   */
  async redeliver(
    call: CasinoCall,
    id: string,
    reason: string | undefined,
  ): Promise<{ obligation: PartnerObligation; redelivery: RedeliveryEffect }> {
    const effect = await inTransaction(this.#deps.db, (tx) => this.#redeliver(tx, call, id, reason ?? null));
    if (effect === 'scheduled') this.#deps.delivery.wake();
    const [record] = await this.#records(call.tenant, [(await this.#deps.ledger.find(this.#deps.db, id))!]);
    return { obligation: record!, redelivery: effect };
  }

  /**
   * The decision, under the lock order (the movement's bet, then its obligations): what it reads holds until the
   * commit, so neither a resettlement nor the delivery engine can change the movement between the check and the move.
   */
  async #redeliver(tx: Tx, call: CasinoCall, id: string, reason: string | null): Promise<RedeliveryEffect> {
    const seen = await this.#deps.ledger.find(tx, id);
    // Nothing of another tenant's is locked: its bet is not the caller's to hold up.
    if (!seen || seen.tenant_id !== call.tenant.id) throw notFound('Obligation');
    const locked = (await this.#deps.ledger.lockObligation(tx, id))!;
    const obligation = locked.obligation;
    const state = partnerState(obligation);
    const refuse = (details: Record<string, unknown>, message?: string) =>
      walletErrors.redelivery_not_allowed({ state, status: obligation.status, ...details }, message);
    if (state !== 'pending' && state !== 'failed') throw refuse({ reason: state });
    if (obligation.status === 'sending') {
      throw refuse(
        { reason: 'stake_sent_once' },
        'A stake debit is sent once, by the placement, and never again; if its outcome is unknown, its rollback is owed.',
      );
    }
    // One attempt at a time: the answer on its way decides, and nothing is asked of the wallet meanwhile.
    if (this.#inFlight(obligation)) {
      throw walletErrors.obligation_in_flight({ claimedUntil: obligation.claimed_until!.toISOString() });
    }
    let effect: RedeliveryEffect;
    if (state === 'pending' && obligation.next_attempt_at <= this.#deps.clock.now()) {
      effect = 'already_due';
    } else {
      if (state === 'failed') {
        const tenant = await this.#deps.tenants.get(obligation.tenant_id, tx);
        const refusal = retryRefusal(obligation, tenant.wallet_url);
        if (refusal) throw refuse(refusal.details, refusal.message);
      }
      const wait = sendAgainWait(await operatorStore.lastSentAgainAt(tx, id), this.#deps.clock.now());
      if (wait !== null) throw walletErrors.sent_again_too_soon({ retryAfterSeconds: wait });
      await this.#deps.ledger.decisions.redeliverNow(locked);
      effect = 'scheduled';
    }
    await this.#deps.audit.record(tx, {
      actor: { type: 'tenant', id: call.tenant.id },
      action: 'obligation.redeliver',
      target: { type: 'obligation', id },
      outcome: 'success',
      ip: call.ip,
      details: {
        tenantId: call.tenant.id,
        txId: obligation.tx_id,
        state,
        holdReason: obligation.hold_reason,
        effect,
        reason,
      },
    });
    return effect;
  }

  /** An attempt is on its way to the wallet: the engine's claim on it is alive. */
  #inFlight(obligation: WalletObligation): boolean {
    return obligation.claimed_until !== null && obligation.claimed_until > this.#deps.clock.now();
  }

  async #records(tenant: Tenant, rows: WalletObligation[]): Promise<PartnerObligation[]> {
    const ids = rows.map((row) => row.id);
    const calls = await deliveryStore.callsOf(this.#deps.db, ids, CALLS_SHOWN);
    const history = await operatorStore.historyOf(this.#deps.db, ids);
    const waiting = await store.waitingFor(
      this.#deps.db,
      rows.filter((row) => row.status === 'pending').map((row) => row.id),
    );
    // A failed movement is offered again only while the tenant still points at its wallet: read the row as it is now.
    const walletUrl = rows.some((row) => row.status === 'held')
      ? (await this.#deps.tenants.get(tenant.id)).wallet_url
      : tenant.wallet_url;
    return rows.map((row) => {
      const sent = JSON.parse(row.body) as Movement;
      const state = partnerState(row);
      const inFlight = this.#inFlight(row);
      const redeliverable =
        !inFlight &&
        ((state === 'pending' && row.status === 'pending') ||
          (state === 'failed' && retryRefusal(row, walletUrl) === null));
      return {
        id: row.id,
        txId: row.tx_id,
        betId: row.bet_id,
        playerId: sent.playerId,
        kind: row.kind,
        endpoint: row.endpoint,
        amount: row.amount,
        currency: sent.currency,
        state,
        status: row.status,
        holdReason: row.hold_reason,
        createdAt: row.created_at.toISOString(),
        deliveredAt: state === 'delivered' ? (row.resolved_at?.toISOString() ?? null) : null,
        nextAttemptAt: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
        attemptCount: row.attempts,
        lastOutcome: row.last_outcome,
        operatorCode: row.operator_code,
        request: { method: 'POST' as const, url: `${row.wallet_url}/${row.endpoint}`, body: row.body },
        confirmation:
          row.confirmed_tx_id !== null && row.confirmed_balance !== null
            ? { txId: row.confirmed_tx_id, balance: row.confirmed_balance }
            : null,
        waitingFor: waiting.get(row.id) ?? null,
        inFlight,
        redeliverable,
        attempts: calls
          .filter((call) => call.obligation_id === row.id)
          .map((call) => ({
            at: call.attempted_at.toISOString(),
            latencyMs: call.duration_ms,
            httpStatus: call.http_status,
            outcome: call.outcome as PartnerObligation['attempts'][number]['outcome'],
            code: call.operator_code,
            reason: call.reason,
          })),
        history: history
          .filter((entry) => entry.obligation_id === row.id)
          .map((entry) => ({
            at: entry.at.toISOString(),
            from: entry.from_status,
            to: entry.to_status,
            holdReason: entry.hold_reason,
            by: entry.actor_type,
            cause: entry.cause,
            note: entry.note,
          })),
      };
    });
  }
}

/** The casino's state of a movement (states.ts PARTNER_STATES). */
function partnerState(obligation: Pick<WalletObligation, 'status' | 'hold_reason'>): PartnerState {
  if (obligation.status === 'held') {
    return obligation.hold_reason !== null && FAILED_HOLD_REASONS.includes(obligation.hold_reason) ? 'failed' : 'held';
  }
  const found = (Object.entries(PARTNER_STATE_STATUSES) as Array<[PartnerState, readonly string[]]>).find(
    ([, statuses]) => statuses.includes(obligation.status),
  );
  return found![0];
}

/**
 * A time of the query as a Date the database can hold: the format check lets through a leap second (no Date) and the
 * year 0 (no timestamp of PostgreSQL's: it counts 1 BC).
 */
function instant(field: string, text: string): Date {
  const at = new Date(text);
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
    throw validationError(field, `${text} is not a time this API can read.`);
  }
  return at;
}
