// The load of bench/stream.ts, in processes of their own (so the API process measured is only the API), each driven
// by its parent over an IPC channel:
//   - `watch`: players holding the change stream open, over raw TCP (one socket each, as a browser's EventSource
//     holds one), counting the messages they receive; every SAMPLE_EVERY-th player also notes when each `odds`
//     message arrived (its selection and odds version, the key the changer noted the change's commit under);
//   - `poll`: players reading an event page every few seconds over kept-alive connections, as a polling screen does;
//   - `change`: a trader moving the prices of the live markets through the trading API, each market once every few
//     seconds, noting when each change was answered (committed).
// Times are performance.timeOrigin + performance.now(): the same clock in every process of this machine.
import { Agent, request as httpRequest } from 'node:http';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the parent asks; each answer is one message back, `{ done: op, ... }`. */
export type StreamClientCommand =
  | { op: 'open'; url: string; topics: string[]; from: number; count: number }
  | { op: 'mark' }
  | { op: 'report' }
  | { op: 'close' }
  | {
      op: 'poll';
      url: string;
      paths: string[];
      players: number;
      everyMs: number;
      durationMs: number;
      acceptEncoding: string;
      revalidate: boolean;
    }
  | { op: 'start'; url: string; token: string; markets: ChangedMarket[]; moveSeconds: number }
  | { op: 'stop' };

/** A live market the changer moves: its selections and their current odds. */
export interface ChangedMarket {
  selections: Array<{ id: string; odds: string }>;
}

/** What the watchers received since the last mark. */
export interface WatchReport {
  open: number;
  failed: number;
  closedByServer: number;
  messages: number;
  heartbeats: number;
  bytes: number;
  /** [selectionId@oddsVersion, received at] of the sampled players' odds messages */
  samples: Array<[string, number]>;
  cpuMs: number;
}

export interface PollReport {
  reads: number;
  notModified: number;
  errors: number;
  bytes: number;
  p50: number;
  p99: number;
  cpuMs: number;
}

export interface ChangeReport {
  /** [selectionId@oddsVersion, answered at] */
  commits: Array<[string, number]>;
  errors: number;
  p50: number;
  p99: number;
  cpuMs: number;
}

/** One player in SAMPLE_EVERY notes its odds messages' arrival (the others only count). */
export const SAMPLE_EVERY = 20;

const now = () => performance.timeOrigin + performance.now();
const send = (message: object) => process.send!(message);
const percentile = (sorted: number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? 0;
let cpuMark = process.cpuUsage();
const cpuSinceMark = () => {
  const used = process.cpuUsage(cpuMark);
  return (used.user + used.system) / 1000;
};

// ---- watch ----

const EVENT = Buffer.from('event: ');
const HEARTBEAT = Buffer.from(':\n\n');
const ODDS = 'event: odds\ndata: ';
const sockets = new Set<Socket>();
const watch = { open: 0, failed: 0, closedByServer: 0, messages: 0, heartbeats: 0, bytes: 0 };
let samples: Array<[string, number]> = [];
let closing = false;

function count(chunk: Buffer, pattern: Buffer): number {
  let found = 0;
  for (let at = chunk.indexOf(pattern); at >= 0; at = chunk.indexOf(pattern, at + pattern.length)) found++;
  return found;
}

/** Opens one stream; resolves once its headers came (or it failed). */
function openStream(url: URL, topic: string, sampled: boolean): Promise<void> {
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) });
    let headers = true;
    let text = '';
    socket.on('connect', () => {
      socket.write(
        `GET /api/v1/stream?topics=${encodeURIComponent(topic)} HTTP/1.1\r\nHost: ${url.host}\r\n` +
          'Accept: text/event-stream\r\n\r\n',
      );
    });
    socket.on('data', (chunk: Buffer) => {
      const at = now();
      watch.bytes += chunk.length;
      if (headers) {
        const end = chunk.indexOf('\r\n\r\n');
        if (end < 0) return;
        headers = false;
        if (!chunk.subarray(0, 16).toString('latin1').includes(' 200 ')) {
          watch.failed++;
          socket.destroy();
          resolve();
          return;
        }
        watch.open++;
        sockets.add(socket);
        resolve();
        chunk = chunk.subarray(end + 4);
      }
      // Chunked transfer coding: the chunk sizes are lines of their own, and never match the patterns.
      watch.messages += count(chunk, EVENT);
      if (chunk.length < 16) watch.heartbeats += count(chunk, HEARTBEAT);
      if (!sampled) return;
      text += chunk.toString('utf8');
      for (let start = text.indexOf(ODDS); start >= 0; start = text.indexOf(ODDS)) {
        const end = text.indexOf('\n', start + ODDS.length);
        if (end < 0) break;
        const data = JSON.parse(text.slice(start + ODDS.length, end)) as { selectionId: string; oddsVersion: number };
        samples.push([`${data.selectionId}@${data.oddsVersion}`, at]);
        text = text.slice(end);
      }
      // Keep only what may start an unfinished odds message.
      if (text.length > 4096) text = text.slice(-4096);
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      if (sockets.delete(socket) && !closing) watch.closedByServer++;
      if (headers) {
        watch.failed++;
        resolve();
      }
    });
  });
}

