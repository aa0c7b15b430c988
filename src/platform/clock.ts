/** The one source of time, injectable so tests can move it (expiries, lockouts, windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that only moves when told to; used by tests. */
export class ManualClock implements Clock {
  #current: number;
  constructor(start: Date | string = '2026-01-01T00:00:00Z') {
    this.#current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.#current);
  }
  set(at: Date | string): void {
    this.#current = new Date(at).getTime();
  }
  advance(ms: number): void {
    this.#current += ms;
  }
}
