import { randomBytes } from 'node:crypto';
import type { IntegrationService } from '../integration/service.ts';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { canonicalJson, sha256Hex } from '../platform/crypto.ts';
import { inTransaction, type Db } from '../platform/db/database.ts';
import type { Adjustment } from '../platform/db/schema.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import { idempotencyErrors } from '../platform/idempotency/errors.ts';
import type { TenantService } from '../tenants/service.ts';
import type { DeliveryEngine } from './delivery.ts';
import type { Ledger } from './ledger.ts';
import type { AdjustmentBody } from './schemas.ts';
import * as store from './store.ts';

const newAdjustmentId = () => `adj_${randomBytes(8).toString('hex')}`;

/** Another request with the same Idempotency-Key committed first: answer from it. */
class KeyTaken extends Error {}

/**
 * An operator's manual credit or debit on a player (`adjustment:<id>`), with a required reason, audited. It is
 * owed and delivered like any movement; a debit follows the debit rules (all of it or insufficient_funds, which
 * holds it for review; never a partial collection). The Idempotency-Key makes a double click one adjustment.
 */
export class Adjustments {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #ledger: Ledger;
  readonly #delivery: DeliveryEngine;
  readonly #integration: IntegrationService;
  readonly #tenants: TenantService;
  readonly #audit: AuditLog;

  constructor(deps: {
    db: Db;
    clock: Clock;
    ledger: Ledger;
    delivery: DeliveryEngine;
    integration: IntegrationService;
    tenants: TenantService;
    audit: AuditLog;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#ledger = deps.ledger;
    this.#delivery = deps.delivery;
    this.#integration = deps.integration;
    this.#tenants = deps.tenants;
    this.#audit = deps.audit;
  }

  async create(call: StaffCall, idempotencyKey: string, body: AdjustmentBody) {
    const player = await this.#integration.visiblePlayer(call, body.playerId);
    // Money moves: like a first stake, a first adjustment locks the tenant's wallet identity for good.
    const tenant = await this.#tenants.forMoneyMovement(player.tenant_id);
    const requestHash = sha256Hex(canonicalJson(body));
    const replay = async () => {
      const earlier = (await store.findAdjustmentByKey(this.#db, tenant.id, idempotencyKey))!;
      if (earlier.request_hash !== requestHash) {
        throw idempotencyErrors.idempotency_mismatch(
          { reason: 'body' },
          'This Idempotency-Key made another adjustment; use a new key for a new adjustment.',
        );
      }
      return { adjustment: await this.#view(earlier, tenant.currency), replayed: true };
    };
    if (await store.findAdjustmentByKey(this.#db, tenant.id, idempotencyKey)) return replay();
    try {
      const adjustment = await inTransaction(this.#db, async (tx) => {
        const id = newAdjustmentId();
        const obligation = await this.#ledger.oweAdjustment(tx, {
          id,
          tenantId: tenant.id,
          walletUrl: tenant.wallet_url,
          currency: tenant.currency,
          playerId: player.id,
          externalPlayerId: player.external_id,
          direction: body.direction,
          amount: body.amount,
        });
        const row: Adjustment = {
          id,
          tenant_id: tenant.id,
          player_id: player.id,
          direction: body.direction,
          amount: body.amount,
          reason: body.reason,
          staff_id: call.staff.id,
          idempotency_key: idempotencyKey,
          request_hash: requestHash,
          obligation_id: obligation.id,
          created_at: this.#clock.now(),
        };
        if (!(await store.insertAdjustment(tx, row))) throw new KeyTaken();
        await this.#audit.record(tx, {
          actor: { type: 'staff', id: call.staff.id },
          action: 'adjustment.create',
          target: { type: 'player', id: player.id },
          outcome: 'success',
          ip: call.ip,
          details: { adjustmentId: id, direction: body.direction, amount: body.amount, reason: body.reason },
        });
        return row;
      });
      this.#delivery.wake();
      return { adjustment: await this.#view(adjustment, tenant.currency), replayed: false };
    } catch (error) {
      if (error instanceof KeyTaken) return replay();
      throw error;
    }
  }

  async #view(adjustment: Adjustment, currency: string) {
    const obligation = (await this.#ledger.find(this.#db, adjustment.obligation_id))!;
    return {
      id: adjustment.id,
      tenantId: adjustment.tenant_id,
      playerId: adjustment.player_id,
      direction: adjustment.direction,
      amount: adjustment.amount,
      currency,
      reason: adjustment.reason,
      createdBy: adjustment.staff_id,
      createdAt: adjustment.created_at.toISOString(),
      movement: { txId: obligation.tx_id, status: obligation.status },
    };
  }
}
