import { AppError } from '../errors.ts';
import type { Count, Family, Metrics, Timing } from './metrics.ts';

/** A use case's two metrics: a counter of its answers by outcome, and a histogram of its time by result. */
export interface OutcomeMetricNames {
  /** Its counter, labelled `outcome`: `accepted`, or the error code it was refused with. */
  count: { name: string; help: string };
  /** Its histogram, labelled `result`: `accepted` or `refused`. */
  duration: { name: string; help: string };
}

/**
 * Counts and times a use case that either succeeds or throws. The outcome of a refusal is its AppError's code
 * (a catalogue's, so the label values are bounded); anything else thrown is `internal`, as the API answers it.
 */
export class OutcomeMetrics {
  readonly #recording: boolean;
  readonly #outcomes: Family<'outcome', Count>;
  readonly #accepted: Count;
  readonly #acceptedTime: Timing;
  readonly #refusedTime: Timing;

  constructor(metrics: Metrics, names: OutcomeMetricNames) {
    this.#recording = metrics.recording;
    this.#outcomes = metrics.counter(names.count.name, names.count.help, ['outcome']);
    const durations = metrics.histogram(names.duration.name, names.duration.help, ['result']);
    this.#accepted = this.#outcomes.of({ outcome: 'accepted' });
    this.#acceptedTime = durations.of({ result: 'accepted' });
    this.#refusedTime = durations.of({ result: 'refused' });
  }

  async time<T>(work: () => Promise<T>): Promise<T> {
    if (!this.#recording) return work();
    const started = performance.now();
    try {
      const result = await work();
      this.#accepted.inc();
      this.#acceptedTime.observe((performance.now() - started) / 1000);
      return result;
    } catch (error) {
      this.#outcomes.of({ outcome: error instanceof AppError ? error.code : 'internal' }).inc();
      this.#refusedTime.observe((performance.now() - started) / 1000);
      throw error;
    }
  }
}
