import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import type { Db, Tx } from '../platform/db/database.ts';
import type { SessionPrincipal, StaffCall } from '../platform/http/principals.ts';
import type { Tenant } from '../tenants/tables.ts';
import type { TenantService } from '../tenants/service.ts';
import { publicConfig } from './config.ts';
import { Launch } from './launch.ts';
import { Players } from './players.ts';
import type { PublicConfig } from './schemas.ts';
import { Sessions } from './sessions.ts';
import type { Player } from './tables.ts';
import { TenantKeyCheck } from './tenant-key.ts';

// What the two guards below can refuse with, for the API documents: beside the checks, for app.ts to hand to auth.
export { SESSION_ERRORS } from './sessions.ts';
export { TENANT_KEY_ERRORS } from './tenant-key.ts';

/**
 * The integration domain, built from its dependencies. Its use cases, which routes.ts calls: `launch` (a session
 * opened by the casino's server, the iframe's launch exchange), `sessions` (a session's life once open) and `players`
 * (a player's status). The methods below are what the rest of the service asks of integration (the auth guards,
 * other domains, the tenants' listener, a periodic job), one call each, so that none depends on how it is split.
 */
export class IntegrationService {
  readonly launch: Launch;
  readonly sessions: Sessions;
  readonly players: Players;
  readonly #tenantKey: TenantKeyCheck;
  readonly #tenants: TenantService;

  constructor(deps: {
    db: Db;
    clock: Clock;
    audit: AuditLog;
    tenants: TenantService;
    sportsbookUrl: string | undefined;
  }) {
    this.#tenants = deps.tenants;
    this.sessions = new Sessions(deps);
    this.launch = new Launch({ ...deps, sessions: this.sessions });
    this.players = new Players({ ...deps, sessions: this.sessions });
    this.#tenantKey = new TenantKeyCheck(deps);
  }

  /** The `auth.tenantKey()` guard: the casino's server behind X-Tenant-ID and X-API-Key. */
  authenticateTenant(tenantId: string | undefined, apiKey: string | undefined, ip: string): Promise<Tenant> {
    return this.#tenantKey.authenticate(tenantId, apiKey, ip);
  }

  /** The `auth.player()` guard: a live session, its call counted as activity unless made in the background. */
  authenticateSession(
    token: string,
    options?: { forLogout?: boolean; background?: boolean },
  ): Promise<SessionPrincipal> {
    return this.sessions.authenticate(token, options);
  }

  /** For staff reads of a player's data in other domains (bets, adjustments). */
  visiblePlayer(call: Pick<StaffCall, 'staff'>, playerId: string): Promise<Player> {
    return this.players.visiblePlayer(call, playerId);
  }

  /** For staff reads of a player's data in other domains, by the casino's own id of the player in a tenant. */
  visiblePlayerByExternalId(call: Pick<StaffCall, 'staff'>, tenantId: string, externalId: string): Promise<Player> {
    return this.players.visiblePlayerByExternalId(call, tenantId, externalId);
  }

  /** A player by the casino's own id, for its own server (the sandbox's adjustments): another tenant's is unknown. */
  playerOfTenant(tenantId: string, externalId: string): Promise<Player> {
    return this.players.ofTenant(tenantId, externalId);
  }

  /** The casino's own ids of these players (what staff know them by), for other domains' views. */
  externalIdsOf(playerIds: string[]): Promise<Map<string, string>> {
    return this.players.externalIdsOf(playerIds);
  }

  /** GET /api/v1/config, and the frame policy of the embed pages. */
  publicConfig(tenantId: string | undefined): Promise<Static<typeof PublicConfig>> {
    return publicConfig(this.#tenants, tenantId);
  }

  /** The tenants' suspension listener, inside the transaction that suspends them. */
  endSessionsOfTenants(tx: Tx, tenantIds: string[]): Promise<void> {
    return this.sessions.endSessionsOfTenants(tx, tenantIds);
  }

  /** The periodic purge of launch records. */
  purgeLaunchRecords(): Promise<number> {
    return this.launch.purgeRecords();
  }
}
