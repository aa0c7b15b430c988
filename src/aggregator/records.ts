import type { Static } from 'typebox';
import type { Tenant } from '../tenants/tables.ts';
import type { AggregatorAuthorization, Client } from './tables.ts';
import type { TenantCredentials } from '../tenants/credentials.ts';
import type { TenantEnvironments } from '../tenants/environments.ts';
import type { AuthorizationRecord, ClientRecord, KeyRecord } from './schemas.ts';

/** The Client record of the API: everything about a client except secrets and credentials. */
export async function clientRecord(
  environments: TenantEnvironments,
  credentials: TenantCredentials,
  client: Client,
): Promise<Static<typeof ClientRecord>> {
  const tenants = await environments.environmentsOfClient(client.id);
  const keys = await credentials.liveIntegrationKeys(tenants.map((tenant) => tenant.id));
  const environment = (name: Tenant['environment']) => {
    const tenant = tenants.find((candidate) => candidate.environment === name);
    if (!tenant) throw new Error(`client ${client.id} has no ${name} tenant`);
    const key = keys.find((candidate) => candidate.tenant_id === tenant.id);
    return {
      tenantId: tenant.id,
      environment: name,
      status: tenant.status,
      walletUrl: tenant.wallet_url,
      integrationKey: key ? { keyId: key.id, createdAt: key.created_at.toISOString() } : null,
    };
  };
  return {
    id: client.id,
    externalId: client.external_id,
    name: client.name,
    legalName: client.legal_name,
    brandName: client.brand_name,
    currency: client.currency as Static<typeof ClientRecord>['currency'],
    jurisdiction: client.jurisdiction as Static<typeof ClientRecord>['jurisdiction'],
    locale: client.locale as Static<typeof ClientRecord>['locale'],
    territories: client.territories,
    embedOrigins: client.embed_origins,
    status: client.status,
    suspendedByPlatform: client.platform_suspended_at !== null,
    credentialsRevokedByPlatform: client.credentials_revoked_at !== null,
    nextAction: nextAction(client),
    production: environment('production'),
    sandbox: environment('sandbox'),
    createdAt: client.created_at.toISOString(),
    activatedAt: client.activated_at?.toISOString() ?? null,
  };
}

function nextAction(client: Client): Static<typeof ClientRecord>['nextAction'] {
  if (client.platform_suspended_at || client.credentials_revoked_at) return 'contact_platform';
  return client.status === 'active' ? 'none' : 'install_wallet_secrets_then_activate';
}

export function authorizationRecord(row: AggregatorAuthorization): Static<typeof AuthorizationRecord> {
  return {
    version: row.version,
    enabled: row.enabled,
    clientQuota: row.client_quota,
    currencies: row.currencies,
    jurisdictions: row.jurisdictions,
    territories: row.territories,
    walletOrigins: row.wallet_origins,
    allowedIps: row.allowed_ips,
    autoActivation: row.auto_activation,
    agreementRef: row.agreement_ref,
    expiresAt: row.expires_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    updatedBy: row.updated_by,
  };
}

/** An aggregator key as the admin API shows it: never the key or its hash. */
export function keyRecord(
  row: {
    id: string;
    key_prefix: string | null;
    scopes: string[];
    expires_at: Date;
    revoked_at: Date | null;
    created_at: Date;
    created_by: string;
    last_used_at: Date | null;
  },
  now: Date,
): Static<typeof KeyRecord> {
  return {
    keyId: row.id,
    prefix: row.key_prefix,
    scopes: row.scopes,
    status: row.revoked_at ? 'revoked' : row.expires_at <= now ? 'expired' : 'live',
    expiresAt: row.expires_at.toISOString(),
    revokedAt: row.revoked_at?.toISOString() ?? null,
    createdAt: row.created_at.toISOString(),
    createdBy: row.created_by,
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
  };
}
