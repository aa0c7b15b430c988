import type { WalletEndpoint } from '../ledger/movement.ts';

/**
 * What one wallet attempt proved (contract: "Wallet movement delivery"). `not_sent` is ours, not the wallet's:
 * the transport refused the destination before anything left, so nothing can have moved.
 */
export type WalletOutcome =
  | { outcome: 'applied'; status: number; balance: number; currency: string }
  | { outcome: 'refused'; status: number; code: string; message: string }
  | { outcome: 'unknown'; status: number | null; reason: UnknownReason; detail?: string }
  | { outcome: 'not_sent'; status: null; reason: NotSentReason; detail: string };

/**
 * refused_address: the scheme, port or address breaks the transport rules (it will until someone changes the
 * destination); unresolvable: the name did not resolve (it may later).
 */
type NotSentReason = 'refused_address' | 'unresolvable';

type UnknownReason =
  | 'timeout'
  | 'connection_error'
  | 'status_408'
  | 'status_429'
  | 'status_5xx'
  | 'unexpected_status'
  | 'malformed_body'
  | 'txid_mismatch'
  | 'currency_mismatch';

export interface Expectation {
  endpoint: WalletEndpoint;
  txId: string;
  currency: string;
}

/**
 * Applied only on a 2xx that echoes the txId (not required for /balance), carries the registered currency and
 * an explicit integer balance. Refused only on a 4xx other than 408/429 with a valid error envelope.
 * Everything else is unknown: the money may or may not have moved.
 */
export function classifyAnswer(status: number, bodyText: string, expected: Expectation): WalletOutcome {
  if (status === 408 || status === 429)
    return { outcome: 'unknown', status, reason: status === 408 ? 'status_408' : 'status_429' };
  if (status >= 500) return { outcome: 'unknown', status, reason: 'status_5xx' };
  const body = parseObject(bodyText);
  if (status >= 200 && status < 300) return classifySuccess(status, body, expected);
  if (status >= 400 && status < 500) {
    const error = body?.error;
    if (
      isObject(error) &&
      typeof error.code === 'string' &&
      error.code.length > 0 &&
      typeof error.message === 'string'
    ) {
      return { outcome: 'refused', status, code: walletText(error.code), message: walletText(error.message) };
    }
    return { outcome: 'unknown', status, reason: 'malformed_body', detail: '4xx without a valid error envelope' };
  }
  return { outcome: 'unknown', status, reason: 'unexpected_status' };
}

function classifySuccess(status: number, body: Record<string, unknown> | null, expected: Expectation): WalletOutcome {
  if (!body) return { outcome: 'unknown', status, reason: 'malformed_body', detail: 'body is not a JSON object' };
  if (!Number.isSafeInteger(body.balance)) {
    return { outcome: 'unknown', status, reason: 'malformed_body', detail: 'balance is not an integer' };
  }
  if (typeof body.currency !== 'string')
    return { outcome: 'unknown', status, reason: 'malformed_body', detail: 'currency missing' };
  if (expected.endpoint !== 'balance' && body.txId !== expected.txId) {
    return { outcome: 'unknown', status, reason: 'txid_mismatch', detail: `got ${JSON.stringify(body.txId ?? null)}` };
  }
  if (body.currency !== expected.currency) {
    return { outcome: 'unknown', status, reason: 'currency_mismatch', detail: `got ${JSON.stringify(body.currency)}` };
  }
  return { outcome: 'applied', status, balance: body.balance as number, currency: body.currency };
}

/**
 * The wallet's own words (its error code and message), which are stored, logged and shown to operators and
 * players: a lone surrogate or a NUL, which PostgreSQL text and JSON cannot hold, becomes U+FFFD.
 */
function walletText(text: string): string {
  return text.toWellFormed().replaceAll('\0', '\uFFFD');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
