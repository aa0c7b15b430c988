import type { Clock } from '../platform/clock.ts';
import { sha256Hex } from '../platform/crypto.ts';
import { CommittedCache } from '../platform/db/committed-cache.ts';
import { onTransactionEnd, type Db, type Queryable, type Tx } from '../platform/db/database.ts';
import { platformErrors, type ErrorFactory } from '../platform/errors.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import { integrationErrors } from './errors.ts';
import { playerRecord, playerRefusal } from './records.ts';
import { idleMs, idleTimeoutMinutes } from './session-timeouts.ts';
import * as playerStore from './store/players.ts';
import * as sessionStore from './store/sessions.ts';
import type { PlayerStatus, SessionEndReason } from './tables.ts';
import { checkAvailable, namedTenant } from './tenant-key.ts';

/** What a live session check can refuse with (besides an unknown token), for the API documents. */
export const SESSION_ERRORS: readonly ErrorFactory[] = [
  integrationErrors.session_expired,
  integrationErrors.account_blocked,
  integrationErrors.account_paused,
  integrationErrors.account_closed,
  integrationErrors.unavailable,
];

/** Activity is recorded at most this often per session. */
const ACTIVITY_GRANULARITY_MS = 10_000;
/**
 * How long a session found live is trusted from memory at most. Every change that ends a session or restricts a
 * player goes through this class, which forgets the remembered sessions at once, so this bound only matters for
 * a change made by hand in the database.
 */
const REMEMBERED_SESSION_MS = 5_000;
/** Sessions remembered at most (the least recently used go first): a few MiB. */
const REMEMBERED_SESSIONS = 20_000;

type FoundSession = NonNullable<Awaited<ReturnType<typeof sessionStore.findSessionByToken>>>;

/** What is needed to tell whether a session is over, and why. */
interface SessionTimes {
  id: string;
  ended_at: Date | null;
  expires_at: Date;
  last_activity_at: Date;
}

type SessionsDeps = { db: Db; clock: Clock; tenants: TenantService };

/** Which sessions just ended: one (logout, expiry noticed), a player's (restriction), or tenants' (suspension). */
export type EndedSessions = { sessionId: string } | { playerId: string } | { tenantIds: string[] };

/**
 * Player sessions once opened (launch.ts opens them): checked on every player call (remembered a moment when
 * live), kept alive by activity, ended by logout, expiry, a player's restriction or a tenant's suspension.
 */
export class Sessions {
  readonly #deps: SessionsDeps;
  /** Live sessions by token hash, so a player's call need not read its session: only a live answer is trusted. */
  readonly #remembered = new CommittedCache<FoundSession>({ max: REMEMBERED_SESSIONS, ttlMs: REMEMBERED_SESSION_MS });
  readonly #endedListeners: Array<(ended: EndedSessions) => void> = [];

  constructor(deps: SessionsDeps) {
    this.#deps = deps;
  }

