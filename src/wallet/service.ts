import { randomUUID } from 'node:crypto';
import type { Clock } from '../platform/clock.ts';
import type { Db } from '../platform/db/database.ts';
import { AppError } from '../platform/errors.ts';
import type { TenantService } from '../tenants/service.ts';
import type { WalletClient } from './client.ts';
import { movementBody } from './movement.ts';
import * as store from './store.ts';

/** The balance shown in the sportsbook header: asked of the wallet every time, never cached or guessed. */
export class WalletService {
  readonly #db: Db;
  readonly #clock: Clock;
  readonly #wallets: WalletClient;
  readonly #tenants: TenantService;

  constructor(deps: { db: Db; clock: Clock; wallets: WalletClient; tenants: TenantService }) {
    this.#db = deps.db;
    this.#clock = deps.clock;
    this.#wallets = deps.wallets;
    this.#tenants = deps.tenants;
  }

  async balance(player: { playerId: string; tenantId: string }): Promise<{ balance: number; currency: string }> {
    const tenant = await this.#db.selectFrom('tenants').selectAll().where('id', '=', player.tenantId).executeTakeFirstOrThrow();
    const { external_id: externalId } = await this.#db.selectFrom('players').select('external_id').where('id', '=', player.playerId).executeTakeFirstOrThrow();
    const txId = `balance:${randomUUID()}`;
    const body = movementBody({ txId, playerId: externalId, amount: 0, currency: tenant.currency, kind: 'balance' });
    const attempt = await this.#wallets.send({ walletUrl: tenant.wallet_url, secret: this.#tenants.walletSecret(tenant) }, 'balance', body, { txId, currency: tenant.currency });
    await store.logWalletCall(this.#db, { tenantId: tenant.id, obligationId: null, txId, endpoint: 'balance', kind: 'balance', at: this.#clock.now() }, attempt);
    if (attempt.outcome === 'applied') return { balance: attempt.balance, currency: attempt.currency };
    throw new AppError('balance_unavailable', 503, 'The casino wallet did not give a balance; none is shown until it does.', {
      ...(attempt.outcome === 'refused' ? { operatorCode: attempt.code } : { reason: attempt.reason }),
    });
  }
}
