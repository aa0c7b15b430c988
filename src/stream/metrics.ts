import type { Metrics } from '../platform/metrics/metrics.ts';

/** The stream as operators watch it: streams open, topics watched, messages sent, streams the service closed. */
export class StreamMetrics {
  readonly #messages;
  readonly #closed;

  constructor(metrics: Metrics, now: { streams(): number; channels(): number }) {
    this.#messages = metrics.counter(
      'bookmaker_stream_messages_total',
      'Stream messages encoded, by type (each written to every stream following its topic).',
      ['type'],
    );
    this.#closed = metrics.counter(
      'bookmaker_stream_closed_total',
      'Streams the service closed, by reason: slow (a reader that does not keep up), idle, shutdown.',
      ['reason'],
    );
    metrics.gaugeAtScrape('bookmaker_stream_connections', 'Change streams open now.', [], async (report) =>
      report({}, now.streams()),
    );
    metrics.gaugeAtScrape(
      'bookmaker_stream_topics',
      'Topics watched now (a player topic counts per player).',
      [],
      async (report) => report({}, now.channels()),
    );
  }

  sent(type: string): void {
    this.#messages.of({ type }).inc();
  }

  closed(reason: string): void {
    this.#closed.of({ reason }).inc();
  }
}
