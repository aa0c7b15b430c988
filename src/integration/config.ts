import type { Static } from 'typebox';
import { LOCALES } from '../tenants/schemas.ts';
import type { TenantService } from '../tenants/service.ts';
import type { PublicConfig } from './schemas.ts';
import { idleTimeoutMinutes, SESSION_ABSOLUTE_MS } from './session-timeouts.ts';
import { namedTenant } from './tenant-key.ts';

/**
 * GET /api/v1/config: what the iframe needs before any session, for one tenant. Public and free of secrets, so the
 * answer may be cached; the embed pages read their frame policy (embedOrigins) from it too.
 */
export async function publicConfig(
  tenants: TenantService,
  tenantId: string | undefined,
): Promise<Static<typeof PublicConfig>> {
  const tenant = await namedTenant(tenants, tenantId);
  return {
    tenant: {
      id: tenant.id,
      name: tenant.name,
      currency: tenant.currency,
      locale: tenant.locale,
      jurisdiction: tenant.jurisdiction,
      embedOrigins: tenant.embed_origins,
      available: tenant.status === 'active',
    },
    session: {
      idleTimeoutMinutes: idleTimeoutMinutes(tenant.jurisdiction),
      absoluteTimeoutHours: SESSION_ABSOLUTE_MS / 3_600_000,
    },
    betting: { minStake: tenant.min_stake, maxStake: tenant.max_stake, maxPayout: tenant.max_payout },
    locales: [...LOCALES],
    embed: { sdkUrl: '/embed/v1.js', protocolVersion: 1 },
  };
}