  /**
   * Any authenticated player call: the session must be alive, and the call counts as activity unless the app made
   * it in the background (X-Player-Activity). Logout needs only a live session, so a restricted player can still
   * end it.
   */
  async authenticate(
    token: string,
    options: { forLogout?: boolean; background?: boolean } = {},
  ): Promise<SessionPrincipal> {
    const now = this.#deps.clock.now();
    const tokenHash = sha256Hex(token);
    const found = await this.#session(tokenHash, now);
    if (!found) throw platformErrors.unauthorized(undefined, 'The session token is not valid.');
    const tenant = await this.#deps.tenants.current(found.tenantId);
    const idle = idleMs(tenant.jurisdiction);
    const idleCutoff = new Date(now.getTime() - idle);
    if (isOver(found, now, idleCutoff)) {
      await this.endIfOver(
        {
          id: found.sessionId,
          ended_at: found.endedAt,
          expires_at: found.expiresAt,
          last_activity_at: found.lastActivityAt,
        },
        now,
        idleCutoff,
      );
      throw integrationErrors.session_expired();
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
      stakeFactorBp: found.stakeFactorBp,
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
    await sessionStore.touchSession(this.#deps.db, found.sessionId, now);
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
      const tenant = await this.#deps.tenants.current(remembered.tenantId);
      if (!isOver(remembered, now, new Date(now.getTime() - idleMs(tenant.jurisdiction)))) return remembered;
    }
    return this.#remembered.read(
      tokenHash,
      () => sessionStore.findSessionByToken(this.#deps.db, tokenHash),
      (found) => !found.endedAt,
    );
  }

  /**
   * Tells `listener` which sessions ended once the ending is committed (the stream stops a player's topics at
   * once); a session that merely expires is noticed by whoever checks it next.
   */
  whenEnded(listener: (ended: EndedSessions) => void): void {
    this.#endedListeners.push(listener);
  }

  /** A player's limits changed (a stake factor): its sessions are read again, with them, on their next call. */
  playerLimitsChanged(tx: Tx): void {
    this.#sessionsChanged(tx);
  }

  /** Forgets every remembered session now and when the transaction of `q` ends, when others can see the change. */
  #sessionsChanged(q: Queryable, ended?: EndedSessions): void {
    this.#remembered.changed(q);
    if (ended) onTransactionEnd(q, () => this.#endedListeners.forEach((listener) => listener(ended)));
  }

  /**
   * Records why a session that is over ended (idle or absolute expiry), the first time anyone notices: a player's
   * call, or the launch exchange of one of its tokens.
   */
  async endIfOver(session: SessionTimes, now: Date, idleCutoff: Date): Promise<void> {
    if (session.ended_at) return;
    if (session.expires_at <= now) await this.#endSession(session.id, now, 'expired');
    else if (session.last_activity_at <= idleCutoff) await this.#endSession(session.id, now, 'idle');
  }

  async #endSession(sessionId: string, now: Date, reason: SessionEndReason): Promise<void> {
    await sessionStore.endSession(this.#deps.db, sessionId, now, reason);
    this.#sessionsChanged(this.#deps.db, { sessionId });
  }

  /**
   * A session a long-lived reader (the change stream) holds, looked at again without its token: the same principal
   * with its idle end moved to its last activity, or undefined when it is over or may no longer play. Never activity.
   */
  async stillLive(principal: SessionPrincipal): Promise<SessionPrincipal | undefined> {
    const now = this.#deps.clock.now();
    const session = await sessionStore.findSession(this.#deps.db, principal.sessionId);
    const player = await playerStore.findPlayer(this.#deps.db, principal.playerId);
    const tenant = await this.#deps.tenants.current(principal.tenantId);
    const idle = idleMs(tenant.jurisdiction);
    if (!session || session.ended_at || session.expires_at <= now) return undefined;
    if (session.last_activity_at.getTime() <= now.getTime() - idle) return undefined;
    if (player?.status !== 'active' || tenant.status !== 'active') return undefined;
    return { ...principal, idleExpiresAt: new Date(session.last_activity_at.getTime() + idle) };
  }

  async info(principal: SessionPrincipal) {
    const player = (await playerStore.findPlayer(this.#deps.db, principal.playerId))!;
    const tenant = await namedTenant(this.#deps.tenants, principal.tenantId);
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
    await this.#endSession(principal.sessionId, this.#deps.clock.now(), 'logout');
  }

  /** Ends every open session of the tenants, inside the transaction that suspends them. */
  async endSessionsOfTenants(tx: Tx, tenantIds: string[]): Promise<void> {
    this.#sessionsChanged(tx, { tenantIds });
    await sessionStore.endOpenSessions(tx, { tenantIds }, this.#deps.clock.now(), 'suspended');
  }

  /**
   * Inside the transaction that changes a player's status: the remembered sessions carry the old status, so they
   * are forgotten; a player who may no longer play has every open session ended.
   */
  async playerStatusChanged(tx: Tx, playerId: string, status: PlayerStatus): Promise<void> {
    this.#sessionsChanged(tx, status === 'active' ? undefined : { playerId });
    if (status !== 'active') await sessionStore.endOpenSessions(tx, { playerId }, this.#deps.clock.now(), 'restricted');
  }
}

/** Ended, past its absolute expiry, or idle since before the cutoff. */
function isOver(found: FoundSession, now: Date, idleCutoff: Date): boolean {
  return found.endedAt !== null || found.expiresAt <= now || found.lastActivityAt <= idleCutoff;
}
