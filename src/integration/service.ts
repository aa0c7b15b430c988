import { randomBytes } from 'node:crypto';
import type { Static } from 'typebox';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex } from '../platform/crypto.ts';
import { CommittedCache } from '../platform/db/committed-cache.ts';
import { inTransaction, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import type { Tenant } from '../tenants/tables.ts';
import type { Player, PlayerStatus, SessionEndReason } from './tables.ts';
import { notFound, platformErrors, validationError, type ErrorFactory } from '../platform/errors.ts';
import { tenantScope } from '../platform/http/auth.ts';
import type { SessionPrincipal, StaffCall } from '../platform/http/principals.ts';
import { integrationErrors } from './errors.ts';
import { LOCALES } from '../tenants/schemas.ts';
import type { TenantService } from '../tenants/service.ts';
import type { PlayerRecord, PublicConfig, SessionRequest } from './schemas.ts';
import * as store from './store.ts';

const LAUNCH_TOKEN_TTL_MS = 120_000;
const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
const LAUNCH_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Contract: idle timeout 60 min, 30 min for Brazil. */
const idleTimeoutMinutes = (jurisdiction: string): number => (jurisdiction === 'BR' ? 30 : 60);
const idleMs = (jurisdiction: string) => idleTimeoutMinutes(jurisdiction) * 60_000;

const newPlayerId = () => `pl_${randomBytes(8).toString('hex')}`;
const newSessionId = () => `ps_${randomBytes(8).toString('hex')}`;

const sessionExpired = () => integrationErrors.session_expired();

/** What a live session check can refuse with (besides an unknown token), for the API documents. */
export const SESSION_ERRORS: readonly ErrorFactory[] = [
  integrationErrors.session_expired,
  integrationErrors.account_blocked,
  integrationErrors.account_paused,
  integrationErrors.account_closed,
  integrationErrors.unavailable,
];

/** What the integration-key check can refuse with, for the API documents. */
export const TENANT_KEY_ERRORS: readonly ErrorFactory[] = [
  platformErrors.unauthorized,
  platformErrors.not_found,
  platformErrors.validation,
  integrationErrors.unavailable,
];

/** Activity is recorded at most this often per session. */
const ACTIVITY_GRANULARITY_MS = 10_000;
/**
 * How long a session found live is trusted from memory at most. Every change that ends a session or restricts a
 * player goes through this service, which forgets the remembered sessions at once, so this bound only matters for
 * a change made by hand in the database.
 */
const REMEMBERED_SESSION_MS = 5_000;
/** Sessions remembered at most (the least recently used go first): a few MiB. */
const REMEMBERED_SESSIONS = 20_000;

type FoundSession = NonNullable<Awaited<ReturnType<typeof store.findSessionByToken>>>;

/** Contract section b: player sessions opened by the casino's server, launch tokens exchanged by the iframe. */
export class IntegrationService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #audit: AuditLog;
  readonly #tenants: TenantService;
  readonly #sportsbookUrl: string | undefined;
  /** Live sessions by token hash, so a player's call need not read its session: only a live answer is trusted. */
  readonly #remembered = new CommittedCache<FoundSession>({ max: REMEMBERED_SESSIONS, ttlMs: REMEMBERED_SESSION_MS });

  constructor(deps: {
    db: Db;
    clock: Clock;
    audit: AuditLog;
    tenants: TenantService;
    sportsbookUrl: string | undefined;
  }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#audit = deps.audit;
    this.#tenants = deps.tenants;
    this.#sportsbookUrl = deps.sportsbookUrl;
  }

  /** Unknown tenant 404; missing or wrong key 401 (audited with the caller IP); suspended tenant 503. */
  async authenticateTenant(tenantId: string | undefined, apiKey: string | undefined, ip: string): Promise<Tenant> {
    const tenant = await this.#tenant(tenantId);
    const authenticated = apiKey ? await this.#tenants.authenticateIntegrationKey(tenant.id, apiKey) : undefined;
    if (!authenticated) {
      await this.#audit.record(this.#db, {
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

  async #tenant(tenantId: string | undefined, q?: Tx): Promise<Tenant> {
    if (!tenantId) throw validationError('x-tenant-id', 'Name the tenant with the X-Tenant-ID header.');
    return q ? this.#tenants.get(tenantId, q) : this.#tenants.current(tenantId);
  }

  /** Each call opens a new session; earlier sessions of the player stay valid until they end. */
  async openSession(tenant: Tenant, body: SessionRequest, requestOrigin: string) {
    if (body.currency !== undefined && body.currency !== tenant.currency) {
      throw validationError('currency', `currency must be the tenant currency ${tenant.currency}.`);
    }
    const now = this.#clock.now();
    const token = newToken('session');
    const launchToken = newToken('launch');
    const launchExpiresAt = new Date(now.getTime() + LAUNCH_TOKEN_TTL_MS);
    // body.cpf is deliberately never read past this point: it is accepted for compatibility, not kept.
    const open = () =>
      store.openSession(
        this.#db,
        {
          id: newPlayerId(),
          tenantId: tenant.id,
          externalId: body.externalPlayerId,
          displayName: body.displayName,
          now,
        },
        {
          id: newSessionId(),
          createdAt: now,
          expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_MS),
          tokenHash: sha256Hex(token),
          launchTokenHash: sha256Hex(launchToken),
          launchExpiresAt,
        },
      );
    const player = (await open()) ?? (await this.#openAfterRefusal(tenant, body.externalPlayerId, open));
    return {
      launchToken,
      launchExpiresAt: launchExpiresAt.toISOString(),
      launchUrl: this.#launchUrl(requestOrigin, tenant, launchToken, body),
      token,
      player: playerRecord(player, tenant),
    };
  }

  /**
   * The opening wrote nothing: the player exists but may not play, and is read only to say why. A player reactivated
   * in between is opened once more: no token is handed out that was not stored.
   */
  async #openAfterRefusal(tenant: Tenant, externalPlayerId: string, open: () => Promise<Player | undefined>) {
    checkPlayerMayPlay(await store.findPlayerByExternalId(this.#db, tenant.id, externalPlayerId));
    const opened = await open();
    if (opened) return opened;
    throw integrationErrors.unavailable(undefined, "The player's status changed during the request; send it again.");
  }

  #launchUrl(requestOrigin: string, tenant: Tenant, launchToken: string, body: SessionRequest): string {
    const url = new URL('/', this.#sportsbookUrl ?? requestOrigin);
    url.searchParams.set('tenant', tenant.id);
    url.searchParams.set('launch', launchToken);
    url.searchParams.set('path', body.path ?? '/');
    url.searchParams.set('locale', body.locale ?? tenant.locale);
    return url.toString();
  }

  /** The iframe's exchange: exactly one caller ever gets a session token for a launch token. */
  async exchangeLaunchToken(tenantId: string, launchToken: string, ip: string) {
    const tenant = checkAvailable(await this.#tenant(tenantId));
    const now = this.#clock.now();
    const tokenHash = sha256Hex(launchToken);
    const idleCutoff = new Date(now.getTime() - idleMs(tenant.jurisdiction));
    const token = newToken('session');
    const player = await store.exchangeLaunchToken(this.#db, {
      tokenHash,
      tenantId: tenant.id,
      now,
      idleCutoff,
      sessionTokenHash: sha256Hex(token),
    });
    if (!player) throw await this.#launchRefusal(tenant, tokenHash, now, idleCutoff, ip);
    return { token, player: playerRecord(player, tenant) };
  }

  /** Why a launch token was refused: read after the failed exchange, for the error and the audit trail. */
  async #launchRefusal(tenant: Tenant, tokenHash: string, now: Date, idleCutoff: Date, ip: string) {
    const launch = await store.findLaunchToken(this.#db, tokenHash);
    if (!launch) return integrationErrors.launch_token_invalid({ reason: 'unknown_token' });
    if (launch.tenant_id !== tenant.id) {
      return integrationErrors.launch_token_invalid(
        { reason: 'wrong_tenant' },
        'The launch token is not valid for this tenant.',
      );
    }
    if (launch.used_at) {
      await this.#audit.record(this.#db, {
        actor: { type: 'anonymous' },
        action: 'integration.launch.replay',
        target: { type: 'session', id: launch.session_id },
        outcome: 'denied',
        ip,
        details: { tenantId: tenant.id, firstUsedAt: launch.used_at.toISOString() },
      });
      return integrationErrors.launch_token_used({ reason: 'already_used' });
    }
    if (launch.expires_at < now) return integrationErrors.launch_token_expired({ reason: 'expired' });
    const session = await store.findSession(this.#db, launch.session_id);
    if (session) await this.#endIfOver(session, now, idleCutoff);
    const player = session ? await store.findPlayer(this.#db, session.player_id) : undefined;
    if (player && player.status !== 'active' && !session?.ended_at) return playerRefusal(player.status);
    return sessionExpired();
  }

  /**
   * Any authenticated player call: the session must be alive, and the call counts as activity unless the app made
   * it in the background (X-Player-Activity). Logout needs only a live session, so a restricted player can still
   * end it.
   */
  async authenticateSession(
    token: string,
    options: { forLogout?: boolean; background?: boolean } = {},
  ): Promise<SessionPrincipal> {
    const now = this.#clock.now();
    const tokenHash = sha256Hex(token);
    const found = await this.#session(tokenHash, now);
    if (!found) throw platformErrors.unauthorized(undefined, 'The session token is not valid.');
    const tenant = await this.#tenants.current(found.tenantId);
    const idle = idleMs(tenant.jurisdiction);
    const idleCutoff = new Date(now.getTime() - idle);
    if (isOver(found, now, idleCutoff)) {
      await this.#endIfOver(
        {
          id: found.sessionId,
          ended_at: found.endedAt,
          expires_at: found.expiresAt,
          last_activity_at: found.lastActivityAt,
        },
        now,
        idleCutoff,
      );
      throw sessionExpired();
    }
    if (!options.forLogout) checkAvailable(tenant);
    if (!options.forLogout && found.playerStatus !== 'active') throw playerRefusal(found.playerStatus);
    const activityAt = await this.#recordActivity(tokenHash, found, now, options.background === true);
    return {
      sessionId: found.sessionId,
      playerId: found.playerId,
      externalPlayerId: found.externalPlayerId,
      tenantId: found.tenantId,
      expiresAt: found.expiresAt,
      idleExpiresAt: new Date(activityAt.getTime() + idle),
      idleTimeoutMinutes: idleTimeoutMinutes(tenant.jurisdiction),
    };
  }

  /**
   * The session's last activity after this call. A background call is not activity; a call within
   * ACTIVITY_GRANULARITY_MS of the last recorded activity is not written again (the idle timeout, 30 or 60 min, is
   * precise to those seconds, and a player's every click does not cost a database write).
   */
  async #recordActivity(tokenHash: string, found: FoundSession, now: Date, background: boolean) {
    if (background || now.getTime() - found.lastActivityAt.getTime() < ACTIVITY_GRANULARITY_MS) {
      return found.lastActivityAt;
    }
    await store.touchSession(this.#db, found.sessionId, now);
    // The entry keeps its first expiry: remembering the activity must not extend how long a hand edit goes unseen.
    this.#remembered.update(tokenHash, { ...found, lastActivityAt: now });
    return now;
  }

  /**
   * The session of a token: from memory when it was found live a moment ago and still looks live; read otherwise.
   * A remembered session can look over when it is not (another token of it was active since), so only a live
   * answer is taken from memory; anything else is read again before a session is ended or a call refused.
   */
  async #session(tokenHash: string, now: Date): Promise<FoundSession | undefined> {
    const remembered = this.#remembered.get(tokenHash);
    if (remembered) {
      const tenant = await this.#tenants.current(remembered.tenantId);
      if (!isOver(remembered, now, new Date(now.getTime() - idleMs(tenant.jurisdiction)))) return remembered;
    }
    return this.#remembered.read(
      tokenHash,
      () => store.findSessionByToken(this.#db, tokenHash),
      (found) => !found.endedAt,
    );
  }

  /** Forgets every remembered session now and when the transaction of `q` ends, when others can see the change. */
  #sessionsChanged(q: Queryable): void {
    this.#remembered.changed(q);
  }

  /** Records why a session that is over ended (idle or absolute expiry), the first time anyone notices. */
  async #endIfOver(
    session: { id: string; ended_at: Date | null; expires_at: Date; last_activity_at: Date },
    now: Date,
    idleCutoff: Date,
  ): Promise<void> {
    if (session.ended_at) return;
    if (session.expires_at <= now) await this.#endSession(session.id, now, 'expired');
    else if (session.last_activity_at <= idleCutoff) await this.#endSession(session.id, now, 'idle');
  }

  async #endSession(sessionId: string, now: Date, reason: SessionEndReason): Promise<void> {
    await store.endSession(this.#db, sessionId, now, reason);
    this.#sessionsChanged(this.#db);
  }

  async sessionInfo(principal: SessionPrincipal) {
    const player = (await store.findPlayer(this.#db, principal.playerId))!;
    const tenant = await this.#tenant(principal.tenantId);
    return {
      player: playerRecord(player, tenant),
      session: {
        expiresAt: principal.expiresAt.toISOString(),
        idleExpiresAt: principal.idleExpiresAt.toISOString(),
        idleTimeoutMinutes: principal.idleTimeoutMinutes,
      },
    };
  }

  async logout(principal: SessionPrincipal): Promise<void> {
    await this.#endSession(principal.sessionId, this.#clock.now(), 'logout');
  }

  async publicConfig(tenantId: string | undefined): Promise<Static<typeof PublicConfig>> {
    const tenant = await this.#tenant(tenantId);
    return {
      tenant: {
        id: tenant.id,
        name: tenant.name,
        currency: tenant.currency,
        locale: tenant.locale,
        jurisdiction: tenant.jurisdiction,
        embedOrigins: tenant.embed_origins,
        available: tenant.status === 'active',
      },
      session: {
        idleTimeoutMinutes: idleTimeoutMinutes(tenant.jurisdiction),
        absoluteTimeoutHours: SESSION_ABSOLUTE_MS / 3_600_000,
      },
      locales: [...LOCALES],
      embed: { sdkUrl: '/embed/v1.js', protocolVersion: 1 },
    };
  }

  /** Platform block or a local restriction; operators act on their own tenant's players only. */
  async setPlayerStatus(call: StaffCall, playerId: string, status: PlayerStatus, reason: string | undefined) {
    return inTransaction(this.#db, async (tx) => {
      const player = await this.#visiblePlayer(call, playerId, tx);
      this.#sessionsChanged(tx);
      const updated = await store.setPlayerStatus(tx, playerId, status, this.#clock.now());
      if (status !== 'active') await store.endOpenSessions(tx, { playerId }, this.#clock.now(), 'restricted');
      await this.#audit.record(tx, {
        actor: { type: 'staff', id: call.staff.id },
        action: 'player.status.set',
        target: { type: 'player', id: playerId },
        outcome: 'success',
        ip: call.ip,
        details: { from: player.status, to: status, reason },
      });
      return playerRecord(updated, await this.#tenant(player.tenant_id, tx));
    });
  }

  /** A player the staff member may see: another tenant's player is answered as unknown. */
  async #visiblePlayer(call: Pick<StaffCall, 'staff'>, playerId: string, q?: Tx): Promise<Player> {
    const player = await store.findPlayer(q ?? this.#db, playerId);
    const scope = tenantScope(call.staff);
    if (!player || (scope !== null && player.tenant_id !== scope)) throw notFound('Player');
    return player;
  }

  /** For staff reads of a player's data in other domains (bets): the player, if the staff member may see it. */
  visiblePlayer(call: Pick<StaffCall, 'staff'>, playerId: string): Promise<Player> {
    return this.#visiblePlayer(call, playerId);
  }

  /** Ends every open session of the tenants, inside the transaction that suspends them. */
  async endSessionsOfTenants(tx: Tx, tenantIds: string[]): Promise<void> {
    this.#sessionsChanged(tx);
    await store.endOpenSessions(tx, { tenantIds }, this.#clock.now(), 'suspended');
  }

  async purgeLaunchRecords(): Promise<number> {
    return store.deleteOldLaunchTokens(this.#db, new Date(this.#clock.now().getTime() - LAUNCH_RETENTION_MS));
  }
}

/** Ended, past its absolute expiry, or idle since before the cutoff. */
function isOver(found: FoundSession, now: Date, idleCutoff: Date): boolean {
  return found.endedAt !== null || found.expiresAt <= now || found.lastActivityAt <= idleCutoff;
}

function checkAvailable(tenant: Tenant): Tenant {
  if (tenant.status !== 'active') throw integrationErrors.unavailable();
  return tenant;
}

function checkPlayerMayPlay(player: Player): void {
  if (player.status !== 'active') throw playerRefusal(player.status);
}

function playerRefusal(status: string) {
  switch (status) {
    case 'paused':
      return integrationErrors.account_paused();
    case 'closed':
      return integrationErrors.account_closed();
    default:
      return integrationErrors.account_blocked();
  }
}

function playerRecord(player: Player, tenant: Pick<Tenant, 'currency'>): Static<typeof PlayerRecord> {
  return {
    id: player.id,
    tenantId: player.tenant_id,
    externalId: player.external_id,
    status: player.status,
    displayName: player.display_name,
    currency: tenant.currency,
    kycStatus: player.kyc_status,
    createdAt: player.created_at.toISOString(),
  };
}
