import { randomBytes } from 'node:crypto';
import type { IntegrationService } from '../../integration/service.ts';
import type { AuditLog } from '../../platform/audit/log.ts';
import type { Clock } from '../../platform/clock.ts';
import { canonicalJson, sha256Hex } from '../../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../../platform/db/database.ts';
import type { Tenant } from '../../tenants/tables.ts';
import type { Adjustment } from '../tables.ts';
import { notFound, validationError } from '../../platform/errors.ts';
import { tenantScope } from '../../platform/http/permissions.ts';
import type { StaffCall } from '../../platform/http/principals.ts';
import { idempotencyErrors } from '../../platform/idempotency/errors.ts';
import type { TenantService } from '../../tenants/service.ts';
import type { DeliveryEngine } from '../delivery/engine.ts';
import { walletErrors } from '../errors.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { AdjustmentViews } from './adjustment-views.ts';
import type { AdjustmentBody, AdjustmentsQuery } from '../schemas.ts';
import { ADJUSTMENT_TRANSITIONS, type AdjustmentState } from '../states.ts';
import * as store from './store.ts';

/**
 * A new adjustment's row, by whoever makes it (a staff member, or a sandbox's server): nothing owed and nothing decided
 * yet, whatever its status.
 */
export function newAdjustment(
  made: Pick<
    Adjustment,
    | 'tenant_id'
    | 'player_id'
    | 'direction'
    | 'amount'
    | 'reason'
    | 'made_by'
    | 'staff_id'
    | 'idempotency_key'
    | 'request_hash'
    | 'created_at'
    | 'status'
  >,
): Adjustment {
  return {
    id: `adj_${randomBytes(8).toString('hex')}`,
    ...made,
    obligation_id: null,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
  };
}
/** The window over which adjustments approved alone add up against the approval threshold. */
const SPLIT_WINDOW_MS = 24 * 60 * 60 * 1000;

/** Another request with the same Idempotency-Key committed first: answer from it. */
class KeyTaken extends Error {}

export type AdjustmentsDeps = {
  db: Db;
  clock: Clock;
  ledger: Ledger;
  delivery: DeliveryEngine;
  integration: IntegrationService;
  tenants: TenantService;
  audit: AuditLog;
  /** Staff members' e-mail addresses by id: the views name people as they know each other. */
  staffEmails: (ids: string[]) => Promise<Map<string, string>>;
};

/**
 * An operator's manual credit or debit on a player (`adjustment:<id>`), with a required reason, audited. Each tenant
 * bounds it: nothing above its largest single adjustment is accepted, and above its approval threshold a second
 * staff member must approve it (four eyes) before anything is owed. Once approved (at once within the threshold) it
 * is owed and delivered like any movement; a debit follows the debit rules (all of it or insufficient_funds, which
 * holds it for review; never a partial collection). The Idempotency-Key makes a double click one adjustment.
 */
export class Adjustments {
  readonly #deps: AdjustmentsDeps;
  readonly #views: AdjustmentViews;

  constructor(deps: AdjustmentsDeps) {
    this.#deps = deps;
    this.#views = new AdjustmentViews(deps);
  }

  /** Adjustments of the caller's tenant, newest first: the approvals queue (adjustment-views.ts). */
  list(call: Pick<StaffCall, 'staff'>, query: AdjustmentsQuery) {
    return this.#views.list(call, query);
  }

