import { sql, type Insertable } from 'kysely';
import type { Queryable } from '../platform/db/database.ts';
import type { AggregatorAuthorizationsTable, Client, ClientsTable } from './tables.ts';
import { pageInTimeOrder, type TimePage } from '../platform/db/paging.ts';

export async function insertAggregator(
  q: Queryable,
  row: { id: string; name: string; createdAt: Date; createdBy: string },
) {
  await q
    .insertInto('aggregators')
    .values({ id: row.id, name: row.name, created_at: row.createdAt, created_by: row.createdBy })
    .execute();
}

export function findAggregator(q: Queryable, id: string) {
  return q.selectFrom('aggregators').selectAll().where('id', '=', id).executeTakeFirst();
}

export function listAggregators(q: Queryable) {
  return q.selectFrom('aggregators').selectAll().orderBy('id').execute();
}

export function findAuthorization(q: Queryable, aggregatorId: string, options: { lock?: boolean } = {}) {
  const query = q.selectFrom('aggregator_authorizations').selectAll().where('aggregator_id', '=', aggregatorId);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function saveAuthorization(q: Queryable, row: Omit<Insertable<AggregatorAuthorizationsTable>, 'version'>) {
  return q
    .insertInto('aggregator_authorizations')
    .values({ ...row, version: 1 })
    .onConflict((oc) =>
      oc.column('aggregator_id').doUpdateSet((eb) => ({
        version: eb('aggregator_authorizations.version', '+', 1),
        enabled: eb.ref('excluded.enabled'),
        client_quota: eb.ref('excluded.client_quota'),
        currencies: eb.ref('excluded.currencies'),
        jurisdictions: eb.ref('excluded.jurisdictions'),
        territories: eb.ref('excluded.territories'),
        wallet_origins: eb.ref('excluded.wallet_origins'),
        allowed_ips: eb.ref('excluded.allowed_ips'),
        auto_activation: eb.ref('excluded.auto_activation'),
        agreement_ref: eb.ref('excluded.agreement_ref'),
        expires_at: eb.ref('excluded.expires_at'),
        updated_at: eb.ref('excluded.updated_at'),
        updated_by: eb.ref('excluded.updated_by'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function insertKey(
  q: Queryable,
  row: {
    id: string;
    aggregatorId: string;
    keyHash: string;
    keyPrefix: string;
    scopes: string[];
    expiresAt: Date;
    createdAt: Date;
    createdBy: string;
  },
) {
  await q
    .insertInto('aggregator_keys')
    .values({
      id: row.id,
      aggregator_id: row.aggregatorId,
      key_hash: row.keyHash,
      key_prefix: row.keyPrefix,
      scopes: JSON.stringify(row.scopes),
      expires_at: row.expiresAt,
      created_at: row.createdAt,
      created_by: row.createdBy,
    })
    .execute();
}

/** Records a use of the key unless one was recorded since `notSince`: at most one write a minute per key. */
export async function touchKey(q: Queryable, keyId: string, now: Date, notSince: Date): Promise<void> {
  await q
    .updateTable('aggregator_keys')
    .set({ last_used_at: now })
    .where('id', '=', keyId)
    .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', notSince)]))
    .execute();
}

/** Turns the authorization on or off (a new version, as any change); undefined when there is none. */
export function setAuthorizationEnabled(
  q: Queryable,
  aggregatorId: string,
  change: { enabled: boolean; at: Date; by: string },
) {
  return q
    .updateTable('aggregator_authorizations')
    .set((eb) => ({
      enabled: change.enabled,
      version: eb('version', '+', 1),
      updated_at: change.at,
      updated_by: change.by,
    }))
    .where('aggregator_id', '=', aggregatorId)
    .returningAll()
    .executeTakeFirst();
}

export function aggregatorNames(q: Queryable, ids: string[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return q.selectFrom('aggregators').select(['id', 'name']).where('id', 'in', ids).execute();
}

export function keysOf(q: Queryable, aggregatorId: string) {
  return q
    .selectFrom('aggregator_keys')
    .selectAll()
    .where('aggregator_id', '=', aggregatorId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export function findKeyByHash(q: Queryable, keyHash: string) {
  return q.selectFrom('aggregator_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export function findKey(q: Queryable, aggregatorId: string, keyId: string, options: { lock?: boolean } = {}) {
  const query = q
    .selectFrom('aggregator_keys')
    .selectAll()
    .where('aggregator_id', '=', aggregatorId)
    .where('id', '=', keyId);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export function revokeKey(q: Queryable, keyId: string, now: Date) {
  return q
    .updateTable('aggregator_keys')
    .set((eb) => ({ revoked_at: eb.fn.coalesce('revoked_at', eb.val(now)) }))
    .where('id', '=', keyId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function countClients(q: Queryable, aggregatorId: string): Promise<number> {
  const row = await q
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('aggregator_id', '=', aggregatorId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function insertClient(q: Queryable, row: Insertable<ClientsTable>) {
  await q.insertInto('clients').values(row).execute();
}

export function findClient(q: Queryable, id: string, options: { lock?: boolean } = {}): Promise<Client | undefined> {
  const query = q.selectFrom('clients').selectAll().where('id', '=', id);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export function findClientByExternalId(q: Queryable, aggregatorId: string, externalId: string) {
  return q
    .selectFrom('clients')
    .select('id')
    .where('aggregator_id', '=', aggregatorId)
    .where('external_id', '=', externalId)
    .executeTakeFirst();
}

export function listClients(
  q: Queryable,
  aggregatorId: string,
  page: { afterId?: string; externalId?: string; limit: number },
) {
  let query = q.selectFrom('clients').selectAll().where('aggregator_id', '=', aggregatorId);
  if (page.afterId) query = query.where('id', '>', page.afterId);
  if (page.externalId) query = query.where('external_id', '=', page.externalId);
  return query
    .orderBy('id')
    .limit(page.limit + 1)
    .execute();
}

export async function updateClient(
  q: Queryable,
  id: string,
  changes: Partial<Pick<Client, 'status' | 'platform_suspended_at' | 'activated_at' | 'credentials_revoked_at'>>,
): Promise<void> {
  await q
    .updateTable('clients')
    .set((eb) => ({ ...changes, config_version: eb('config_version', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export interface AllClientsFilter extends TimePage {
  /** Part of the name (lower case), or exactly the id or the externalId. */
  text?: string | undefined;
  /** Clients that match besides (the client of a tenant id searched for). */
  alsoIds?: string[] | undefined;
  aggregatorId?: string | undefined;
  status?: Client['status'] | undefined;
}

/** Clients of every aggregator, one page by creation time, and one more row to tell if more exist. */
export function listAllClients(q: Queryable, filter: AllClientsFilter): Promise<Client[]> {
  let query = q.selectFrom('clients').selectAll();
  const text = filter.text;
  if (text !== undefined) {
    const also = filter.alsoIds ?? [];
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`strpos(lower(name), ${text.toLowerCase()}) > 0`,
        eb('id', '=', text),
        eb('external_id', '=', text),
        ...(also.length > 0 ? [eb('id', 'in', also)] : []),
      ]),
    );
  }
  if (filter.aggregatorId) query = query.where('aggregator_id', '=', filter.aggregatorId);
  if (filter.status) query = query.where('status', '=', filter.status);
  return pageInTimeOrder(query, 'created_at', filter).execute();
}
