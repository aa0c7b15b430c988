import { randomBytes, randomUUID } from 'node:crypto';
import type { WalletClient } from './delivery/client.ts';
import { movementBody, WALLET_ENDPOINTS, type MovementKind, type WalletEndpoint } from './ledger/movement.ts';

/**
 * The activation checks of a wallet (contract: "Wallet requirements checked at validation"): the balance of
 * the validation player in the registered currency, and a refusal of an invalid signature on all four
 * endpoints. Only reads: the probes carry amount 0 and a signature the wallet must reject.
 */
export interface WalletUnderTest {
  walletUrl: string;
  secret: string;
  currency: string;
  playerId: string;
}

export interface WalletCheckFailure {
  check: 'balance' | 'signature';
  endpoint: WalletEndpoint;
  reason: string;
  status: number | null;
  operatorCode?: string;
}

const PROBE_KIND: Record<WalletEndpoint, MovementKind> = {
  balance: 'balance',
  debit: 'bet',
  credit: 'payout',
  rollback: 'rollback',
};

export async function validateWallet(
  client: WalletClient,
  wallet: WalletUnderTest,
): Promise<WalletCheckFailure | null> {
  return (await checkBalance(client, wallet)) ?? (await checkSignatureRefusals(client, wallet));
}

async function checkBalance(client: WalletClient, wallet: WalletUnderTest): Promise<WalletCheckFailure | null> {
  const txId = `balance:${randomUUID()}`;
  const body = movementBody({ txId, playerId: wallet.playerId, amount: 0, currency: wallet.currency, kind: 'balance' });
  const attempt = await client.send(wallet, 'balance', body, { txId, currency: wallet.currency });
  if (attempt.outcome === 'applied') return null;
  if (attempt.outcome === 'refused') {
    return {
      check: 'balance',
      endpoint: 'balance',
      reason: 'wallet_refused',
      status: attempt.status,
      operatorCode: attempt.code,
    };
  }
  return { check: 'balance', endpoint: 'balance', reason: attempt.reason, status: attempt.status };
}

async function checkSignatureRefusals(
  client: WalletClient,
  wallet: WalletUnderTest,
): Promise<WalletCheckFailure | null> {
  const wrongSecret = randomBytes(32).toString('hex');
  for (const endpoint of WALLET_ENDPOINTS) {
    const txId = `activation-probe:${randomUUID()}`;
    const body = movementBody({
      txId,
      playerId: wallet.playerId,
      amount: 0,
      currency: wallet.currency,
      kind: PROBE_KIND[endpoint],
      ...(endpoint === 'rollback' ? { ref: `activation-probe:${randomUUID()}` } : {}),
    });
    const attempt = await client.send({ walletUrl: wallet.walletUrl, secret: wrongSecret }, endpoint, body, {
      txId,
      currency: wallet.currency,
    });
    if (attempt.status === 401 || attempt.status === 403) continue;
    const reason =
      attempt.status === null
        ? attempt.outcome === 'unknown' || attempt.outcome === 'not_sent'
          ? attempt.reason
          : 'no_answer'
        : attempt.status >= 200 && attempt.status < 300
          ? 'accepted_invalid_signature'
          : `unexpected_status_${attempt.status}`;
    return { check: 'signature', endpoint, reason, status: attempt.status };
  }
  return null;
}
