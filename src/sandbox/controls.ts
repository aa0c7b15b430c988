import { OwnSettlement, type OwnSettlementAction } from '../betting/own-settlement.ts';
import type { BetOutcomeReport, BetView } from '../betting/schemas.ts';
import type { BetViews } from '../betting/views.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import type { TenantPrincipal } from '../platform/http/principals.ts';
import type { IdempotencyScope, IdempotencyService, StoredResponse } from '../platform/idempotency/service.ts';
import type { IntegrationService } from '../integration/service.ts';
import type { DeliveryEngine } from '../wallet/delivery/engine.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import type { SandboxAdjustments } from '../wallet/operator/sandbox-adjustments.ts';
import { sandboxErrors } from './errors.ts';
import type {
  ActionBody,
  OwnResultsBody,
  SandboxAdjustmentAnswer,
  SandboxAdjustmentBody,
  SandboxPlayerStatusBody,
} from './schemas.ts';

/** What a call of the controls carries besides its body: its Idempotency-Key, the key that sent it, its address. */
export interface SandboxCall {
  key: string;
  /** The integration key that sent the call (its SHA-256): a retry under another key is refused, never replayed. */
  credential: string;
  ip: string;
}

type SandboxControlsDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  idempotency: IdempotencyService;
  catalog: CatalogService;
  ledger: Ledger;
  delivery: DeliveryEngine;
  views: BetViews;
  /** A sandbox's adjustments are the operator's use case, made by the casino's server instead of staff. */
  adjustments: SandboxAdjustments;
  /** A sandbox's player statuses are integration's use case, asked by the casino's server instead of staff. */
  integration: IntegrationService;
};

/**
 * The sandbox controls (docs/sandbox-outcomes.md): a sandbox tenant's server decides the outcome of one of its own bets
 * (settle, resettle, reopen, cancel) with its integration key, so that its wallet sees every movement on demand,
 * without a trader and without touching the shared markets; and it makes an adjustment on one of its players, or
 * blocks, pauses, closes or reactivates one, without staff. The money is betting's (own-settlement.ts, the settlement's
 * own rule and ledger) and the operator's (sandbox-adjustments.ts); the statuses are integration's (players.ts). This
 * adds who may ask and how: sandbox tenants only (production: 403 sandbox_only, audited as denied), their own bets and
 * players only (another tenant's: 404), each call that owes money under its Idempotency-Key (scoped to the tenant and
 * bound to the integration key that sent it; the answer is stored with the change in one transaction and replayed for
 * 24 h to that key only), and audited in the transaction that makes the change.
 */
export class SandboxControls {
  readonly #deps: SandboxControlsDeps;
  readonly #bets: OwnSettlement;

  constructor(deps: SandboxControlsDeps) {
    this.#deps = deps;
    this.#bets = new OwnSettlement(deps);
  }