  async create(call: StaffCall, idempotencyKey: string, body: AdjustmentBody) {
    const player = await this.#player(call, body);
    const requestHash = sha256Hex(canonicalJson(body));
    // A key is the staff member's own: another's same key is another adjustment.
    const key = { tenantId: player.tenant_id, staffId: call.staff.id, key: idempotencyKey };
    const replay = async () => {
      const earlier = (await store.findAdjustmentByKey(this.#deps.db, key))!;
      if (earlier.request_hash !== requestHash) {
        throw idempotencyErrors.idempotency_mismatch(
          { reason: 'body' },
          'This Idempotency-Key made another adjustment; use a new key for a new adjustment.',
        );
      }
      return { adjustment: await this.#views.view(earlier), replayed: true };
    };
    if (await store.findAdjustmentByKey(this.#deps.db, key)) return replay();
    const policy = await this.#deps.tenants.get(player.tenant_id);
    checkWithinMaximum(policy, body.amount);
    const aboveAlone = body.amount > policy.adjustment_approval_above;
    // Money may move: like a first stake, a first adjustment owed locks the tenant's wallet identity for good.
    const tenant = aboveAlone ? policy : await this.#deps.tenants.forMoneyMovement(player.tenant_id);
    try {
      const adjustment = await inTransaction(this.#deps.db, async (tx) => {
        const needsApproval = aboveAlone || (await this.#splitPastThreshold(tx, call, tenant, player.id, body.amount));
        const row = newAdjustment({
          tenant_id: tenant.id,
          player_id: player.id,
          direction: body.direction,
          amount: body.amount,
          reason: body.reason,
          made_by: 'staff',
          staff_id: call.staff.id,
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          created_at: this.#deps.clock.now(),
          status: needsApproval ? 'proposed' : 'approved',
        });
        if (!needsApproval)
          row.obligation_id = await oweAdjustment(this.#deps.ledger, tx, tenant, row, player.external_id);
        if (!(await store.insertAdjustment(tx, row))) throw new KeyTaken();
        await this.#record(tx, call, needsApproval ? 'adjustment.propose' : 'adjustment.create', row, {
          reason: body.reason,
          approvalAbove: policy.adjustment_approval_above,
        });
        return row;
      });
      if (adjustment.status === 'approved') this.#deps.delivery.wake();
      return { adjustment: await this.#views.view(adjustment), replayed: false };
    } catch (error) {
      if (error instanceof KeyTaken) return replay();
      throw error;
    }
  }

  /** The player an adjustment names: by our id, or by the casino's in the caller's tenant (or the one named). */
  #player(call: StaffCall, body: AdjustmentBody) {
    const { integration } = this.#deps;
    if (body.playerId !== undefined && body.externalPlayerId !== undefined) {
      throw validationError('externalPlayerId', 'Name the player once: playerId or externalPlayerId, not both.');
    }
    if (body.playerId !== undefined) return integration.visiblePlayer(call, body.playerId);
    if (body.externalPlayerId === undefined) {
      throw validationError('playerId', "Name the player: playerId (pl_…) or externalPlayerId (the casino's id).");
    }
    const tenantId = body.tenantId ?? call.staff.tenantId ?? undefined;
    if (tenantId === undefined) {
      throw validationError('tenantId', "Name the tenant of the casino's player id.");
    }
    return integration.visiblePlayerByExternalId(call, tenantId, body.externalPlayerId);
  }

  /**
   * Four eyes cannot be dodged by splitting: what one staff member approved alone in the last 24 hours, or what was
   * approved alone for the player, plus this amount, above the threshold needs a second staff member too. The
   * tenant's adjustments are serialised so that two made at once see each other.
   */
  async #splitPastThreshold(tx: Tx, call: StaffCall, tenant: Tenant, playerId: string, amount: number) {
    await store.lockAdjustmentsOf(tx, tenant.id);
    const since = new Date(this.#deps.clock.now().getTime() - SPLIT_WINDOW_MS);
    const recent = await store.autoApprovedSince(tx, { tenantId: tenant.id, staffId: call.staff.id, playerId, since });
    return Math.max(recent.byStaff, recent.forPlayer) + amount > tenant.adjustment_approval_above;
  }

  /** A second staff member approves a proposed adjustment: its movement is owed now. */
  async approve(call: StaffCall, id: string, reason: string | undefined) {
    const proposed = await this.#proposedFor(call, id, 'approve');
    const player = await this.#deps.integration.visiblePlayer(call, proposed.player_id);
    const tenant = await this.#deps.tenants.forMoneyMovement(proposed.tenant_id);
    checkWithinMaximum(tenant, proposed.amount);
    const decided = await inTransaction(this.#deps.db, async (tx) => {
      const adjustment = await this.#lockProposed(tx, id);
      const obligationId = await oweAdjustment(this.#deps.ledger, tx, tenant, adjustment, player.external_id);
      return this.#decide(tx, call, adjustment, 'approved', reason ?? null, obligationId);
    });
    this.#deps.delivery.wake();
    return { adjustment: await this.#views.view(decided) };
  }

  /** A second staff member rejects a proposed adjustment: nothing is owed, ever. */
  async reject(call: StaffCall, id: string, reason: string) {
    await this.#proposedFor(call, id, 'reject');
    const decided = await inTransaction(this.#deps.db, async (tx) => {
      const adjustment = await this.#lockProposed(tx, id);
      return this.#decide(tx, call, adjustment, 'rejected', reason, null);
    });
    return { adjustment: await this.#views.view(decided) };
  }

  /**
   * The adjustment, if the caller may see it and decide it: another staff member than the one who proposed it
   * (a refused attempt of the proposer's is audited).
   */
  async #proposedFor(call: StaffCall, id: string, action: 'approve' | 'reject'): Promise<Adjustment> {
    const adjustment = await store.findAdjustment(this.#deps.db, id);
    const scope = tenantScope(call.staff);
    if (!adjustment || (scope !== null && adjustment.tenant_id !== scope)) throw notFound('Adjustment');
    if (adjustment.status !== 'proposed') throw walletErrors.adjustment_not_proposed({ status: adjustment.status });
    if (adjustment.staff_id === call.staff.id) {
      await this.#deps.audit.record(this.#deps.db, {
        actor: { type: 'staff', id: call.staff.id },
        action: `adjustment.${action}`,
        target: { type: 'adjustment', id },
        outcome: 'denied',
        ip: call.ip,
        details: { reason: 'second_approver_required', tenantId: adjustment.tenant_id },
      });
      throw walletErrors.second_approver_required();
    }
    return adjustment;
  }

  async #lockProposed(tx: Tx, id: string): Promise<Adjustment> {
    const adjustment = (await store.findAdjustment(tx, id, true))!;
    if (adjustment.status !== 'proposed') throw walletErrors.adjustment_not_proposed({ status: adjustment.status });
    return adjustment;
  }

  async #decide(
    tx: Tx,
    call: StaffCall,
    adjustment: Adjustment,
    status: Extract<AdjustmentState, 'approved' | 'rejected'>,
    reason: string | null,
    obligationId: string | null,
  ): Promise<Adjustment> {
    if (!ADJUSTMENT_TRANSITIONS[adjustment.status].includes(status)) {
      throw walletErrors.adjustment_not_proposed({ status: adjustment.status });
    }
    const decision = {
      status,
      decided_by: call.staff.id,
      decided_at: this.#deps.clock.now(),
      decision_reason: reason,
      obligation_id: obligationId,
    };
    if (!(await store.decideAdjustment(tx, adjustment.id, decision))) {
      throw walletErrors.adjustment_not_proposed({ status: adjustment.status });
    }
    const action = status === 'approved' ? 'adjustment.approve' : 'adjustment.reject';
    await this.#record(tx, call, action, adjustment, { reason, proposedBy: adjustment.staff_id });
    return { ...adjustment, ...decision };
  }

  #record(tx: Tx, call: StaffCall, action: string, adjustment: Adjustment, details: Record<string, unknown>) {
    return this.#deps.audit.record(tx, {
      actor: { type: 'staff', id: call.staff.id },
      action,
      target: { type: 'player', id: adjustment.player_id },
      outcome: 'success',
      ip: call.ip,
      // the tenant named, so that its operators read every action on its money, a platform administrator's too
      details: {
        tenantId: adjustment.tenant_id,
        adjustmentId: adjustment.id,
        direction: adjustment.direction,
        amount: adjustment.amount,
        ...details,
      },
    });
  }
}

export function checkWithinMaximum(tenant: Tenant, amount: number): void {
  if (amount > tenant.max_adjustment) {
    throw walletErrors.adjustment_above_maximum({ maxAmount: tenant.max_adjustment, amount });
  }
}

/** The adjustment's movement, owed in the caller's transaction; returns its obligation id. */
export async function oweAdjustment(
  ledger: Ledger,
  tx: Tx,
  tenant: Tenant,
  adjustment: Adjustment,
  externalPlayerId: string,
): Promise<string> {
  const obligation = await ledger.oweAdjustment(tx, {
    id: adjustment.id,
    tenantId: tenant.id,
    walletUrl: tenant.wallet_url,
    currency: tenant.currency,
    playerId: adjustment.player_id,
    externalPlayerId,
    direction: adjustment.direction,
    amount: adjustment.amount,
  });
  return obligation.id;
}
