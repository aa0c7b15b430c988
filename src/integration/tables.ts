import type { ColumnType, Selectable } from 'kysely';
import type { OneOf } from '../platform/db/schema.ts';
import type { PLAYER_STATUSES, SESSION_END_REASONS, SESSION_TOKEN_HOLDERS } from './states.ts';

/**
 * The integration domain's tables as Kysely sees them: players, their sessions, session tokens and launch tokens.
 * Each is added to the one Database type (platform/db/schema.ts) here, so the platform never imports a domain; only
 * this domain's store reads and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    players: PlayersTable;
    player_sessions: PlayerSessionsTable;
    session_tokens: SessionTokensTable;
    launch_tokens: LaunchTokensTable;
  }
}

export type PlayerStatus = OneOf<typeof PLAYER_STATUSES>;

interface PlayersTable {
  id: string;
  tenant_id: string;
  external_id: string;
  display_name: string;
  status: ColumnType<PlayerStatus, PlayerStatus | undefined, PlayerStatus>;
  kyc_status: string;
  created_at: Date;
  updated_at: Date;
  /** The share of the tenant's maximum stake the player may stake, in basis points (10,000: all of it). */
  stake_factor_bp: ColumnType<number, number | undefined, number>;
}

export type SessionEndReason = OneOf<typeof SESSION_END_REASONS>;

interface PlayerSessionsTable {
  id: string;
  tenant_id: string;
  player_id: string;
  created_at: Date;
  expires_at: Date;
  last_activity_at: Date;
  ended_at: Date | null;
  end_reason: SessionEndReason | null;
}

interface SessionTokensTable {
  token_hash: string;
  session_id: string;
  issued_to: OneOf<typeof SESSION_TOKEN_HOLDERS>;
  created_at: Date;
}

interface LaunchTokensTable {
  token_hash: string;
  tenant_id: string;
  session_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

export type Player = Selectable<PlayersTable>;
