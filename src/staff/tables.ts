import type { ColumnType, Insertable, Selectable } from 'kysely';
import type { CreatedAt, OneOf } from '../platform/db/schema.ts';
import type { STAFF_ROLES } from '../platform/http/principals.ts';
import type { STAFF_STATUSES } from './states.ts';

/**
 * The staff domain's tables as Kysely sees them: staff accounts and their tokens. Each is added to the one Database
 * type (platform/db/schema.ts) here, so the platform never imports a domain; only this domain's store reads and
 * writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    staff_users: StaffUsersTable;
    staff_tokens: StaffTokensTable;
  }
}

interface StaffUsersTable {
  id: string;
  email: string;
  password_hash: string;
  role: OneOf<typeof STAFF_ROLES>;
  tenant_id: string | null;
  /** The enrolled authenticator's secret, encrypted; null until the account enrols (and again after a reset). */
  totp_secret_enc: string | null;
  totp_enrolled_at: Date | null;
  /** The pending enrolment, all three or none: its single-use token (hash), fresh secret (encrypted), expiry. */
  enrolment_token_hash: string | null;
  enrolment_secret_enc: string | null;
  enrolment_expires_at: Date | null;
  last_login_at: Date | null;
  /** Last TOTP time step accepted; a code at or below it is a replay. */
  totp_last_step: ColumnType<number, number | undefined, number>;
  failed_logins: ColumnType<number, number | undefined, number>;
  locked_until: Date | null;
  status: ColumnType<
    OneOf<typeof STAFF_STATUSES>,
    OneOf<typeof STAFF_STATUSES> | undefined,
    OneOf<typeof STAFF_STATUSES>
  >;
  created_at: CreatedAt;
}

interface StaffTokensTable {
  token_hash: string;
  staff_id: string;
  created_at: CreatedAt;
  expires_at: Date;
  revoked_at: Date | null;
  /** The last request with the token, written at most once a minute; idle tokens end (STAFF_IDLE_TIMEOUT_MS). */
  last_used_at: Date;
}

export type StaffUser = Selectable<StaffUsersTable>;

export type NewStaffUser = Insertable<StaffUsersTable>;

export type StaffStatus = StaffUser['status'];
