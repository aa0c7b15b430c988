import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { isIP, type AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsListener {
  /** Where Prometheus scrapes, e.g. http://127.0.0.1:9464/metrics */
  url: string;
  close(): Promise<void>;
}

const METRICS_PATH = '/metrics';

/**
 * The scrape endpoint, on a listener of its own and never on the API's port: the API may be public, the metrics
 * (tenants' ids, error rates) are not. GET /metrics answers the registry in the Prometheus text format; anything
 * else is 404. Rejects with Node's error (EADDRINUSE for a busy port) when it cannot listen.
 */
export async function serveMetrics(
  registry: Registry,
  address: { host: string; port: number },
): Promise<MetricsListener> {
  const server = createServer((request, response) => void answer(registry, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: address.host, port: address.port, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = isIP(address.host) === 6 ? `[${address.host}]` : address.host;
  return {
    url: `http://${host}:${port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // A scraper keeps its connection alive between scrapes: closing must not wait for it to go.
        server.closeAllConnections();
      }),
  };
}

async function answer(registry: Registry, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const path = (request.url ?? '').split('?')[0];
  if (request.method !== 'GET' || path !== METRICS_PATH) {
    send(response, 404, 'application/json', notFound(`The metrics are served at GET ${METRICS_PATH}.`));
    return;
  }
  try {
    send(response, 200, registry.contentType, await registry.metrics());
  } catch (error) {
    const message = `The metrics could not be read: ${error instanceof Error ? error.message : String(error)}`;
    send(response, 500, 'application/json', JSON.stringify({ error: { code: 'internal', message } }));
  }
}

function notFound(message: string): string {
  return JSON.stringify({ error: { code: 'not_found', message } });
}

function send(response: ServerResponse, status: number, contentType: string, body: string): void {
  response.writeHead(status, {
    'content-type': contentType,
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  response.end(body);
}
