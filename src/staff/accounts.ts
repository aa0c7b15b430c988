import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import { AppError, notFound, validationError } from '../platform/errors.ts';
import { cursorAfter, keysetPage } from '../platform/http/cursor.ts';
import type { StaffCall } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import { staffErrors } from './errors.ts';
import { staffView } from './records.ts';
import { STAFF_PAGE, type CreateStaffBody, type StaffListQuery, type StaffView } from './schemas.ts';
import type { StaffService } from './service.ts';
import * as store from './store.ts';
import type { StaffUser } from './tables.ts';

type StaffAccountsDeps = { db: Db; clock: Clock; audit: AuditLog; staff: StaffService; tenants: TenantService };

/**
 * The platform's administration of staff accounts (permission `platform`): list, create, disable and enable, reset
 * an authenticator. Each change is audited in its transaction; a change that ends sessions ends them in it too.
 */
export class StaffAccounts {
  readonly #deps: StaffAccountsDeps;

  constructor(deps: StaffAccountsDeps) {
    this.#deps = deps;
  }

  async list(query: StaffListQuery): Promise<{ staff: StaffView[]; nextCursor: string }> {
    const limit = query.limit ?? STAFF_PAGE;
    const rows = await store.listStaff(this.#deps.db, {
      role: query.role,
      tenantId: query.tenantId,
      status: query.status,
      emailContains: query.q?.trim().toLowerCase() || undefined,
      after: cursorAfter(query.cursor),
      order: query.order,
      limit,
    });
    const { page, nextCursor } = keysetPage(rows, limit, (row) => ({ at: row.created_at, id: row.id }));
    const now = this.#deps.clock.now();
    return { staff: page.map((row) => staffView(row, now)), nextCursor };
  }

  /** An account that enrols its authenticator at first sign-in; an operator's tenant must exist. */
  async create(call: StaffCall, body: CreateStaffBody): Promise<StaffView> {
    if (body.role === 'operator' && body.tenantId !== undefined && !(await this.#tenantExists(body.tenantId))) {
      throw validationError('tenantId', `There is no tenant ${body.tenantId}.`);
    }
    return this.#deps.staff.createForEnrolment(body, call);
  }

  /** Disables the account and ends its sessions; never one's own account, never the last platform administrator. */
  disable(call: StaffCall, staffId: string, reason: string | undefined): Promise<StaffView> {
    return this.#change(call, staffId, async (tx, staff, now, admins) => {
      if (staff.id === call.staff.id) throw staffErrors.cannot_disable_self();
      if (staff.status === 'disabled') return null;
      if (staff.role === 'platform_admin' && admins.filter((id) => id !== staff.id).length === 0) {
        throw staffErrors.last_platform_admin();
      }
      const disabled = await store.setStaffStatus(tx, staff.id, 'disabled');
      const sessionsEnded = await store.revokeTokensOf(tx, staff.id, now);
      return { row: disabled, action: 'staff.disable', details: { reason, sessionsEnded } };
    });
  }

  enable(call: StaffCall, staffId: string, reason: string | undefined): Promise<StaffView> {
    return this.#change(call, staffId, async (tx, staff) => {
      if (staff.status === 'active') return null;
      const enabled = await store.setStaffStatus(tx, staff.id, 'active');
      return { row: enabled, action: 'staff.enable', details: { reason } };
    });
  }

  /** The account enrols a new authenticator at its next sign-in; its sessions end now. */
  resetTotp(call: StaffCall, staffId: string, reason: string | undefined): Promise<StaffView> {
    return this.#change(call, staffId, async (tx, staff, now) => {
      const reset = await store.resetTotp(tx, staff.id);
      const sessionsEnded = await store.revokeTokensOf(tx, staff.id, now);
      return { row: reset, action: 'staff.totp.reset', details: { reason, sessionsEnded } };
    });
  }

  /** Who staff ids are, as people know them: their e-mail addresses (other domains' views name people by them). */
  emailsOf(ids: string[]): Promise<Map<string, string>> {
    return store.emailsOf(this.#deps.db, [...new Set(ids)]);
  }

  /** The accounts bound to a tenant: whose actions are that tenant's in the audit log. */
  idsOfTenant(tenantId: string): Promise<string[]> {
    return store.staffIdsOfTenant(this.#deps.db, tenantId);
  }

  /**
   * Locks the account, applies the change and audits it, in one transaction; a change that finds nothing to do
   * (null) writes nothing and answers the account as it is.
   */
  async #change(
    call: StaffCall,
    staffId: string,
    change: (
      tx: Tx,
      staff: StaffUser,
      now: Date,
      enabledAdmins: string[],
    ) => Promise<{ row: StaffUser; action: string; details: Record<string, unknown> } | null>,
  ): Promise<StaffView> {
    const now = this.#deps.clock.now();
    const row = await inTransaction(this.#deps.db, async (tx) => {
      // The enabled platform administrators are locked first and in one order, before the account: two
      // administrators disabling each other queue here instead of deadlocking, and the second sees the first's change.
      const enabledAdmins = await store.lockEnabledPlatformAdmins(tx);
      const staff = await store.findStaff(tx, staffId, { lock: true });
      if (!staff) throw notFound('Staff account');
      const changed = await change(tx, staff, now, enabledAdmins);
      if (!changed) return staff;
      await this.#deps.audit.record(tx, {
        actor: { type: 'staff', id: call.staff.id },
        action: changed.action,
        target: { type: 'staff', id: staff.id },
        outcome: 'success',
        ip: call.ip,
        details: { email: staff.email, role: staff.role, tenantId: staff.tenant_id, ...changed.details },
      });
      return changed.row;
    });
    return staffView(row, now);
  }

  async #tenantExists(tenantId: string): Promise<boolean> {
    try {
      await this.#deps.tenants.get(tenantId);
      return true;
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return false;
      throw error;
    }
  }
}
