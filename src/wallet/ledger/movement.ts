import type { OBLIGATION_KINDS } from '../states.ts';

/** The four wallet endpoints and the movement kinds each one carries (contract: "Kinds and endpoints"). */
export const WALLET_ENDPOINTS = ['balance', 'debit', 'credit', 'rollback'] as const;
export type WalletEndpoint = (typeof WALLET_ENDPOINTS)[number];

/** What a movement is for (contract: "Kinds and endpoints"): a balance read, or one of the obligations' kinds. */
export type MovementKind = 'balance' | ObligationKind;

export type ObligationKind = (typeof OBLIGATION_KINDS)[number];

const MAX_TX_ID_LENGTH = 200;

export interface Movement {
  txId: string;
  playerId: string;
  /** Minor units, never negative: the endpoint gives the direction. */
  amount: number;
  currency: string;
  kind: MovementKind;
  betId?: string | undefined;
  ref?: string | undefined;
}

/**
 * The exact body text of a movement, in a fixed field order. It is built once, stored with the obligation
 * and sent byte for byte on every attempt, so the wallet sees the same body each time.
 */
export function movementBody(movement: Movement): string {
  const { txId, playerId, amount, currency, kind, betId, ref } = movement;
  if (!Number.isSafeInteger(amount) || amount < 0)
    throw new Error(`amount must be a non-negative integer, got ${amount}`);
  if (txId.length === 0 || txId.length > MAX_TX_ID_LENGTH) throw new Error('txId must be 1-200 characters');
  return JSON.stringify({
    txId,
    playerId,
    amount,
    currency,
    kind,
    ...(betId ? { betId } : {}),
    ...(ref ? { ref } : {}),
  });
}
