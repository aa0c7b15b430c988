import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../clock.ts';
import { canonicalJson, sha256Hex, type SecretBox } from '../crypto.ts';
import { inTransaction, type Db, type Tx } from '../db/database.ts';
import { idempotencyErrors } from './errors.ts';
import * as store from './store.ts';

const REPLAY_WINDOW_SECONDS = 86_400;
/** An in-progress claim older than this belongs to a crashed request: its effect never committed. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;
const WAIT_STEP_MS = 100;
const WAIT_STEPS = 50;

export interface IdempotencyScope {
  /** Whose keys these are, e.g. `aggregator:<id>`: keys of different callers never meet. */
  scope: string;
  key: string;
  /** The API credential that sent the request; a retry with another one is refused. */
  credentialId: string;
  /** The operation and its exact target, e.g. `POST /clients/cl_1/activate`. */
  operation: string;
  body: unknown;
}

export interface StoredResponse {
  status: number;
  body: unknown;
}

export type Claim = { kind: 'execute' } | { kind: 'replay'; response: StoredResponse };

type IdempotencyServiceDeps = { db: Db; clock: Clock; secrets: SecretBox };

/**
 * Idempotency-Key handling: the first request claims the key; its effect and its encrypted response commit in
 * one transaction (complete), so a response is stored exactly when the effect happened. A failed attempt
 * releases the claim (nothing committed). Records stay after the 24 h window so an old retry never runs again.
 */
export class IdempotencyService {
  readonly #deps: IdempotencyServiceDeps;

  constructor(deps: IdempotencyServiceDeps) {
    this.#deps = deps;
  }

  async claim(request: IdempotencyScope): Promise<Claim> {
    const requestHash = hashRequest(request);
    for (let step = 0; step < WAIT_STEPS; step++) {
      const claim = await this.#tryClaim(request, requestHash);
      if (claim !== 'in_progress') return claim;
      await sleep(WAIT_STEP_MS);
    }
    throw idempotencyErrors.idempotency_in_progress();
  }

  #tryClaim(request: IdempotencyScope, requestHash: string): Promise<Claim | 'in_progress'> {
    const now = this.#deps.clock.now();
    return inTransaction(this.#deps.db, async (tx) => {
      const claimed = await store.insertClaim(tx, {
        scope: request.scope,
        idempotency_key: request.key,
        credential_id: request.credentialId,
        request_hash: requestHash,
        state: 'in_progress',
        created_at: now,
        expires_at: new Date(now.getTime() + REPLAY_WINDOW_SECONDS * 1000),
      });
      if (claimed) return { kind: 'execute' as const };

      const record = await store.lockRecord(tx, request);
      if (record.request_hash !== requestHash) {
        throw mismatch('body', 'This Idempotency-Key was used with a different request body or operation.');
      }
      if (record.credential_id !== request.credentialId) {
        throw mismatch('credential', 'This Idempotency-Key was used with a different API credential.');
      }
      if (record.state === 'in_progress') {
        if (now.getTime() - record.created_at.getTime() < ABANDONED_AFTER_MS) return 'in_progress';
        await store.renewClaim(tx, request, now);
        return { kind: 'execute' as const };
      }
      if (record.expires_at <= now || record.response_body_enc === null) {
        throw idempotencyErrors.idempotency_expired({ expiredAt: record.expires_at.toISOString() });
      }
      const body: unknown = JSON.parse(this.#deps.secrets.decrypt(record.response_body_enc, contextOf(request)));
      return { kind: 'replay' as const, response: { status: record.response_status!, body } };
    });
  }

  /** Call inside the transaction that commits the operation's effect. */
  async complete(tx: Tx, request: IdempotencyScope, response: StoredResponse): Promise<void> {
    await store.completeRecord(tx, request, {
      status: response.status,
      bodyEnc: this.#deps.secrets.encrypt(JSON.stringify(response.body), contextOf(request)),
    });
  }

  /** The operation failed and committed nothing: the same key may be tried again. */
  async release(request: IdempotencyScope): Promise<void> {
    await store.deleteClaim(this.#deps.db, request);
  }

  /** Runs `operation` under the key: replays, refuses, or executes once and releases on failure. */
  async run(
    request: IdempotencyScope,
    operation: () => Promise<StoredResponse>,
  ): Promise<StoredResponse & { replayed: boolean }> {
    const claim = await this.claim(request);
    if (claim.kind === 'replay') return { ...claim.response, replayed: true };
    try {
      return { ...(await operation()), replayed: false };
    } catch (error) {
      await this.release(request);
      throw error;
    }
  }

  /** Replay bodies hold credentials: once the window has passed they are erased, the record itself stays. */
  async eraseExpiredResponses(): Promise<number> {
    return store.eraseResponsesExpiredBy(this.#deps.db, this.#deps.clock.now());
  }
}

function mismatch(reason: 'body' | 'credential', message: string) {
  return idempotencyErrors.idempotency_mismatch({ reason }, message);
}

function contextOf(request: IdempotencyScope): string {
  return `idempotency:${request.scope}:${request.key}`;
}

function hashRequest(request: IdempotencyScope): string {
  return sha256Hex(`${request.operation}\n${canonicalJson(request.body)}`);
}