  async decide(
    tenant: TenantPrincipal,
    call: SandboxCall,
    betId: string,
    action: OwnSettlementAction,
    body: OwnResultsBody | ActionBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    await this.#sandboxOnly(tenant, call.ip, `sandbox.bet.${action}`, { type: 'bet', id: betId });
    const scope: IdempotencyScope = {
      scope: `tenant:${tenant.id}`,
      key: call.key,
      credentialId: call.credential,
      operation: `POST /sandbox/bets/${betId}/${action}`,
      body,
    };
    const results = 'results' in body ? body.results : [];
    const answer = await this.#deps.idempotency.run(scope, () =>
      inTransaction(this.#deps.db, async (tx) => {
        const report = await this.#bets.decide(tx, tenant.id, betId, action, results);
        await this.#deps.audit.record(tx, {
          actor: { type: 'tenant', id: tenant.id },
          action: `sandbox.bet.${action}`,
          target: { type: 'bet', id: betId },
          outcome: 'success',
          ip: call.ip,
          details: {
            tenantId: tenant.id,
            idempotencyKey: call.key,
            ...('results' in body ? { results: body.results } : {}),
            ...(body.reason === undefined ? {} : { reason: body.reason }),
            changed: report.changed,
            from: report.bet.previousStatus,
            to: report.bet.status,
            owed: report.owed.map((movement) => movement.txId),
            superseded: report.superseded,
          },
        });
        const stored = { status: 200, body: report };
        await this.#deps.idempotency.complete(tx, scope, stored);
        return stored;
      }),
    );
    if (!answer.replayed && (answer.body as BetOutcomeReport).owed.length > 0) this.#deps.delivery.wake();
    return answer;
  }

  async view(tenant: TenantPrincipal, betId: string): Promise<BetView> {
    if (tenant.environment !== 'sandbox') throw sandboxErrors.sandbox_only({ environment: tenant.environment });
    return this.#deps.views.tenantBet(tenant.id, betId);
  }

  /**
   * An adjustment on one of the tenant's players, approved at once (no four eyes in a sandbox), bounded by the
   * tenant's largest single adjustment and owed like any other (the operator's use case: sandbox-adjustments.ts): the
   * wallet gets `adjustment:<id>` on /credit or /debit. 201, replayed under the same Idempotency-Key.
   */
  async adjust(
    tenant: TenantPrincipal,
    call: SandboxCall,
    body: SandboxAdjustmentBody,
  ): Promise<StoredResponse & { replayed: boolean }> {
    await this.#sandboxOnly(
      tenant,
      call.ip,
      'sandbox.adjustment.create',
      { type: 'player', id: null },
      {
        externalPlayerId: body.externalPlayerId,
      },
    );
    const scope: IdempotencyScope = {
      scope: `tenant:${tenant.id}`,
      key: call.key,
      credentialId: call.credential,
      operation: 'POST /sandbox/adjustments',
      body,
    };
    return this.#deps.idempotency.run(scope, () =>
      this.#deps.adjustments.make(tenant.id, { body, idempotencyKey: call.key, ip: call.ip }, async (tx, made) => {
        const { adjustment } = made;
        const answer: SandboxAdjustmentAnswer = {
          adjustment: {
            id: adjustment.id,
            externalPlayerId: made.externalPlayerId,
            direction: adjustment.direction,
            amount: adjustment.amount,
            currency: made.currency,
            reason: adjustment.reason,
            status: 'approved',
            madeBy: 'sandbox_server',
            createdAt: adjustment.created_at.toISOString(),
          },
          owed: [made.owed],
        };
        const stored = { status: 201, body: answer };
        await this.#deps.idempotency.complete(tx, scope, stored);
        return stored;
      }),
    );
  }

  /**
   * One of the tenant's players blocked, paused, closed or made active again, as staff would (integration's use
   * case: players.ts), so that the casino's server sees account_blocked and the others when it opens a session.
   * Setting a status is idempotent by itself: no Idempotency-Key.
   */
  async setPlayerStatus(tenant: TenantPrincipal, ip: string, externalPlayerId: string, body: SandboxPlayerStatusBody) {
    await this.#sandboxOnly(
      tenant,
      ip,
      'sandbox.player.status.set',
      { type: 'player', id: null },
      {
        externalPlayerId,
        status: body.status,
      },
    );
    return this.#deps.integration.players.setStatusOfTenant(tenant.id, externalPlayerId, {
      status: body.status,
      reason: body.reason,
      ip,
    });
  }

  /** A production tenant's attempt is refused before anything is read, and audited as denied. */
  async #sandboxOnly(
    tenant: TenantPrincipal,
    ip: string,
    action: string,
    target: { type: string; id: string | null },
    details: Record<string, unknown> = {},
  ) {
    if (tenant.environment === 'sandbox') return;
    await this.#deps.audit.record(this.#deps.db, {
      actor: { type: 'tenant', id: tenant.id },
      action,
      target,
      outcome: 'denied',
      ip,
      details: { tenantId: tenant.id, environment: tenant.environment, ...details },
    });
    throw sandboxErrors.sandbox_only({ environment: tenant.environment });
  }
}