async function open(command: Extract<StreamClientCommand, { op: 'open' }>): Promise<void> {
  const url = new URL(command.url);
  let next = 0;
  // A few hundred connections in flight at once, as players arrive: not all in the same instant.
  await Promise.all(
    Array.from({ length: Math.min(200, command.count) }, async () => {
      while (next < command.count) {
        const index = command.from + next++;
        await openStream(url, command.topics[index % command.topics.length]!, index % SAMPLE_EVERY === 0);
      }
    }),
  );
}

// ---- poll ----

async function poll(command: Extract<StreamClientCommand, { op: 'poll' }>): Promise<PollReport> {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  const url = new URL(command.url);
  const latencies: number[] = [];
  const result = { reads: 0, notModified: 0, errors: 0, bytes: 0 };
  const started = performance.now();
  const read = (path: string, etag: string | undefined) =>
    new Promise<string | undefined>((resolve) => {
      const headers = { 'accept-encoding': command.acceptEncoding, ...(etag ? { 'if-none-match': etag } : {}) };
      const request = httpRequest({ host: url.hostname, port: url.port, path, headers, agent }, (response) => {
        response.on('data', (chunk: Buffer) => (result.bytes += chunk.length));
        response.on('end', () => {
          result.reads++;
          if (response.statusCode === 304) result.notModified++;
          else if (response.statusCode !== 200) result.errors++;
          resolve(response.headers.etag ?? etag);
        });
      });
      request.on('error', () => {
        result.errors++;
        resolve(etag);
      });
      request.end();
    });
  await Promise.all(
    Array.from({ length: command.players }, async (_, player) => {
      const path = command.paths[player % command.paths.length]!;
      let etag: string | undefined;
      // Players spread evenly over the period, each reading once a period.
      for (let round = 0; ; round++) {
        const due = started + (player / command.players + round) * command.everyMs;
        if (due >= started + command.durationMs) return;
        if (due > performance.now()) await sleep(due - performance.now());
        const given = await read(path, etag);
        latencies.push(performance.now() - due);
        if (command.revalidate) etag = given;
      }
    }),
  );
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { ...result, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), cpuMs: cpuSinceMark() };
}

// ---- change ----

let changing: Promise<ChangeReport> | undefined;
let stopChanging = false;
let stopping = new AbortController();

async function change(command: Extract<StreamClientCommand, { op: 'start' }>): Promise<ChangeReport> {
  const commits: Array<[string, number]> = [];
  const latencies: number[] = [];
  let errors = 0;
  const periodMs = command.moveSeconds * 1000;
  const started = performance.now();
  await Promise.all(
    command.markets.map(async (market, index) => {
      // Every market once a period, the markets spread evenly over it.
      for (let round = 0; !stopChanging; round++) {
        const due = started + (index / command.markets.length + round) * periodMs;
        if (due > performance.now())
          await sleep(due - performance.now(), undefined, { signal: stopping.signal }).catch(() => {});
        if (stopChanging) return;
        const selection = market.selections[round % market.selections.length]!;
        const odds = moved(selection.odds);
        const sent = performance.now();
        const response = await fetch(`${command.url}/api/v1/admin/trading/selections/${selection.id}/odds`, {
          method: 'PUT',
          headers: { authorization: `Bearer ${command.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ odds }),
        });
        const answer = (await response.json()) as { selection?: { oddsVersion: number; odds: string } };
        const at = now();
        latencies.push(performance.now() - sent);
        if (response.status !== 200 || !answer.selection) {
          errors++;
          continue;
        }
        selection.odds = answer.selection.odds;
        commits.push([`${selection.id}@${answer.selection.oddsVersion}`, at]);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { commits, errors, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), cpuMs: cpuSinceMark() };
}

/** A price's next step: up or down by 1 to 5 %, two decimals, never the same, between 1.01 and 50. */
function moved(odds: string): string {
  const current = Number(odds);
  const step = (0.01 + Math.random() * 0.04) * (Math.random() < 0.5 ? -1 : 1);
  let next = Math.min(50, Math.max(1.01, Math.round(current * (1 + step) * 100) / 100));
  if (next.toFixed(2) === current.toFixed(2)) next = current >= 49 ? current - 0.01 : current + 0.01;
  return next.toFixed(2);
}

// ---- the parent's commands ----

process.on('message', (command: StreamClientCommand) => {
  void (async () => {
    switch (command.op) {
      case 'open':
        await open(command);
        send({ done: 'open', open: watch.open, failed: watch.failed });
        break;
      case 'mark':
        Object.assign(watch, { messages: 0, heartbeats: 0, bytes: 0, closedByServer: 0 });
        samples = [];
        cpuMark = process.cpuUsage();
        send({ done: 'mark' });
        break;
      case 'report': {
        const report: WatchReport = { ...watch, samples, cpuMs: cpuSinceMark() };
        samples = [];
        send({ done: 'report', report });
        break;
      }
      case 'close':
        closing = true;
        for (const socket of sockets) socket.destroy();
        send({ done: 'close' });
        break;
      case 'poll':
        cpuMark = process.cpuUsage();
        send({ done: 'poll', report: await poll(command) });
        break;
      case 'start':
        stopChanging = false;
        stopping = new AbortController();
        cpuMark = process.cpuUsage();
        changing = change(command);
        send({ done: 'start' });
        break;
      case 'stop':
        stopChanging = true;
        stopping.abort();
        send({ done: 'stop', report: await changing });
        break;
    }
  })();
});
process.on('disconnect', () => process.exit(0));
