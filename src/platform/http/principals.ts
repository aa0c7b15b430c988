/**
 * Who is calling: one principal type per credential. Types only, so every domain can name them without
 * depending on the domain that authenticates them.
 */

export const STAFF_ROLES = ['platform_admin', 'trader', 'operator'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** Roles bound to exactly one tenant; the others work across tenants and are bound to none. */
export const TENANT_BOUND_ROLES: readonly StaffRole[] = ['operator'];

export const AGGREGATOR_SCOPES = ['clients:read', 'clients:create', 'clients:activate', 'credentials:rotate'] as const;
export type AggregatorScope = (typeof AGGREGATOR_SCOPES)[number];

/** A staff member behind a staff token (admin API). */
export interface StaffPrincipal {
  id: string;
  email: string;
  role: StaffRole;
  /** The one tenant of an operator; null for platform roles. */
  tenantId: string | null;
  sessionExpiresAt: Date;
  /** When the session ends if no other request comes (idle timeout), unless sessionExpiresAt comes first. */
  idleExpiresAt: Date;
}

/** A staff member's request, as services need it for the audit trail. */
export interface StaffCall {
  staff: StaffPrincipal;
  ip: string;
}

/** A player behind a session token (iframe calls). */
export interface SessionPrincipal {
  sessionId: string;
  playerId: string;
  /** The casino's id of the player: the playerId of every wallet call. */
  externalPlayerId: string;
  tenantId: string;
  expiresAt: Date;
  idleExpiresAt: Date;
  idleTimeoutMinutes: number;
  /** The share of the tenant's maximum stake the player may stake, in basis points (10,000: all of it). */
  stakeFactorBp: number;
}

/** A feed producer's process behind its feed key. */
export interface ProducerPrincipal {
  producerId: string;
  /** Its results and cancellations settle markets without a trader. */
  trusted: boolean;
}

/** An aggregator's server behind an aggregator key. */
export interface AggregatorPrincipal {
  aggregatorId: string;
  keyId: string;
  scopes: AggregatorScope[];
}

/**
 * A casino's server behind X-Tenant-ID and its integration key: its tenant, as the tenants domain describes it
 * (tenants/tables.ts adds the tenant's columns here, so the platform imports no domain).
 */
export interface TenantPrincipal {
  id: string;
}
