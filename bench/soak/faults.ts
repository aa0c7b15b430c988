// The fault injector: the wallet's test controls queue every fault mode, one fault at a time, and its log of the
// faults that hit is counted.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Random } from '../soak-support.ts';
import { MODES, type Mode } from './figures.ts';
import { choices, figures } from './run-state.ts';
import { service, wallet } from './service.ts';

/** Faults waiting in the wallet at once, at most (a few more can queue while the service is down). */
const FAULTS_WAITING = 6;
/** Where a fault lands (undefined: the next call, whatever its endpoint); rollbacks are rare, so rarely aimed at. */
const ENDPOINTS = ['debit', 'debit', 'credit', 'credit', 'credit', 'rollback', undefined, undefined] as const;

/** Faults are put in the wallet's queue one at a time; the wallet's log of the faults that hit says what was seen. */
export class FaultInjector {
  #bag: Array<{ mode: Mode; apply: boolean }> = [];
  /** The modes of the faults queued in the wallet and not yet hit, as it last said. */
  #queued: Mode[] = [];
  /** How many of the wallet's hits are counted in the figures already. */
  #counted = 0;
  #sequence = 0;
  #lastPost = 0;
  #running = true;
  #loop: Promise<void> | undefined;

  #next(rng: Random) {
    // A mode never hit yet, and not waiting in the queue, comes first: every mode is seen, even in a short run.
    const unseen = MODES.find((mode) => figures.faults.byMode[mode] === 0 && !this.#queued.includes(mode));
    if (unseen) return { mode: unseen, apply: rng.chance(0.5), first: true };
    if (this.#bag.length === 0) {
      this.#bag = rng.shuffle(MODES.flatMap((mode) => [false, true].map((apply) => ({ mode, apply }))));
    }
    return { ...this.#bag.pop()!, first: false };
  }

  /** Reads the wallet's queue and its log of hits, and counts the hits not counted yet. */
  async #account(): Promise<void> {
    const { faults, hits } = (await wallet.control('GET', '/faults')) as {
      faults: Array<{ mode: Mode }>;
      hits: Array<{ mode: Mode; apply: boolean }>;
    };
    this.#queued = faults.map((fault) => fault.mode);
    for (const hit of hits.slice(this.#counted)) {
      figures.faults.injected += 1;
      figures.faults.byMode[hit.mode] += 1;
      if (hit.apply) figures.faults.appliedBeforeAnswer += 1;
    }
    this.#counted = hits.length;
  }

  start(): void {
    const rng = choices.faults;
    this.#loop = (async () => {
      while (this.#running) {
        await sleep(rng.int(30, 150));
        if (service.down) continue;
        await this.#account();
        if (this.#queued.length >= FAULTS_WAITING && performance.now() - this.#lastPost < 1_000) continue;
        const { mode, apply, first } = this.#next(rng);
        // A mode's first fault hits the very next call, whatever its endpoint.
        const endpoint = first ? undefined : rng.pick(ENDPOINTS);
        this.#sequence += 1;
        this.#lastPost = performance.now();
        await wallet.control('POST', '/faults', {
          mode,
          times: 1,
          apply,
          // A delay longer than the service's 5 s timeout.
          ...(mode === 'delay' ? { delayMs: 5_600 + (this.#sequence % 800) } : {}),
          ...(endpoint ? { endpoint } : {}),
        });
        this.#queued.push(mode);
      }
    })();
  }

  /** Stops injecting; counts what was hit and clears what was not. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    await this.#account();
    figures.faults.notHit = this.#queued.length;
    await wallet.control('DELETE', '/faults');
  }
}
