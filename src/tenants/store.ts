import type { Insertable, Updateable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { Tenant, TenantsTable } from './tables.ts';

export async function insertTenant(q: Queryable, tenant: Insertable<TenantsTable>): Promise<void> {
  await q.insertInto('tenants').values(tenant).execute();
}

/** `lock`: 'update' before changing the row. */
export function findTenant(q: Queryable, id: string, options: { lock?: 'update' } = {}): Promise<Tenant | undefined> {
  const query = q.selectFrom('tenants').selectAll().where('id', '=', id);
  if (options.lock === 'update') return query.forUpdate().executeTakeFirst();
  return query.executeTakeFirst();
}

export function tenantsOfClient(q: Queryable, clientId: string): Promise<Tenant[]> {
  return q.selectFrom('tenants').selectAll().where('client_id', '=', clientId).orderBy('environment').execute();
}

export async function updateTenant(q: Queryable, id: string, changes: Updateable<TenantsTable>): Promise<void> {
  await q.updateTable('tenants').set(changes).where('id', '=', id).execute();
}

/** Returns the ids of the client's tenants. */
export async function setTenantStatusForClient(
  q: Queryable,
  clientId: string,
  status: Tenant['status'],
): Promise<string[]> {
  const rows = await q
    .updateTable('tenants')
    .set({ status })
    .where('client_id', '=', clientId)
    .returning('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Sets first_financial_at once: later calls change nothing. */
export async function markFinancialUse(q: Queryable, tenantId: string, at: Date): Promise<void> {
  await q
    .updateTable('tenants')
    .set({ first_financial_at: at })
    .where('id', '=', tenantId)
    .where('first_financial_at', 'is', null)
    .execute();
}

export async function revokeIntegrationKeys(q: Queryable, tenantIds: string[], now: Date): Promise<number> {
  if (tenantIds.length === 0) return 0;
  const result = await q
    .updateTable('integration_keys')
    .set({ revoked_at: now })
    .where('tenant_id', 'in', tenantIds)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function insertIntegrationKey(
  q: Queryable,
  key: { id: string; tenantId: string; keyHash: string; createdAt: Date },
): Promise<void> {
  await q
    .insertInto('integration_keys')
    .values({ id: key.id, tenant_id: key.tenantId, key_hash: key.keyHash, created_at: key.createdAt })
    .execute();
}

export function liveIntegrationKeys(q: Queryable, tenantIds: string[]) {
  if (tenantIds.length === 0) return Promise.resolve([]);
  return q
    .selectFrom('integration_keys')
    .select(['id', 'tenant_id', 'created_at'])
    .where('tenant_id', 'in', tenantIds)
    .where('revoked_at', 'is', null)
    .execute();
}

/** The tenant whose live integration key has this hash, if that key belongs to `tenantId`. */
export function findTenantByLiveKey(q: Queryable, tenantId: string, keyHash: string) {
  return q
    .selectFrom('integration_keys')
    .innerJoin('tenants', 'tenants.id', 'integration_keys.tenant_id')
    .selectAll('tenants')
    .where('integration_keys.key_hash', '=', keyHash)
    .where('integration_keys.tenant_id', '=', tenantId)
    .where('integration_keys.revoked_at', 'is', null)
    .executeTakeFirst();
}
