import type { ColumnType, Generated, Selectable } from 'kysely';
import type { IDEMPOTENCY_STATES } from '../idempotency/states.ts';

/** A column that holds one of a constant list of values. */
export type OneOf<T extends readonly string[]> = T[number];

/**
 * Table types as Kysely sees them; one interface per table, named after it. The platform declares its own tables
 * here; each domain adds its own in its `tables.ts` (module augmentation), so the platform imports no domain and the
 * whole schema is still one type. Allowed values of status columns come from one constant each, declared by the
 * domain that owns the table; the migrations' CHECK constraints hold the same lists (test/platform/schema.test.ts
 * compares them).
 */
export interface Database {
  audit_log: AuditLogTable;
  idempotency_records: IdempotencyRecordsTable;
}

/** jsonb columns: read as parsed values, written as JSON text. */
export type Json<T> = ColumnType<T, string, string>;

/** A creation time the database defaults; never changed. */
export type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface AuditLogTable {
  id: Generated<number>;
  occurred_at: Date;
  actor_type: string;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  outcome: string;
  ip: string | null;
  details: ColumnType<Record<string, unknown>, string, never>;
  /** The tenant the row is about, computed by the database (migration 0014): never written. */
  tenant_id: ColumnType<string | null, never, never>;
}

export interface IdempotencyRecordsTable {
  scope: string;
  idempotency_key: string;
  credential_id: string;
  request_hash: string;
  state: OneOf<typeof IDEMPOTENCY_STATES>;
  response_status: number | null;
  response_body_enc: string | null;
  created_at: Date;
  expires_at: Date;
}

export type IdempotencyRecord = Selectable<IdempotencyRecordsTable>;
