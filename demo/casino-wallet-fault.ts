import type { FastifyInstance } from 'fastify';
import { CasinoError, type CasinoState } from './casino-state.ts';
import { FAULT_TARGETS, type FaultTarget } from './wallet.ts';

/**
 * Development only, the demo operator's "wallet fault switch": the casino's production wallet refuses the next
 * credit or debit once (demo/wallet.ts armFault), so a movement held for review shows in the staff console's
 * Financial delivery workspace and can be retried or resolved there. A demo feature of the casino's side: the
 * sportsbook service knows nothing of it, it only sees a wallet that refused.
 */
export function walletFaultRoutes(app: FastifyInstance, state: CasinoState): void {
  app.get('/dev/wallet-fault', async () => state.ready().wallet.faultSwitch());

  app.put<{ Body: { target?: unknown } }>('/dev/wallet-fault', async (request) => {
    const target = request.body?.target;
    if (!FAULT_TARGETS.includes(target as FaultTarget)) {
      throw new CasinoError(400, 'invalid_target', `target must be one of ${FAULT_TARGETS.join(', ')}.`);
    }
    return state.ready().wallet.armFault(target as FaultTarget);
  });

  app.delete('/dev/wallet-fault', async () => state.ready().wallet.disarmFault());
}
