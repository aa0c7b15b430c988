import ipaddr from 'ipaddr.js';

export interface Reservation {
  /** The credential was good (or the refusal was not a guess): the attempt costs nothing. */
  refund(): void;
}

/**
 * Failed credential checks allowed per client address per window. An attempt takes its place in the count before
 * the check runs and gives it back when the credential turns out good, so parallel guesses cannot outrun the
 * count (every check in flight already holds a place) and legitimate traffic spends nothing. @fastify/rate-limit
 * counts requests but cannot give one back, which is why this small counter is our own.
 */
export class FailureBudget {
  readonly #max: number;
  readonly #windowMs: number;
  readonly #now: () => number;
  readonly #windows = new Map<string, { spent: number; endsAt: number }>();

  constructor(max: number, windowMs: number, now: () => number = Date.now) {
    this.#max = max;
    this.#windowMs = windowMs;
    this.#now = now;
  }

  reserve(address: string): Reservation | { retryAfterSeconds: number } {
    const now = this.#now();
    const key = addressKey(address);
    let window = this.#windows.get(key);
    if (!window || window.endsAt <= now) {
      this.#sweep(now);
      window = { spent: 0, endsAt: now + this.#windowMs };
      this.#windows.set(key, window);
    }
    if (window.spent >= this.#max) return { retryAfterSeconds: Math.max(1, Math.ceil((window.endsAt - now) / 1000)) };
    window.spent += 1;
    const held = window;
    let refunded = false;
    return {
      refund: () => {
        if (refunded) return;
        refunded = true;
        held.spent -= 1;
      },
    };
  }

  /** Forgets finished windows once there are many, so the map stays as small as the set of recent addresses. */
  #sweep(now: number): void {
    if (this.#windows.size < 10_000) return;
    for (const [key, window] of this.#windows) if (window.endsAt <= now) this.#windows.delete(key);
  }
}

/**
 * The unit an address budget counts: one IPv4 address, or one IPv6 /64 (one subscriber's network: a single client
 * can use a whole /64, so counting single IPv6 addresses would give it billions of budgets).
 */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  return `${(parsed as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((part) => part.toString(16))
    .join(':')}::/64`;
}
