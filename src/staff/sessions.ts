import type { AuditLog } from '../platform/audit/log.ts';
import type { Clock } from '../platform/clock.ts';
import { newToken, sha256Hex } from '../platform/crypto.ts';
import { inTransaction, type Db, type Tx } from '../platform/db/database.ts';
import type { ErrorFactory } from '../platform/errors.ts';
import type { StaffPrincipal } from '../platform/http/principals.ts';
import { staffErrors } from './errors.ts';
import * as store from './store.ts';

export const STAFF_TOKEN_TTL_MS = 12 * 60 * 60 * 1000;
/** A staff session also ends after this long without a request: the one setting of the idle timeout. */
export const STAFF_IDLE_TIMEOUT_MS = 30 * 60 * 1000;
/** A token's last use is written at most this often (so at most one write a minute per token). */
const TOKEN_TOUCH_INTERVAL_MS = 60 * 1000;
const STAFF_TOKEN_RETENTION_MS = 24 * 60 * 60 * 1000;

/** What the staff token check can refuse with, for the API documents (auth.staff guards). */
export const STAFF_SESSION_ERRORS: readonly ErrorFactory[] = [staffErrors.session_expired];

export interface StaffSession {
  token: string;
  expiresAt: Date;
}

/** A new session's token and end, stored by insertSessionToken in the transaction that signs in. */
export function newSession(now: Date): StaffSession {
  return { token: newToken('staff'), expiresAt: new Date(now.getTime() + STAFF_TOKEN_TTL_MS) };
}

export function insertSessionToken(tx: Tx, session: StaffSession, staffId: string, now: Date): Promise<void> {
  const tokenHash = sha256Hex(session.token);
  return store.insertStaffToken(tx, { tokenHash, staffId, createdAt: now, expiresAt: session.expiresAt });
}

type StaffSessionsDeps = { db: Db; clock: Clock; audit: AuditLog };

/** A staff session once open: every request's token check, the log-out, the purge of stale tokens. */
export class StaffSessions {
  readonly #deps: StaffSessionsDeps;

  constructor(deps: StaffSessionsDeps) {
    this.#deps = deps;
  }

  /**
   * The staff member behind a token, or null for a token that never was one. A token that was one but has ended
   * says why (401 session_expired: idle, expired or revoked). A use is recorded at most once a minute.
   */
  async authenticate(token: string): Promise<StaffPrincipal | null> {
    const tokenHash = sha256Hex(token);
    const row = await store.findStaffToken(this.#deps.db, tokenHash);
    if (!row) return null;
    const now = this.#deps.clock.now();
    if (row.revoked_at !== null || row.status !== 'active') throw sessionEnded('revoked');
    if (row.expires_at <= now) throw sessionEnded('expired');
    if (row.last_used_at.getTime() + STAFF_IDLE_TIMEOUT_MS <= now.getTime()) throw sessionEnded('idle');
    let lastUsed = row.last_used_at;
    const notSince = new Date(now.getTime() - TOKEN_TOUCH_INTERVAL_MS);
    if (lastUsed <= notSince) {
      await store.touchStaffToken(this.#deps.db, tokenHash, now, notSince);
      lastUsed = now;
    }
    const idleExpiresAt = new Date(lastUsed.getTime() + STAFF_IDLE_TIMEOUT_MS);
    return {
      id: row.id,
      email: row.email,
      role: row.role,
      tenantId: row.tenant_id,
      sessionExpiresAt: row.expires_at,
      idleExpiresAt: idleExpiresAt < row.expires_at ? idleExpiresAt : row.expires_at,
    };
  }

  async purgeStaleTokens(): Promise<number> {
    const before = new Date(this.#deps.clock.now().getTime() - STAFF_TOKEN_RETENTION_MS);
    return store.deleteStaleStaffTokens(this.#deps.db, before, new Date(before.getTime() - STAFF_IDLE_TIMEOUT_MS));
  }

  async logout(token: string, staff: StaffPrincipal, ip: string): Promise<void> {
    await inTransaction(this.#deps.db, async (tx) => {
      await store.revokeStaffToken(tx, sha256Hex(token), this.#deps.clock.now());
      await this.#deps.audit.record(tx, {
        actor: { type: 'staff', id: staff.id },
        action: 'staff.logout',
        target: { type: 'staff', id: staff.id },
        outcome: 'success',
        ip,
      });
    });
  }
}

function sessionEnded(reason: 'idle' | 'expired' | 'revoked') {
  const messages = {
    idle: `The staff session ended after ${STAFF_IDLE_TIMEOUT_MS / 60_000} minutes without a request; sign in again.`,
    expired: 'The staff session has reached its 12-hour lifetime; sign in again.',
    revoked: 'The staff session was ended (logged out, account disabled or authenticator reset); sign in again.',
  };
  return staffErrors.session_expired({ reason }, messages[reason]);
}
