import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/database.ts';
import { insertAuditEntry } from './store.ts';

type ActorType = 'staff' | 'aggregator' | 'tenant' | 'player' | 'system' | 'anonymous';
type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditRecord {
  actor: { type: ActorType; id?: string | null | undefined };
  action: string;
  target?: { type: string; id: string | null | undefined } | undefined;
  outcome: AuditOutcome;
  ip?: string | null | undefined;
  /** Context for investigators; never a secret, token or personal document. */
  details?: Record<string, unknown>;
}

/**
 * The append-only audit trail every domain writes to. Pass the transaction that makes the change,
 * so that the change and its audit row commit together; the table itself refuses UPDATE and DELETE.
 */
export class AuditLog {
  readonly #clock: Clock;
  constructor(clock: Clock) {
    this.#clock = clock;
  }

  async record(q: Queryable, entry: AuditRecord): Promise<void> {
    await insertAuditEntry(q, {
      occurred_at: this.#clock.now(),
      actor_type: entry.actor.type,
      actor_id: entry.actor.id ?? null,
      action: entry.action,
      target_type: entry.target?.type ?? null,
      target_id: entry.target?.id ?? null,
      outcome: entry.outcome,
      ip: entry.ip ?? null,
      details: JSON.stringify(entry.details ?? {}),
    });
  }
}
