/**
 * Which staff may do what, and on which tenant: the role-to-permission table and the tenant a staff member's reads and
 * changes are bound to. Services and routes ask for a permission, never for a role.
 */
import { platformErrors } from '../errors.ts';
import type { StaffPrincipal, StaffRole } from './principals.ts';

/** Which roles hold each permission. */
const PERMISSIONS = {
  /** Aggregators, clients, any tenant, a tenant's wallet identity and status. */
  platform: ['platform_admin'],
  /** The catalog: sports, events, markets, odds. */
  trading: ['trader', 'platform_admin'],
  /** One tenant's settings, credentials, players and bets: operators their own, the platform any. */
  tenant: ['operator', 'platform_admin'],
  /** A player's limits (the stake factor): traders for any tenant, operators their own. */
  risk: ['trader', 'operator', 'platform_admin'],
  /** A staff member's own account. */
  self: ['platform_admin', 'trader', 'operator'],
} as const satisfies Record<string, readonly StaffRole[]>;
export type Permission = keyof typeof PERMISSIONS;

/** The roles that hold a permission, as a refusal names them. */
export function rolesFor(permission: Permission): readonly StaffRole[] {
  return PERMISSIONS[permission];
}

export function allows(staff: StaffPrincipal, permission: Permission): boolean {
  return rolesFor(permission).includes(staff.role);
}

/**
 * The tenant a staff member's data reads are limited to: null (every tenant) for the platform only; anyone else
 * is bound to one tenant or sees nothing.
 */
export function tenantScope(staff: StaffPrincipal): string | null {
  if (allows(staff, 'platform')) return null;
  if (!staff.tenantId) throw platformErrors.forbidden(undefined, 'This staff account is bound to no tenant.');
  return staff.tenantId;
}

/**
 * The tenant a staff member's read is filtered to: an operator's own (naming another is 403 with `refusal`), the one
 * a platform administrator names, or null (every tenant) when the platform names none.
 */
export function tenantFilter(
  staff: StaffPrincipal,
  requested: string | undefined,
  refusal = 'Operators see their own tenant only; leave tenantId out.',
): string | null {
  const own = tenantScope(staff);
  if (own !== null && requested !== undefined && requested !== own) throw platformErrors.forbidden(undefined, refusal);
  return own ?? requested ?? null;
}

/** The tenant a tenant-settings request acts on: operators their own (may omit it), the platform must name one. */
export function targetTenant(staff: StaffPrincipal, requested: string | undefined): string {
  const own = tenantScope(staff);
  if (own !== null) {
    if (requested !== undefined && requested !== own) {
      throw platformErrors.forbidden(undefined, 'Operators manage their own tenant only.');
    }
    return own;
  }
  if (!requested) throw platformErrors.validation({ field: 'tenantId' }, 'Name the tenant with ?tenantId=.');
  return requested;
}
