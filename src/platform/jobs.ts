import type { FastifyBaseLogger } from 'fastify';

/** A background task run every `intervalMs`; stop() waits for a run in progress, so shutdown never cuts one in half. */
export class PeriodicJob {
  readonly name: string;
  readonly #intervalMs: number;
  readonly #run: () => Promise<unknown>;
  readonly #log: FastifyBaseLogger;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(name: string, intervalMs: number, run: () => Promise<unknown>, log: FastifyBaseLogger) {
    this.name = name;
    this.#intervalMs = intervalMs;
    this.#run = run;
    this.#log = log;
  }

  start(): void {
    this.#timer = setInterval(() => void this.runOnce(), this.#intervalMs);
    this.#timer.unref();
  }

  /** One run now; overlapping runs are skipped rather than stacked. */
  runOnce(): Promise<void> {
    this.#running ??= this.#run()
      .then(() => undefined)
      .catch((err: unknown) => this.#log.error({ err, job: this.name }, 'background job failed'))
      .finally(() => (this.#running = undefined));
    return this.#running;
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    await this.#running;
  }
}
