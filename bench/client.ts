// The load generator of bench/load.ts, in a process of its own, so the API process measured is only the API (its
// CPU and memory are not shared with the client's). Reads one job as JSON on stdin, runs it with concurrent clients
// over HTTP, and writes what it achieved (LoadResult) as JSON on stdout.
import { randomBytes } from 'node:crypto';
import { text } from 'node:stream/consumers';
import { drive, type LoadJob } from './support.ts';

const job = JSON.parse(await text(process.stdin)) as LoadJob;

const post = async (path: string, headers: Record<string, string>, body: unknown, expected: number) => {
  const response = await fetch(`${job.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const answer = await response.text();
  if (response.status !== expected) throw new Error(`${path}: ${response.status} ${answer}`);
};

const work = (): ((client: number, round: number) => Promise<void>) => {
  switch (job.kind) {
    case 'place':
      return (client, round) => {
        const selection = job.selections[(round + client) % job.selections.length]!;
        return post(
          '/api/v1/bets',
          { authorization: `Bearer ${job.tokens[client % job.tokens.length]}` },
          {
            requestId: `load-${randomBytes(8).toString('hex')}`,
            stake: 100,
            legs: [{ selectionId: selection.id, odds: selection.odds }],
          },
          201,
        );
      };
    case 'session':
      return (client, round) =>
        post(
          '/api/v1/integration/sessions',
          { 'x-tenant-id': job.tenantId, 'x-api-key': job.apiKey },
          { externalPlayerId: `load-session-${client}-${round % 100}` },
          200,
        );
    case 'launch':
      return async (client) => {
        const launchToken = job.launchTokens[client]!.pop();
        if (!launchToken) throw new Error('launch: the pool of launch tokens ran out; make it larger');
        await post('/api/v1/integration/launch', { 'x-tenant-id': job.tenantId }, { launchToken }, 200);
      };
    case 'alive':
      return async () => {
        const response = await fetch(`${job.url}/healthz`);
        await response.text();
        if (response.status !== 200) throw new Error(`healthz: ${response.status}`);
      };
    case 'read': {
      const etags = Array.from({ length: job.clients }, () => new Map<string, string>());
      return async (client, round) => {
        const path = job.paths[(round + client) % job.paths.length]!;
        const etag = job.revalidate ? etags[client]!.get(path) : undefined;
        const response = await fetch(`${job.url}${path}`, {
          headers: { 'accept-encoding': job.acceptEncoding, ...(etag ? { 'if-none-match': etag } : {}) },
        });
        await response.arrayBuffer();
        if (response.status === 304 && etag) return;
        if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
        const given = response.headers.get('etag');
        if (given) etags[client]!.set(path, given);
      };
    }
    case 'balance':
      return async (client) => {
        const response = await fetch(`${job.url}/api/v1/wallet/balance`, {
          headers: { authorization: `Bearer ${job.tokens[client % job.tokens.length]}` },
        });
        const answer = await response.text();
        if (response.status !== 200) throw new Error(`balance: ${response.status} ${answer}`);
      };
  }
};

process.stdout.write(JSON.stringify(await drive(job.clients, job.until, work(), job.perSecond)));
