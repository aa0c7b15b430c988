/** One wallet's calls in flight, and the claimed movements waiting for one of its slots (each resumed by a slot). */
interface Lane {
  sending: number;
  waiting: Array<() => void>;
}

/** A wallet's slot, taken: `free` hands it to the next movement waiting, once (again is nothing). */
export interface Slot {
  waited: boolean;
  readonly free: () => void;
}

/**
 * Each tenant's lane (one wallet): at most `concurrency` calls in flight, and the movements claimed ahead waiting for
 * a slot, which an answer hands over at once, in claim order. A lane with nothing in flight is gone.
 */
export class Lanes {
  readonly #concurrency: number;
  readonly #lanes = new Map<string, Lane>();
  /** Told each time a slot is freed: the engine may claim more. */
  readonly #freed: () => void;

  constructor(concurrency: number, freed: () => void) {
    this.#concurrency = concurrency;
    this.#freed = freed;
  }

  /** What each wallet with a lane may claim more, when it may hold `perWallet` movements (in flight and waiting). */
  room(perWallet: number): Array<{ tenantId: string; free: number }> {
    return [...this.#lanes].map(([tenantId, lane]) => ({
      tenantId,
      free: Math.max(0, perWallet - lane.sending - lane.waiting.length),
    }));
  }

  has(tenantId: string): boolean {
    return this.#lanes.has(tenantId);
  }

  /** A slot of the tenant's wallet: at once when one is free, else when an answer hands one over. */
  async take(tenantId: string): Promise<Slot> {
    const lane = this.#lanes.get(tenantId) ?? { sending: 0, waiting: [] };
    this.#lanes.set(tenantId, lane);
    let waited = false;
    if (lane.sending < this.#concurrency) lane.sending += 1;
    else {
      waited = true;
      await new Promise<void>((resolve) => lane.waiting.push(resolve));
    }
    let held = true;
    return {
      waited,
      free: () => {
        if (!held) return;
        held = false;
        this.#release(tenantId, lane);
      },
    };
  }

  #release(tenantId: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next) next();
    else if (--lane.sending === 0) this.#lanes.delete(tenantId);
    this.#freed();
  }
}
