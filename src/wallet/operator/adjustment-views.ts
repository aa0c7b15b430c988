import type { Db } from '../../platform/db/database.ts';
import { tenantFilter } from '../../platform/http/permissions.ts';
import { cursorAfter, keysetPage } from '../../platform/http/cursor.ts';
import type { StaffCall } from '../../platform/http/principals.ts';
import type { IntegrationService } from '../../integration/service.ts';
import type { TenantService } from '../../tenants/service.ts';
import type { Adjustment } from '../tables.ts';
import { ADJUSTMENTS_PAGE, type AdjustmentsQuery, type AdjustmentView } from '../schemas.ts';
import * as store from './store.ts';
import * as ledgerStore from '../ledger/store.ts';

type AdjustmentViewsDeps = {
  db: Db;
  tenants: TenantService;
  integration: IntegrationService;
  staffEmails: (ids: string[]) => Promise<Map<string, string>>;
};

/** Adjustments as staff see them: with their tenant's currency, the decision, and the movement owed once approved. */
export class AdjustmentViews {
  readonly #deps: AdjustmentViewsDeps;

  constructor(deps: AdjustmentViewsDeps) {
    this.#deps = deps;
  }

  /** Adjustments of the caller's tenant (platform: any, or the one named), newest first: the approvals queue. */
  async list(call: Pick<StaffCall, 'staff'>, query: AdjustmentsQuery) {
    const tenantId = tenantFilter(call.staff, query.tenantId);
    if (query.tenantId !== undefined) await this.#deps.tenants.get(query.tenantId);
    const limit = query.limit ?? ADJUSTMENTS_PAGE;
    const rows = await store.listAdjustments(this.#deps.db, {
      tenantId,
      status: query.status,
      playerId: query.player,
      after: cursorAfter(query.cursor),
      order: query.order,
      limit,
    });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.created_at, id: row.id }));
    return { adjustments: await this.views(page), nextCursor };
  }

  async view(adjustment: Adjustment): Promise<AdjustmentView> {
    return (await this.views([adjustment]))[0]!;
  }

  async views(adjustments: Adjustment[]): Promise<AdjustmentView[]> {
    const owed = adjustments.flatMap((adjustment) => (adjustment.obligation_id ? [adjustment.obligation_id] : []));
    const obligations = new Map((await ledgerStore.findObligations(this.#deps.db, owed)).map((row) => [row.id, row]));
    const tenantIds = [...new Set(adjustments.map((adjustment) => adjustment.tenant_id))];
    const externalIds = await this.#deps.integration.externalIdsOf(adjustments.map((one) => one.player_id));
    const emails = await this.#deps.staffEmails(
      adjustments.flatMap((one) => [
        ...(one.staff_id ? [one.staff_id] : []),
        ...(one.decided_by ? [one.decided_by] : []),
      ]),
    );
    const currencies = new Map(
      await Promise.all(tenantIds.map(async (id) => [id, (await this.#deps.tenants.get(id)).currency] as const)),
    );
    return adjustments.map((adjustment) => {
      const obligation = adjustment.obligation_id ? obligations.get(adjustment.obligation_id) : undefined;
      return {
        id: adjustment.id,
        tenantId: adjustment.tenant_id,
        playerId: adjustment.player_id,
        externalPlayerId: externalIds.get(adjustment.player_id)!,
        direction: adjustment.direction,
        amount: adjustment.amount,
        currency: currencies.get(adjustment.tenant_id)!,
        reason: adjustment.reason,
        madeBy: adjustment.made_by,
        createdBy: adjustment.staff_id,
        createdByEmail: adjustment.staff_id ? (emails.get(adjustment.staff_id) ?? null) : null,
        createdAt: adjustment.created_at.toISOString(),
        status: adjustment.status,
        decision:
          adjustment.decided_by && adjustment.decided_at
            ? {
                by: adjustment.decided_by,
                byEmail: emails.get(adjustment.decided_by) ?? null,
                at: adjustment.decided_at.toISOString(),
                reason: adjustment.decision_reason,
              }
            : null,
        movement: obligation ? { txId: obligation.tx_id, status: obligation.status } : null,
      };
    });
  }
}
