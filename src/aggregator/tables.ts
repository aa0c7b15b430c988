import type { ColumnType, Selectable } from 'kysely';
import type { Json, OneOf } from '../platform/db/schema.ts';
import type { CLIENT_STATUSES } from './states.ts';

/**
 * The aggregator domain's tables as Kysely sees them: aggregators, their authorizations and keys, and the clients
 * they provision. Each is added to the one Database type (platform/db/schema.ts) here, so the platform never
 * imports a domain; only this domain's store reads and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    aggregators: AggregatorsTable;
    aggregator_authorizations: AggregatorAuthorizationsTable;
    aggregator_keys: AggregatorKeysTable;
    clients: ClientsTable;
  }
}

interface AggregatorsTable {
  id: string;
  name: string;
  created_at: Date;
  created_by: string;
}

export interface AggregatorAuthorizationsTable {
  aggregator_id: string;
  version: number;
  enabled: boolean;
  client_quota: number;
  currencies: Json<string[]>;
  jurisdictions: Json<string[]>;
  territories: Json<string[]>;
  wallet_origins: Json<string[]>;
  /** Normalised addresses and CIDR ranges the aggregator API accepts it from; empty: any (migration 0017). */
  allowed_ips: Json<string[]>;
  auto_activation: boolean;
  agreement_ref: string;
  expires_at: Date;
  updated_at: Date;
  updated_by: string;
}

interface AggregatorKeysTable {
  id: string;
  aggregator_id: string;
  key_hash: string;
  scopes: Json<string[]>;
  expires_at: Date;
  revoked_at: Date | null;
  created_at: Date;
  created_by: string;
  /** The first characters of the key, to tell keys apart; null for keys issued before migration 0014. */
  key_prefix: ColumnType<string | null, string | null | undefined, never>;
  /** The last request with the key, written at most once a minute. */
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface ClientsTable {
  id: string;
  aggregator_id: string;
  external_id: string;
  name: string;
  legal_name: string;
  brand_name: string;
  currency: string;
  jurisdiction: string;
  locale: string;
  territories: Json<string[]>;
  embed_origins: Json<string[]>;
  status: OneOf<typeof CLIENT_STATUSES>;
  platform_suspended_at: Date | null;
  credentials_revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  config_version: ColumnType<number, number | undefined, number>;
  created_at: Date;
  activated_at: Date | null;
}

export type AggregatorAuthorization = Selectable<AggregatorAuthorizationsTable>;

export type Client = Selectable<ClientsTable>;
