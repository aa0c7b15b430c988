import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import type { Clock } from '../../platform/clock.ts';
import { WalletClient, type WalletTarget } from '../delivery/client.ts';
import type { WalletEndpoint } from '../ledger/movement.ts';
import type { WalletOutcome } from '../delivery/answers.ts';
import { WalletTransport, type Resolver, type TransportPolicy, type TransportResponse } from '../delivery/transport.ts';

/**
 * How certification calls a wallet: through the service's own WalletClient (signing, one attempt, classifyAnswer)
 * over the service's own WalletTransport. Two seams, no second implementation: the transport below records what
 * went over the wire (the report shows it) and may alter the signed headers of one call (a rule's deliberate
 * mistake), and a client with a shifted clock signs stale or future timestamps.
 */

/** The contract's clock window ("Limits": wallet clock window 300 s). */
const CLOCK_WINDOW_SECONDS = 300;
/** How far outside the window stale and future probes are: a minute beyond it, so an honest clock skew is no excuse. */
const OUTSIDE_WINDOW_SECONDS = CLOCK_WINDOW_SECONDS + 60;

/** A deliberate departure from a correct call. */
export type Tamper = 'no_signature' | 'wrong_secret' | 'stale_timestamp' | 'future_timestamp' | 'uppercase_signature';

/** One call as it went: the exact request, the exact answer, what the service's classification made of it. */
export interface WireCall {
  /** What the call was for, in the words of its rule. */
  step: string;
  endpoint: WalletEndpoint;
  request: { url: string; headers: Record<string, string>; body: string };
  /** Null when no answer came (timeout, connection error, refused destination). */
  response: { status: number; body: string } | null;
  /** Why no answer came. */
  error?: string;
  outcome: WalletOutcome;
  latencyMs: number;
}

type HeaderChange = (headers: Record<string, string>) => Record<string, string>;

interface CallScope {
  change?: HeaderChange;
  sent?: { url: string; headers: Record<string, string>; body: string };
  response?: TransportResponse;
  error?: string;
}

/** The service's transport, recording each call it carries and applying the call's header change, if any. */
class RecordingTransport extends WalletTransport {
  readonly #scope = new AsyncLocalStorage<CallScope>();

  override async post(url: string, body: string, headers: Record<string, string>): Promise<TransportResponse> {
    const scope = this.#scope.getStore();
    const sent = scope?.change ? scope.change({ ...headers }) : headers;
    if (scope) scope.sent = { url, headers: sent, body };
    try {
      const response = await super.post(url, body, sent);
      if (scope) scope.response = response;
      return response;
    } catch (error) {
      if (scope) scope.error = (error as Error).message;
      throw error;
    }
  }

  /** Runs one client call inside its own scope (calls may run concurrently), and returns what the wire saw. */
  async within<T>(change: HeaderChange | undefined, work: () => Promise<T>): Promise<{ result: T; scope: CallScope }> {
    const scope: CallScope = change ? { change } : {};
    const result = await this.#scope.run(scope, work);
    return { result, scope };
  }
}

const withoutSignature: HeaderChange = ({ 'x-signature': _dropped, ...rest }) => rest;
const upperCaseSignature: HeaderChange = (headers) => ({
  ...headers,
  'x-signature': (headers['x-signature'] ?? '').toUpperCase(),
});

const shifted = (clock: Clock, seconds: number): Clock => ({
  now: () => new Date(clock.now().getTime() + seconds * 1000),
});

export class Wire {
  readonly #transport: RecordingTransport;
  readonly #target: WalletTarget;
  readonly #wrongSecret = `bm_whsec_${randomBytes(16).toString('hex')}`;
  readonly #now: WalletClient;
  readonly #stale: WalletClient;
  readonly #future: WalletClient;
  /** Every call of the run, in order of sending. */
  readonly calls: WireCall[] = [];

  constructor(target: WalletTarget, policy: TransportPolicy, clock: Clock, resolver?: Resolver) {
    this.#target = target;
    this.#transport = new RecordingTransport(policy, resolver);
    this.#now = new WalletClient(this.#transport, clock);
    this.#stale = new WalletClient(this.#transport, shifted(clock, -OUTSIDE_WINDOW_SECONDS));
    this.#future = new WalletClient(this.#transport, shifted(clock, OUTSIDE_WINDOW_SECONDS));
  }

  /** Checks the wallet URL as every call will (scheme, port, address); throws TransportRefused. */
  async checkDestination(): Promise<void> {
    await this.#transport.checkedAddress(new URL(`${this.#target.walletUrl}/balance`));
  }

  async send(
    step: string,
    endpoint: WalletEndpoint,
    body: string,
    expected: { txId: string; currency: string },
    tamper?: Tamper,
  ): Promise<WireCall> {
    const client =
      tamper === 'stale_timestamp' ? this.#stale : tamper === 'future_timestamp' ? this.#future : this.#now;
    const target = tamper === 'wrong_secret' ? { ...this.#target, secret: this.#wrongSecret } : this.#target;
    const change =
      tamper === 'no_signature' ? withoutSignature : tamper === 'uppercase_signature' ? upperCaseSignature : undefined;
    const { result: attempt, scope } = await this.#transport.within(change, () =>
      client.send(target, endpoint, body, expected),
    );
    const { durationMs, ...outcome } = attempt;
    const call: WireCall = {
      step,
      endpoint,
      request: scope.sent ?? { url: `${this.#target.walletUrl}/${endpoint}`, headers: {}, body },
      response: scope.response ? { status: scope.response.status, body: scope.response.body } : null,
      ...(scope.error === undefined ? {} : { error: scope.error }),
      outcome,
      latencyMs: durationMs,
    };
    this.calls.push(call);
    return call;
  }

  close(): void {
    this.#transport.close();
  }
}
