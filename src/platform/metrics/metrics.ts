import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One series of a counter. */
export interface Count {
  inc(): void;
}

/** One series of a histogram: durations in seconds. */
export interface Timing {
  observe(seconds: number): void;
}

/** A gauge this process sets where what it measures changes. */
export interface Level {
  set(value: number): void;
}

type Labels<L extends string> = Record<L, string>;

/** A metric's series by label values; each series is made on first use and kept, so recording is one call. */
export interface Family<L extends string, S> {
  of(labels: Labels<L>): S;
}

/** What a gauge read at scrape time reports: one value per label set; label sets not given are absent. */
export type Reading<L extends string> = (report: (labels: Labels<L>, value: number) => void) => Promise<void>;

/**
 * Seconds, from 1 ms to 10 s: the API answers in milliseconds, a wallet call may take its whole 5 s timeout, and
 * anything slower is an outage whatever its exact length.
 */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const NOTHING: Count & Timing & Level = { inc() {}, observe() {}, set() {} };
const NO_FAMILY: Family<string, typeof NOTHING> = { of: () => NOTHING };

export interface MetricsOptions {
  /** Off: every instrument is a no-op and nothing is registered (METRICS_PORT=off: nobody could read them). */
  recording: boolean;
  /** Off: the tenant label of every series is `all` (METRICS_TENANT_LABELS=false). */
  tenantLabels: boolean;
  /** Told when a gauge read at scrape time fails; the gauge is then absent from that scrape. */
  onReadingFailed?: (metric: string, error: unknown) => void;
}

/**
 * One app's metrics, in a registry of its own (never prom-client's global one: tests run many apps in a process).
 * The domains define their metrics through this; the platform serves the registry (listener.ts).
 */
export class Metrics {
  readonly registry = new Registry();
  readonly recording: boolean;
  readonly #tenantLabels: boolean;
  readonly #onReadingFailed: (metric: string, error: unknown) => void;

  constructor(options: MetricsOptions) {
    this.recording = options.recording;
    this.#tenantLabels = options.tenantLabels;
    this.#onReadingFailed = options.onReadingFailed ?? (() => {});
  }

  /** The tenant label: the tenant's id, or `all` when per-tenant labels are off. */
  tenant(tenantId: string): string {
    return this.#tenantLabels ? tenantId : 'all';
  }

  counter<L extends string>(name: string, help: string, labelNames: readonly L[]): Family<L, Count> {
    if (!this.recording) return NO_FAMILY;
    const counter = new Counter({ name, help, labelNames, registers: [this.registry] });
    return family(labelNames, (labels) => counter.labels(labels));
  }

  histogram<L extends string>(name: string, help: string, labelNames: readonly L[]): Family<L, Timing> {
    if (!this.recording) return NO_FAMILY;
    const histogram = new Histogram({ name, help, labelNames, buckets: DURATION_BUCKETS, registers: [this.registry] });
    return family(labelNames, (labels) => histogram.labels(labels));
  }

  /** A gauge without labels that this process sets (the instance lock, ...). */
  level(name: string, help: string): Level {
    if (!this.recording) return NOTHING;
    return new Gauge({ name, help, registers: [this.registry] });
  }

  /**
   * A gauge read when it is scraped (counts in the database, the pool's connections). A reading that fails leaves
   * the gauge absent from that scrape rather than showing the last values as if they were current.
   */
  gaugeAtScrape<L extends string>(name: string, help: string, labelNames: readonly L[], read: Reading<L>): void {
    if (!this.recording) return;
    const onReadingFailed = this.#onReadingFailed;
    new Gauge({
      name,
      help,
      labelNames,
      registers: [this.registry],
      async collect() {
        this.reset();
        try {
          await read((labels, value) => this.set(labels, value));
        } catch (error) {
          this.reset();
          onReadingFailed(name, error);
        }
      },
    });
  }
}

function family<L extends string, S>(labelNames: readonly L[], make: (labels: Labels<L>) => S): Family<L, S> {
  const series = new Map<string, S>();
  return {
    of(labels) {
      const key = labelNames.map((name) => labels[name]).join('\u0000');
      let one = series.get(key);
      if (one === undefined) {
        one = make(labels);
        series.set(key, one);
      }
      return one;
    },
  };
}
