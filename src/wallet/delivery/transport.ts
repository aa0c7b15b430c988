import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { bareHostname, specialAddressRange } from '../../platform/urls.ts';

/**
 * The one way out to a partner wallet. It resolves the host once per call, checks every address, then connects to
 * the checked address itself (so a second DNS answer cannot redirect it), ignores proxy settings (its agents are
 * its own and never read the environment), follows no redirects and gives up after the timeout.
 *
 * Connections are kept alive between calls, each pool pinned to one checked address, host and port: a pooled
 * connection is reused only by a later call whose own check chose that same address for that same host, so
 * reuse never skips a check and never carries one host's call to another's address.
 */
export interface TransportPolicy {
  /** APP_ENV=development only: plain http and https to loopback addresses, on any port. */
  allowLoopback: boolean;
  /** Staging and production: https on port 443 only. */
  requireHttps443: boolean;
  timeoutMs: number;
}

export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

export class TransportRefused extends Error {
  readonly reason: 'scheme' | 'port' | 'address' | 'resolution';
  constructor(reason: TransportRefused['reason'], message: string) {
    super(message);
    this.name = 'TransportRefused';
    this.reason = reason;
  }
}

/** No complete answer within the timeout: the request may or may not have been processed. */
export class TransportTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'TransportTimeout';
  }
}

export interface TransportResponse {
  status: number;
  body: string;
}

const MAX_RESPONSE_BYTES = 64 * 1024;

/**
 * An idle kept-alive connection is closed by us after this long, before common servers close theirs (Apache 5 s,
 * Node 5 s + 1 s, nginx 75 s): a call never starts on a connection the wallet is closing at that moment, which would
 * make its outcome unknown (for a stake debit: a refused bet and a rollback).
 */
export const IDLE_CONNECTION_MS = 4_000;

export class WalletTransport {
  readonly #policy: TransportPolicy;
  readonly #resolve: Resolver;
  readonly #agents = new Map<string, http.Agent>();

  constructor(policy: TransportPolicy, resolve: Resolver = systemResolver) {
    this.#policy = policy;
    this.#resolve = resolve;
  }

  /** Checks the URL and returns the one address the request will connect to; throws TransportRefused. */
  async checkedAddress(url: URL): Promise<string> {
    const isHttps = url.protocol === 'https:';
    if (!isHttps && !(url.protocol === 'http:' && this.#policy.allowLoopback)) {
      throw new TransportRefused('scheme', `${url.protocol} is not allowed; wallets are called over https`);
    }
    if (this.#policy.requireHttps443 && url.port !== '' && url.port !== '443') {
      throw new TransportRefused('port', `port ${url.port} is not allowed; wallets are called on port 443`);
    }
    const hostname = bareHostname(url);
    // IP literals (including forms such as 2130706433 that the URL parser turns into 127.0.0.1) never reach DNS.
    const addresses = isIP(hostname) ? [hostname] : await this.#resolveAll(hostname);
    for (const address of addresses) this.#checkAddress(address, isHttps);
    return addresses[0]!;
  }

  async #resolveAll(hostname: string): Promise<string[]> {
    let addresses: string[];
    try {
      addresses = await this.#resolve(hostname);
    } catch (error) {
      throw new TransportRefused('resolution', `cannot resolve ${hostname}: ${(error as Error).message}`);
    }
    if (addresses.length === 0) throw new TransportRefused('resolution', `${hostname} has no address`);
    return addresses;
  }

  /** Public unicast only; a name answering with any other address is refused as a whole. */
  #checkAddress(address: string, isHttps: boolean): void {
    const range = specialAddressRange(address);
    if (range === null) {
      if (!isHttps) throw new TransportRefused('scheme', 'plain http is allowed only to loopback in development');
      return;
    }
    if (range === 'loopback' && this.#policy.allowLoopback) return;
    throw new TransportRefused('address', `address ${address} (${range}) is not a public address`);
  }

  /**
   * POSTs exact bytes; resolves with any HTTP answer, rejects on refusal, connection error or timeout.
   * One deadline covers the whole attempt, name resolution included.
   */
  async post(rawUrl: string, body: string, headers: Record<string, string>): Promise<TransportResponse> {
    const url = new URL(rawUrl);
    // Elapsed real time, not the business clock: a monotonic deadline.
    const deadline = performance.now() + this.#policy.timeoutMs;
    const address = await withDeadline(this.checkedAddress(url), this.#policy.timeoutMs);
    return this.#send(url, address, body, headers, Math.max(1, Math.round(deadline - performance.now())));
  }

  #send(
    url: URL,
    address: string,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<TransportResponse> {
    const client = url.protocol === 'https:' ? https : http;
    const port = url.port || (url.protocol === 'https:' ? 443 : 80);
    const servername = isIP(bareHostname(url)) ? undefined : bareHostname(url);
    return new Promise((resolve, reject) => {
      const request = client.request({
        host: address,
        port,
        path: url.pathname + url.search,
        method: 'POST',
        agent: this.#agent(url, address),
        servername,
        headers: { ...headers, host: url.host, 'content-length': Buffer.byteLength(body) },
      });
      // One deadline for the whole exchange, connection to last byte of the answer.
      const deadline = setTimeout(() => request.destroy(new TransportTimeout(this.#policy.timeoutMs)), timeoutMs);
      const fail = (error: Error) => {
        clearTimeout(deadline);
        reject(error);
      };
      request.on('error', fail);
      request.on('response', (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) response.destroy(new Error('response body too large'));
          else chunks.push(chunk);
        });
        response.on('error', fail);
        response.on('end', () => {
          clearTimeout(deadline);
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
      });
      request.end(body);
    });
  }

  /** The keep-alive pool of one checked address for one host and port (see the class comment). */
  #agent(url: URL, address: string): http.Agent {
    const key = `${url.protocol}//${url.host}@${address}`;
    let agent = this.#agents.get(key);
    if (!agent) {
      const options = {
        keepAlive: true,
        // No cap on connections: the delivery engine bounds its own calls, and a stake debit must never wait in a
        // queue behind a settlement's credits (its 5 s deadline runs while it waits).
        scheduling: 'lifo' as const,
        // Node's agent closes a free connection whose socket times out; a connection in use is left to our deadline.
        timeout: IDLE_CONNECTION_MS,
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      this.#agents.set(key, agent);
    }
    return agent;
  }

  /**
   * Closes the idle pooled connections (at shutdown). Calls in flight keep theirs: the delivery engine may still be
   * finishing its last attempts, and a broken connection would make their outcome unknown.
   */
  close(): void {
    for (const agent of this.#agents.values()) {
      for (const sockets of Object.values(agent.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
    }
  }
}

function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new TransportTimeout(timeoutMs)), timeoutMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}
