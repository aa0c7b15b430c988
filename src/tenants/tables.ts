import type { ColumnType, Selectable } from 'kysely';
import type { Json, OneOf } from '../platform/db/schema.ts';
import type { ENVIRONMENTS, TENANT_STATUSES, WALLET_MODES } from './states.ts';

declare module '../platform/http/principals.ts' {
  /** The principal behind a tenant's integration key is the tenant's row. */
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type -- merges the row's columns into the principal
  interface TenantPrincipal extends Tenant {}
}

/**
 * The tenants domain's tables as Kysely sees them: tenants (one per client environment) and their integration keys.
 * Each is added to the one Database type (platform/db/schema.ts) here, so the platform never imports a domain; only
 * this domain's store reads and writes them.
 */
declare module '../platform/db/schema.ts' {
  interface Database {
    tenants: TenantsTable;
    integration_keys: IntegrationKeysTable;
  }
}

export interface TenantsTable {
  id: string;
  client_id: string | null;
  environment: OneOf<typeof ENVIRONMENTS>;
  name: string;
  currency: string;
  locale: string;
  jurisdiction: string;
  embed_origins: Json<string[]>;
  wallet_url: string;
  wallet_mode: ColumnType<
    OneOf<typeof WALLET_MODES>,
    OneOf<typeof WALLET_MODES> | undefined,
    OneOf<typeof WALLET_MODES>
  >;
  wallet_secret_enc: string;
  status: OneOf<typeof TENANT_STATUSES>;
  created_at: Date;
  first_financial_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  min_stake: ColumnType<number, number | undefined, number>;
  max_stake: ColumnType<number, number | undefined, number>;
  max_payout: ColumnType<number, number | undefined, number>;
  max_selection_liability: ColumnType<number, number | undefined, number>;
  max_event_liability: ColumnType<number, number | undefined, number>;
  /** The largest single manual adjustment, in minor units. */
  max_adjustment: ColumnType<number, number | undefined, number>;
  /** An adjustment above this (minor units) needs a second staff member's approval before anything is owed. */
  adjustment_approval_above: ColumnType<number, number | undefined, number>;
}

interface IntegrationKeysTable {
  id: string;
  tenant_id: string;
  key_hash: string;
  created_at: Date;
  revoked_at: Date | null;
}

export type Tenant = Selectable<TenantsTable>;
