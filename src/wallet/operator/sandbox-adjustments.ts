/**
 * The adjustments a sandbox tenant's own server makes through the sandbox controls (src/sandbox/controls.ts), apart
 * from the ones staff make (adjustments.ts): no second person approves them, no staff member is named, and the
 * caller's idempotent answer commits with them. They share the staff adjustments' rules where those apply: the
 * tenant's largest single adjustment, the id, and the movement owed and delivered like any other.
 */
import { canonicalJson, sha256Hex } from '../../platform/crypto.ts';
import { inTransaction, type Tx } from '../../platform/db/database.ts';
import type { AdjustmentDirection } from '../states.ts';
import type { Adjustment } from '../tables.ts';
import { checkWithinMaximum, newAdjustment, oweAdjustment, type AdjustmentsDeps } from './adjustments.ts';
import * as store from './store.ts';

/** What a sandbox tenant's server asks for (SandboxControls.adjust): the body, under its Idempotency-Key. */
interface SandboxAdjustmentRequest {
  body: { externalPlayerId: string; direction: AdjustmentDirection; amount: number; reason: string };
  idempotencyKey: string;
  ip: string;
}

/** An adjustment made, with the movement it owes the wallet. */
interface MadeAdjustment {
  adjustment: Adjustment;
  externalPlayerId: string;
  currency: string;
  owed: { txId: string; kind: 'adjustment'; endpoint: AdjustmentDirection; amount: number };
}

/** What staff adjustments need, but the staff's e-mail addresses: a sandbox's adjustments name no staff member. */
type SandboxAdjustmentsDeps = Omit<AdjustmentsDeps, 'staffEmails'>;

export class SandboxAdjustments {
  readonly #deps: SandboxAdjustmentsDeps;

  constructor(deps: SandboxAdjustmentsDeps) {
    this.#deps = deps;
  }

  /**
   * An adjustment made by a sandbox tenant's server (the sandbox controls, docs/sandbox-outcomes.md): approved at
   * once, since a sandbox has no second person to approve it and moves test money only, yet bounded by the tenant's
   * largest single adjustment like any other, and owed and delivered like any other (`adjustment:<id>`). The row
   * names its maker (`made_by` sandbox_server, no staff member); the audit row names the tenant. The player is the
   * tenant's own, by the casino's id (another tenant's is unknown). `answer` runs in the transaction that makes it,
   * so that the caller's idempotent answer commits with it. The caller has checked that the tenant is a sandbox.
   */
  async make<T>(
    tenantId: string,
    request: SandboxAdjustmentRequest,
    answer: (tx: Tx, made: MadeAdjustment) => Promise<T>,
  ): Promise<T> {
    const { body } = request;
    const player = await this.#deps.integration.playerOfTenant(tenantId, body.externalPlayerId);
    checkWithinMaximum(await this.#deps.tenants.get(tenantId), body.amount);
    // As for a staff member's: the first money owed locks the tenant's wallet identity for good.
    const tenant = await this.#deps.tenants.forMoneyMovement(tenantId);
    const result = await inTransaction(this.#deps.db, async (tx) => {
      const row = newAdjustment({
        tenant_id: tenant.id,
        player_id: player.id,
        direction: body.direction,
        amount: body.amount,
        reason: body.reason,
        made_by: 'sandbox_server',
        staff_id: null,
        idempotency_key: request.idempotencyKey,
        request_hash: sha256Hex(canonicalJson(body)),
        created_at: this.#deps.clock.now(),
        status: 'approved',
      });
      row.obligation_id = await oweAdjustment(this.#deps.ledger, tx, tenant, row, player.external_id);
      // The caller's Idempotency-Key is the tenant's and used once (a second use is a replay): a taken one is a bug.
      if (!(await store.insertAdjustment(tx, row))) throw new Error(`adjustment key ${request.idempotencyKey} taken`);
      await this.#deps.audit.record(tx, {
        actor: { type: 'tenant', id: tenant.id },
        action: 'sandbox.adjustment.create',
        target: { type: 'player', id: player.id },
        outcome: 'success',
        ip: request.ip,
        details: {
          tenantId: tenant.id,
          adjustmentId: row.id,
          externalPlayerId: player.external_id,
          direction: row.direction,
          amount: row.amount,
          reason: row.reason,
          idempotencyKey: request.idempotencyKey,
          txId: `adjustment:${row.id}`,
        },
      });
      const made: MadeAdjustment = {
        adjustment: row,
        externalPlayerId: player.external_id,
        currency: tenant.currency,
        owed: { txId: `adjustment:${row.id}`, kind: 'adjustment', endpoint: row.direction, amount: row.amount },
      };
      return answer(tx, made);
    });
    this.#deps.delivery.wake();
    return result;
  }
}
