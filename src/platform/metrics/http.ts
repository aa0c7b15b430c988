import type { FastifyInstance } from 'fastify';
import type { Count, Metrics, Timing } from './metrics.ts';

const LABELS = ['method', 'route', 'status_class'] as const;

/**
 * Counts and times every answer of the API by method, route template (`/api/v1/bets/{betId}`, never the path a
 * client sent, so the series are bounded by the routes) and status class; a request no route matched is
 * `unmatched`. The series of each method, route and status are found once and kept.
 */
export function recordRequests(app: FastifyInstance, metrics: Metrics): void {
  if (!metrics.recording) return;
  const answers = metrics.counter('bookmaker_http_requests_total', 'Requests answered by the API.', LABELS);
  const durations = metrics.histogram(
    'bookmaker_http_request_duration_seconds',
    'Time the API took to answer a request, from its arrival to the last byte written.',
    LABELS,
  );
  const series = new Map<string, { count: Count; timing: Timing }>();
  app.addHook('onResponse', (request, reply, done) => {
    const template = request.routeOptions.url;
    const key = `${request.method} ${reply.statusCode} ${template ?? ''}`;
    let one = series.get(key);
    if (one === undefined) {
      const labels = {
        method: request.method,
        route: routeLabel(template),
        status_class: statusClass(reply.statusCode),
      };
      one = { count: answers.of(labels), timing: durations.of(labels) };
      series.set(key, one);
    }
    one.count.inc();
    one.timing.observe(reply.elapsedTime / 1000);
    done();
  });
}

/** Fastify's `/bets/:betId` as OpenAPI writes it, `/bets/{betId}`: the name the API reference uses. */
function routeLabel(template: string | undefined): string {
  return template === undefined ? 'unmatched' : template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

function statusClass(status: number): string {
  return `${Math.floor(status / 100)}xx`;
}
