import { call, type ApiResponse } from '../../api.ts';

export type Tenant = ApiResponse<'getTenant'>['tenant'];

/** The tenant an operator screen works on (its currency, limits and settings). */
export function loadTenant(tenantId: string | undefined, signal?: AbortSignal): Promise<Tenant> {
  return call('getTenant', 'GET', '/api/v1/admin/tenant', { query: { tenantId }, signal }).then((body) => body.tenant);
}
