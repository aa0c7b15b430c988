import type { Selectable } from 'kysely';
import type { Clock } from '../clock.ts';
import type { Queryable } from '../db/database.ts';
import type { AuditLogTable } from '../db/schema.ts';
import { insertAuditEntry, listAuditEntries } from './store.ts';

/** Who can act: staff, an aggregator's key, a casino's server, a player, the service itself, or someone unknown. */
export const ACTOR_TYPES = ['staff', 'aggregator', 'tenant', 'player', 'system', 'anonymous'] as const;
type ActorType = (typeof ACTOR_TYPES)[number];
type AuditOutcome = 'success' | 'failure' | 'denied';

export interface AuditRecord {
  actor: { type: ActorType; id?: string | null | undefined };
  action: string;
  target?: { type: string; id: string | null | undefined } | undefined;
  outcome: AuditOutcome;
  ip?: string | null | undefined;
  /**
   * Context for investigators; never a secret, token or personal document. `tenantId` names the tenant the row is
   * about when its target is not that tenant (operators read the rows about their tenant).
   */
  details?: Record<string, unknown>;
}

/** Who does something the audit trail records, and from where: a staff member, or the service itself by a rule. */
export interface Acting {
  actor: AuditRecord['actor'];
  ip?: string | undefined;
}

export type AuditRow = Selectable<AuditLogTable>;

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

  /**
   * The newest rows whose target is one of these and whose action starts with the prefix (a client's history: its
   * `client.` actions on the client and on its tenants).
   */
  async about(
    q: Queryable,
    about: { targets: Array<{ type: string; ids: string[] }>; actionPrefix: string },
    limit: number,
  ): Promise<AuditRow[]> {
    const rows = await listAuditEntries(q, {
      targets: about.targets,
      action: { prefix: about.actionPrefix },
      limit,
    });
    return rows.slice(0, limit);
  }
}
