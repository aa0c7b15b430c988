import type { FastifyInstance } from 'fastify';
import { CasinoError, type CasinoState } from './casino-state.ts';

const DEPOSIT_MAX = 10_000_000;

/** The fake cashier: the casino credits its own wallet (a real one would take a payment first). */
export function cashierRoutes(app: FastifyInstance, state: CasinoState): void {
  /** Each player's deposit in progress: the next waits for it. */
  const deposits = new Map<string, Promise<unknown>>();

  app.post<{ Body: { amount?: unknown } }>('/cashier/deposit', async (request) => {
    const casino = state.ready();
    const account = state.accountOf(state.visitorOf(request)?.visitor);
    if (!account) throw new CasinoError(401, 'login_required', 'Log in to the casino first.');
    const amount = request.body?.amount;
    if (!Number.isSafeInteger(amount) || (amount as number) < 1 || (amount as number) > DEPOSIT_MAX) {
      throw new CasinoError(400, 'invalid_amount', 'The amount must be a positive whole number of minor units.');
    }
    // One deposit at a time per player; a stake debited between the read and the write would be overwritten, which
    // this control-API cashier accepts (it is a demo: a real wallet credits in one transaction).
    const previous = deposits.get(account.externalId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const player = await casino.wallet.player(account.externalId);
      const balance = (player?.balance ?? 0) + (amount as number);
      await casino.wallet.setPlayer(account.externalId, balance, casino.currency);
      return balance;
    });
    deposits.set(
      account.externalId,
      next.catch(() => undefined),
    );
    return { balance: await next, currency: casino.currency };
  });
}
