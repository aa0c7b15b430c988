import type { AuditLog } from '../platform/audit/log.ts';
import type { Db, Tx } from '../platform/db/database.ts';
import { platformErrors, validationError, type ErrorFactory } from '../platform/errors.ts';
import type { Tenant } from '../tenants/tables.ts';
import type { TenantService } from '../tenants/service.ts';
import { integrationErrors } from './errors.ts';

/** What the integration-key check can refuse with, for the API documents. */
export const TENANT_KEY_ERRORS: readonly ErrorFactory[] = [
  platformErrors.unauthorized,
  platformErrors.not_found,
  platformErrors.validation,
  integrationErrors.unavailable,
];

type TenantKeyCheckDeps = { db: Db; audit: AuditLog; tenants: TenantService };

/** The casino's server behind X-Tenant-ID and X-API-Key (its integration key): the `auth.tenantKey()` guard. */
export class TenantKeyCheck {
  readonly #deps: TenantKeyCheckDeps;

  constructor(deps: TenantKeyCheckDeps) {
    this.#deps = deps;
  }

  /** Unknown tenant 404; missing or wrong key 401 (audited with the caller IP); suspended tenant 503. */
  async authenticate(tenantId: string | undefined, apiKey: string | undefined, ip: string): Promise<Tenant> {
    const tenant = await namedTenant(this.#deps.tenants, tenantId);
    const authenticated = apiKey ? await this.#deps.tenants.authenticateIntegrationKey(tenant.id, apiKey) : undefined;
    if (!authenticated) {
      await this.#deps.audit.record(this.#deps.db, {
        actor: { type: 'anonymous' },
        action: 'integration.authenticate',
        target: { type: 'tenant', id: tenant.id },
        outcome: 'denied',
        ip,
        details: { reason: apiKey ? 'wrong_key' : 'missing_key' },
      });
      throw platformErrors.unauthorized(undefined, 'X-API-Key is missing or not the integration key of this tenant.');
    }
    return checkAvailable(authenticated);
  }
}

/**
 * The tenant a call names (X-Tenant-ID, or a session's): read inside `q` when given, from the tenant cache
 * otherwise. An unknown tenant is 404.
 */
export async function namedTenant(tenants: TenantService, tenantId: string | undefined, q?: Tx): Promise<Tenant> {
  if (!tenantId) throw validationError('x-tenant-id', 'Name the tenant with the X-Tenant-ID header.');
  return q ? tenants.get(tenantId, q) : tenants.current(tenantId);
}

/** A suspended tenant's players and server are answered 503 unavailable. */
export function checkAvailable(tenant: Tenant): Tenant {
  if (tenant.status !== 'active') throw integrationErrors.unavailable();
  return tenant;
}
