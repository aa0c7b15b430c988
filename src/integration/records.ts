import type { Static } from 'typebox';
import type { Tenant } from '../tenants/tables.ts';
import { integrationErrors } from './errors.ts';
import type { PlayerRecord } from './schemas.ts';
import type { Player } from './tables.ts';

/** A player as the API shows it to the casino, the iframe and staff. */
export function playerRecord(player: Player, tenant: Pick<Tenant, 'currency'>): Static<typeof PlayerRecord> {
  return {
    id: player.id,
    tenantId: player.tenant_id,
    externalId: player.external_id,
    status: player.status,
    displayName: player.display_name,
    currency: tenant.currency,
    kycStatus: player.kyc_status,
    createdAt: player.created_at.toISOString(),
  };
}

/** Why a player who is not active may not play, as the error the call is answered with. */
export function playerRefusal(status: string) {
  switch (status) {
    case 'paused':
      return integrationErrors.account_paused();
    case 'closed':
      return integrationErrors.account_closed();
    default:
      return integrationErrors.account_blocked();
  }
}
