import { isObsolete } from '../states.ts';
import type { WalletObligation } from '../tables.ts';

/** Why sending a held movement again cannot help: what the refusal says in details.reason, and in words. */
export interface RetryRefusal {
  details: { reason: string; walletUrl?: string };
  message: string;
}

/**
 * The one rule for sending a held movement again (an operator's retry, a casino's redelivery): it must be able to
 * help, and it can go only where the movement was recorded for. Null when it may be sent again: same txId, same body,
 * same wallet.
 *
 * - a movement a resettlement superseded must not be sent at all;
 * - a correction debit refused for insufficient funds: the wallet keeps its refusal under the txId and answers every
 *   repeat with it;
 * - a tenant whose wallet URL is not the recorded one: a movement never goes to a replacement wallet.
 */
export function retryRefusal(
  obligation: Pick<WalletObligation, 'hold_reason' | 'wallet_url'>,
  tenantWalletUrl: string | undefined,
): RetryRefusal | null {
  const reason = obligation.hold_reason;
  if (isObsolete(reason)) {
    return {
      details: { reason: reason! },
      message:
        'A resettlement superseded this movement: it must not be sent. Resolve it if the wallet applied it ' +
        '(the bet is then owed the difference), cancel it if not.',
    };
  }
  if (reason === 'correction_insufficient_funds') {
    return {
      details: { reason },
      message:
        'The wallet keeps its refusal under this txId and answers every repeat with it. Collect the money with ' +
        'the casino and resolve it, or cancel it.',
    };
  }
  if (tenantWalletUrl !== obligation.wallet_url) {
    return {
      details: { reason: 'destination_changed', walletUrl: obligation.wallet_url },
      message:
        'The tenant’s wallet URL is not the one this movement was recorded for, and it is never sent anywhere ' +
        'else. Resolve or cancel it with the casino.',
    };
  }
  return null;
}

/**
 * The least time between two requests to send one movement again (an operator's retry, a casino's redelivery): each
 * makes the engine call the wallet at once, and a script or an impatient double press must not turn that into a
 * stream of calls to one wallet for one movement.
 */
const SEND_AGAIN_GAP_MS = 10_000;

/** Seconds to wait before this movement may be sent again on request, or null when it may be now. */
export function sendAgainWait(lastSentAgainAt: Date | undefined, now: Date): number | null {
  if (!lastSentAgainAt) return null;
  const waited = now.getTime() - lastSentAgainAt.getTime();
  return waited >= SEND_AGAIN_GAP_MS ? null : Math.ceil((SEND_AGAIN_GAP_MS - waited) / 1000);
}
