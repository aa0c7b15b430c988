import { OwnSettlement, type OwnSettlementAction } from '../betting/own-settlement.ts';
import type { BetOutcomeReport, BetView } from '../betting/schemas.ts';
import type { BetViews } from '../betting/views.ts';
import type { CatalogService } from '../catalog/service.ts';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import type { TenantPrincipal } from '../platform/http/principals.ts';
import type { IdempotencyScope, IdempotencyService, StoredResponse } from '../platform/idempotency/service.ts';
import type { DeliveryEngine } from '../wallet/delivery/engine.ts';
import type { Ledger } from '../wallet/ledger/ledger.ts';
import { sandboxErrors } from './errors.ts';
import type { ActionBody, OwnResultsBody } from './schemas.ts';

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
};

/**
 * The sandbox outcome controls (docs/sandbox-outcomes.md): a sandbox tenant's server decides the outcome of one of its
 * own bets (settle, resettle, reopen, cancel) with its integration key, so that its wallet sees every movement on
 * demand, without a trader and without touching the shared markets. The money is betting's (own-settlement.ts, the
 * settlement's own rule and ledger); this adds who may ask and how: sandbox tenants only (production: 403
 * sandbox_only, audited as denied), their own bets only (another tenant's: 404), each call under its Idempotency-Key
 * (scoped to the tenant and bound to the integration key that sent it; the answer is stored with the change in one
 * transaction and replayed for 24 h to that key only), and audited
 * in the transaction that makes the change.
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
    await this.#sandboxOnly(tenant, call, betId, action);
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

  /** A production tenant's attempt is refused before anything is read, and audited as denied. */
  async #sandboxOnly(tenant: TenantPrincipal, call: SandboxCall, betId: string, action: OwnSettlementAction) {
    if (tenant.environment === 'sandbox') return;
    await this.#deps.audit.record(this.#deps.db, {
      actor: { type: 'tenant', id: tenant.id },
      action: `sandbox.bet.${action}`,
      target: { type: 'bet', id: betId },
      outcome: 'denied',
      ip: call.ip,
      details: { tenantId: tenant.id, environment: tenant.environment },
    });
    throw sandboxErrors.sandbox_only({ environment: tenant.environment });
  }
}
