import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** Table types as Kysely sees them; one interface per table, named after it. */
export interface Database {
  staff_users: StaffUsersTable;
  staff_tokens: StaffTokensTable;
  audit_log: AuditLogTable;
}

type CreatedAt = ColumnType<Date, Date | undefined, never>;

export interface StaffUsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: string;
  tenant_id: string | null;
  totp_secret_enc: string;
  /** Last TOTP time step accepted; a code at or below it is a replay. */
  totp_last_step: ColumnType<number, number | undefined, number>;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: Date | null;
  status: ColumnType<string, string | undefined, string>;
  created_at: CreatedAt;
}

export interface StaffTokensTable {
  token_hash: string;
  staff_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
}

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
}

export type StaffUser = Selectable<StaffUsersTable>;
export type NewStaffUser = Insertable<StaffUsersTable>;
export type AuditEntry = Selectable<AuditLogTable>;
