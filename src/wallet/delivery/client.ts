import type { Clock } from '../../platform/clock.ts';
import { hmacSha256Hex } from '../../platform/crypto.ts';
import type { WalletEndpoint } from '../ledger/movement.ts';
import { classifyAnswer, type WalletOutcome } from './answers.ts';
import { TransportRefused, TransportTimeout, type WalletTransport } from './transport.ts';

export interface WalletTarget {
  /** Base URL; the endpoint name is appended (`{walletUrl}/debit`). */
  walletUrl: string;
  secret: string;
  /** The tenant whose wallet it is: its calls are counted in the metrics (activation probes name none). */
  tenantId?: string;
}

export type WalletAttempt = WalletOutcome & { durationMs: number };

/** Told of every attempt made to a tenant's wallet (the wallet metrics). */
interface CallRecorder {
  called(tenantId: string, endpoint: WalletEndpoint, attempt: WalletAttempt): void;
}

/** X-Signature: lowercase hex HMAC-SHA256 over `timestamp + '.' + rawBody`, keyed with the wallet secret. */
export function signatureHeaders(secret: string, timestamp: number, body: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-timestamp': String(timestamp),
    'x-signature': hmacSha256Hex(secret, `${timestamp}.${body}`),
  };
}

/**
 * Signs and sends one attempt, and says what it proved. It never retries: whether and when to try again is
 * the caller's rule (a stake debit is sent once; other obligations are redelivered by the delivery engine).
 */
export class WalletClient {
  readonly #transport: WalletTransport;
  readonly #clock: Clock;
  readonly #calls: CallRecorder | undefined;

  constructor(transport: WalletTransport, clock: Clock, calls?: CallRecorder) {
    this.#transport = transport;
    this.#clock = clock;
    this.#calls = calls;
  }

  async send(
    target: WalletTarget,
    endpoint: WalletEndpoint,
    body: string,
    expected: { txId: string; currency: string },
  ): Promise<WalletAttempt> {
    const attempt = await this.#attempt(target, endpoint, body, expected);
    if (target.tenantId !== undefined) this.#calls?.called(target.tenantId, endpoint, attempt);
    return attempt;
  }

  async #attempt(
    target: WalletTarget,
    endpoint: WalletEndpoint,
    body: string,
    expected: { txId: string; currency: string },
  ): Promise<WalletAttempt> {
    // A fresh timestamp and signature on every attempt, over the same body bytes.
    const timestamp = Math.floor(this.#clock.now().getTime() / 1000);
    const headers = signatureHeaders(target.secret, timestamp, body);
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    try {
      const answer = await this.#transport.post(`${target.walletUrl}/${endpoint}`, body, headers);
      return { ...classifyAnswer(answer.status, answer.body, { endpoint, ...expected }), durationMs: elapsed() };
    } catch (error) {
      if (error instanceof TransportRefused) {
        const reason = error.reason === 'resolution' ? 'unresolvable' : 'refused_address';
        return { outcome: 'not_sent', status: null, reason, detail: error.message, durationMs: elapsed() };
      }
      return {
        outcome: 'unknown',
        status: null,
        reason: error instanceof TransportTimeout ? 'timeout' : 'connection_error',
        detail: (error as Error).message,
        durationMs: elapsed(),
      };
    }
  }
}
