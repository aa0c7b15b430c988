import type { WalletAttempt } from '../delivery/client.ts';
import type { DeliveryChange } from './store.ts';
import type { HoldReason } from '../states.ts';
import type { WalletObligation } from '../tables.ts';

/**
 * The contract's delivery table as pure functions: what one attempt's answer does to an owed movement, and what
 * an obligation keeps of it. The ledger records what these decide.
 */

/**
 * The delivery table of the contract, for one attempt of an owed movement: applied; refused (a 4xx with an error
 * envelope) held for review, a correction debit refused for insufficient funds with its own reason; a destination
 * the transport refuses held; anything else unknown, owed still.
 */
export function deliveryChange(
  obligation: WalletObligation,
  attempt: WalletAttempt,
  now: Date,
  nextAttemptAt: Date,
): DeliveryChange {
  const base = {
    id: obligation.id,
    seenStatus: obligation.status,
    seenAttempts: obligation.attempts,
    nextAttemptAt: obligation.next_attempt_at,
    operatorCode: null,
    resolvedAt: null,
    holdReason: null,
    confirmedTxId: null,
    confirmedBalance: null,
    note: noteOf(attempt),
  };
  switch (attempt.outcome) {
    case 'applied': {
      const { confirmed_tx_id, confirmed_balance } = confirmation(obligation, attempt);
      const confirmed = { confirmedTxId: confirmed_tx_id, confirmedBalance: confirmed_balance };
      return { ...base, ...confirmed, status: 'applied', lastOutcome: 'applied', resolvedAt: now };
    }
    case 'refused': {
      const shortOfFunds = obligation.endpoint === 'debit' && attempt.code === 'insufficient_funds';
      const holdReason: HoldReason = shortOfFunds ? 'correction_insufficient_funds' : 'refused';
      return { ...base, status: 'held', holdReason, lastOutcome: 'refused', operatorCode: attempt.code };
    }
    case 'not_sent':
      if (attempt.reason === 'refused_address') {
        return { ...base, status: 'held', holdReason: 'refused_address', lastOutcome: attempt.reason };
      }
      return { ...base, status: 'pending', lastOutcome: attempt.reason, nextAttemptAt };
    case 'unknown':
      return { ...base, status: 'pending', lastOutcome: attempt.reason, nextAttemptAt };
  }
}

/**
 * An attempt whose obligation a resettlement superseded while it was in flight (held, obsolete): the wallet's
 * answer decides. Applied: it counts (and the bet owes the difference); refused: nothing moved, and it is no longer
 * owed, so it is cancelled; anything else: still held, the attempt on its count. The hold reason is kept.
 */
export function supersededDeliveryChange(
  obligation: WalletObligation,
  attempt: WalletAttempt,
  now: Date,
): DeliveryChange {
  const change = deliveryChange(obligation, attempt, now, obligation.next_attempt_at);
  const kept = { holdReason: obligation.hold_reason, nextAttemptAt: obligation.next_attempt_at };
  const by = `superseded by ${obligation.superseded_by ?? 'a resettlement'}`;
  switch (attempt.outcome) {
    case 'applied':
      return {
        ...change,
        ...kept,
        note: `the wallet confirmed it after it was ${by}: it counts, and the bet owes the difference`,
      };
    case 'refused':
      return {
        ...change,
        ...kept,
        status: 'cancelled',
        resolvedAt: now,
        note: `the wallet refused it (${noteOf(attempt)}) after it was ${by}: nothing moved, and it is no longer owed`,
      };
    default:
      return { ...change, ...kept, status: 'held', resolvedAt: null };
  }
}

/** What the wallet answered when it confirmed a movement (its echo of the txId, and the balance after it). */
export function confirmation(obligation: WalletObligation, attempt: Extract<WalletAttempt, { outcome: 'applied' }>) {
  return { confirmed_tx_id: obligation.tx_id, confirmed_balance: attempt.balance };
}

/** An attempt's answer in words, for the history (the wallet's own message bounded). */
export function noteOf(attempt: WalletAttempt): string | null {
  switch (attempt.outcome) {
    case 'applied':
      return `HTTP ${attempt.status}, balance ${attempt.balance} ${attempt.currency}`;
    case 'refused':
      return `HTTP ${attempt.status} ${attempt.code}: ${attempt.message}`.slice(0, 500);
    default:
      return attempt.detail?.slice(0, 500) ?? null;
  }
}

/** Whether a request for it may have left the service: it was claimed for delivery, or attempted. */
export function requestMayHaveLeft(obligation: Pick<WalletObligation, 'attempts' | 'claims' | 'kind'>): boolean {
  return obligation.attempts > 0 || obligation.claims > 0 || obligation.kind === 'bet';
}
