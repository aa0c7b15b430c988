import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import type { SessionPrincipal } from '../platform/http/principals.ts';
import type { TenantService } from '../tenants/service.ts';
import type { WalletClient } from './delivery/client.ts';
import { walletErrors } from './errors.ts';
import { movementBody } from './ledger/movement.ts';
import * as store from './delivery/store.ts';

type WalletServiceDeps = { db: Db; clock: Clock; wallets: WalletClient; tenants: TenantService };

/** The balance shown in the sportsbook header: asked of the wallet every time, never cached or guessed. */
export class WalletService {
  readonly #deps: WalletServiceDeps;

  constructor(deps: WalletServiceDeps) {
    this.#deps = deps;
  }

  /**
   * The player learns only that there is no balance (and the wallet's own code when it refused); why the call
   * failed, transport reasons included, stays in the wallet call log for operators.
   */
  async balance(player: SessionPrincipal): Promise<{ balance: number; currency: string }> {
    const target = await this.#deps.tenants.walletTarget(player.tenantId, { fromCache: true });
    const txId = `balance:${randomUUID()}`;
    const { currency } = target;
    const body = movementBody({ txId, playerId: player.externalPlayerId, amount: 0, currency, kind: 'balance' });
    const attempt = await this.#deps.wallets.send(target, 'balance', body, { txId, currency });
    const call = { tenantId: target.tenantId, obligationId: null, txId, endpoint: 'balance', kind: 'balance' };
    await store.logWalletCalls(this.#deps.db, [{ ...call, at: this.#deps.clock.now(), attempt }]);
    if (attempt.outcome === 'applied') return { balance: attempt.balance, currency: attempt.currency };
    throw walletErrors.balance_unavailable(attempt.outcome === 'refused' ? { operatorCode: attempt.code } : undefined);
  }
}
