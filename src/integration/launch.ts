import { randomBytes } from 'node:crypto';
import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex } from '../platform/crypto.ts';
import type { Db } from '../platform/db/database.ts';
import { validationError } from '../platform/errors.ts';
import type { Tenant } from '../tenants/tables.ts';
import type { TenantService } from '../tenants/service.ts';
import { integrationErrors } from './errors.ts';
import { playerRecord, playerRefusal } from './records.ts';
import type { SessionRequest } from './schemas.ts';
import { idleMs, SESSION_ABSOLUTE_MS } from './session-timeouts.ts';
import type { Sessions } from './sessions.ts';
import * as launchTokenStore from './store/launch-tokens.ts';
import * as playerStore from './store/players.ts';
import * as sessionOpeningStore from './store/session-opening.ts';
import * as sessionStore from './store/sessions.ts';
import type { Player } from './tables.ts';
import { checkAvailable, namedTenant } from './tenant-key.ts';

const LAUNCH_TOKEN_TTL_MS = 120_000;
/** Launch records are kept a day past their expiry (a replayed token is still recognised and audited), then deleted. */
const LAUNCH_RETENTION_MS = 24 * 60 * 60 * 1000;

const newPlayerId = () => `pl_${randomBytes(8).toString('hex')}`;
const newSessionId = () => `ps_${randomBytes(8).toString('hex')}`;

type LaunchDeps = {
  db: Db;
  clock: Clock;
  audit: AuditLog;
  tenants: TenantService;
  sessions: Sessions;
  sportsbookUrl: string | undefined;
};

/**
 * Contract section b, a player's way in: the casino's server opens a session and gets, besides the session's token,
 * a single-use launch token for the iframe; the iframe exchanges it for a session token of its own.
 */
export class Launch {
  readonly #deps: LaunchDeps;

  constructor(deps: LaunchDeps) {
    this.#deps = deps;
  }

  /** Each call opens a new session; earlier sessions of the player stay valid until they end. */
  async openSession(tenant: Tenant, body: SessionRequest, requestOrigin: string) {
    if (body.currency !== undefined && body.currency !== tenant.currency) {
      throw validationError('currency', `currency must be the tenant currency ${tenant.currency}.`);
    }
    const now = this.#deps.clock.now();
    const token = newToken('session');
    const launchToken = newToken('launch');
    const launchExpiresAt = new Date(now.getTime() + LAUNCH_TOKEN_TTL_MS);
    // body.cpf is deliberately never read past this point: it is accepted for compatibility, not kept.
    const open = () =>
      sessionOpeningStore.openSession(
        this.#deps.db,
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
    const player = await playerStore.findPlayerByExternalId(this.#deps.db, tenant.id, externalPlayerId);
    if (player.status !== 'active') throw playerRefusal(player.status);
    const opened = await open();
    if (opened) return opened;
    throw integrationErrors.unavailable(undefined, "The player's status changed during the request; send it again.");
  }

  #launchUrl(requestOrigin: string, tenant: Tenant, launchToken: string, body: SessionRequest): string {
    const url = new URL('/', this.#deps.sportsbookUrl ?? requestOrigin);
    url.searchParams.set('tenant', tenant.id);
    url.searchParams.set('launch', launchToken);
    url.searchParams.set('path', body.path ?? '/');
    url.searchParams.set('locale', body.locale ?? tenant.locale);
    return url.toString();
  }

  /** The iframe's exchange: exactly one caller ever gets a session token for a launch token. */
  async exchange(tenantId: string, launchToken: string, ip: string) {
    const tenant = checkAvailable(await namedTenant(this.#deps.tenants, tenantId));
    const now = this.#deps.clock.now();
    const tokenHash = sha256Hex(launchToken);
    const idleCutoff = new Date(now.getTime() - idleMs(tenant.jurisdiction));
    const token = newToken('session');
    const player = await launchTokenStore.exchangeLaunchToken(this.#deps.db, {
      tokenHash,
      tenantId: tenant.id,
      now,
      idleCutoff,
      sessionTokenHash: sha256Hex(token),
    });
    if (!player) throw await this.#refusal(tenant, tokenHash, now, idleCutoff, ip);
    return { token, player: playerRecord(player, tenant) };
  }

  /** Why a launch token was refused: read after the failed exchange, for the error and the audit trail. */
  async #refusal(tenant: Tenant, tokenHash: string, now: Date, idleCutoff: Date, ip: string) {
    const launch = await launchTokenStore.findLaunchToken(this.#deps.db, tokenHash);
    if (!launch) return integrationErrors.launch_token_invalid({ reason: 'unknown_token' });
    if (launch.tenant_id !== tenant.id) {
      return integrationErrors.launch_token_invalid(
        { reason: 'wrong_tenant' },
        'The launch token is not valid for this tenant.',
      );
    }
    if (launch.used_at) {
      await this.#deps.audit.record(this.#deps.db, {
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
    const session = await sessionStore.findSession(this.#deps.db, launch.session_id);
    if (session) await this.#deps.sessions.endIfOver(session, now, idleCutoff);
    const player = session ? await playerStore.findPlayer(this.#deps.db, session.player_id) : undefined;
    if (player && player.status !== 'active' && !session?.ended_at) return playerRefusal(player.status);
    return integrationErrors.session_expired();
  }

  /** Deletes the launch records a day past their expiry (a periodic job). */
  async purgeRecords(): Promise<number> {
    return launchTokenStore.deleteOldLaunchTokens(
      this.#deps.db,
      new Date(this.#deps.clock.now().getTime() - LAUNCH_RETENTION_MS),
    );
  }
}
