// npm run bench (third part): the change stream on a Saturday (issue 35). The API in this process, on PostgreSQL (the
// stream hears the database's changes through LISTEN/NOTIFY); the players and the trader in processes of their own
// (bench/stream-clients.ts), so the API's CPU and memory are its own, read from /proc. On the demo catalog's live
// events:
//   - at rest, and with the trader alone (every live market's price moved once every BENCH_STREAM_MOVE_SECONDS (3)
//     through PUT /api/v1/admin/trading/selections/{id}/odds): what the changes cost without anyone watching;
//   - BENCH_STREAM_PLAYERS (1000,5000,10000,15000) players in steps, each holding a stream on one live event or the
//     live list, from BENCH_STREAM_PROCESSES (4) processes: at each step the API's memory after a full collection,
//     its CPU over one heartbeat period with nothing changing (idle connections), then BENCH_STREAM_SECONDS (10) with
//     the trader moving prices: CPU per second and per delivered message, and from a change being committed (the
//     trading API's answer received by the trader) to its message received by a player, p50 and p99;
//   - the same players polling an event page every 5 s instead (BENCH_POLL_PLAYERS, 1000,5000), while the trader
//     moves prices: CPU per read, in full (plain, and compressed as a browser asks) and revalidated (If-None-Match).
// Beside pgbench TPC-B on the same server in the same run, as bench/load.ts: ratios travel, milliseconds do not.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { logDestination } from '../src/platform/http/logging.ts';
import { seedDemoCatalog } from '../src/seed/demo-catalog.ts';
import { loginAsStaff, startTestApp } from '../test/helpers/app.ts';
import type { ChangedMarket, ChangeReport, PollReport, StreamClientCommand, WatchReport } from './stream-clients.ts';
import { SAMPLE_EVERY } from './stream-clients.ts';
import { baselineUrl, cpuUsedByGroup, inProcessService, pgbench, processCpu } from './support.ts';

const list = (value: string | undefined, fallback: number[]) =>
  value ? value.split(',').map(Number).filter(Boolean) : fallback;
const STEPS = list(process.env.BENCH_STREAM_PLAYERS, [1_000, 5_000, 10_000, 15_000]);
const POLLERS = list(process.env.BENCH_POLL_PLAYERS, [1_000, 5_000]);
const PROCESSES = Number(process.env.BENCH_STREAM_PROCESSES ?? 4);
const ACTIVE_MS = Number(process.env.BENCH_STREAM_SECONDS ?? 10) * 1000;
const MOVE_SECONDS = Number(process.env.BENCH_STREAM_MOVE_SECONDS ?? 3);
const POLL_EVERY_MS = 5_000;
/** The service's default: an idle phase is one heartbeat period, so it holds one round of heartbeats. */
const HEARTBEAT_SECONDS = 15;
/** The goals of issue 35. */
const GOALS = { players: 15_000, p99Ms: 250, playersPerCore: 20_000, bytesPerConnection: 20 * 1024 };
const BROWSER = 'gzip, deflate, br';

if (!process.env.DATABASE_URL) {
  console.log('stream: skipped: the change stream hears the database through LISTEN/NOTIFY; set DATABASE_URL');
  process.exit(0);
}

/** `ulimit -n` (soft and hard) as /proc says it: the children inherit it, and none may raise it past the hard one. */
const files = (() => {
  try {
    const line = readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((row) => row.startsWith('Max open files'));
    const [soft, hard] = line?.split(/\s+/).slice(3, 5) ?? [];
    return `${soft} soft, ${hard} hard`;
  } catch {
    return undefined;
  }
})();

const baseline = await pgbench(baselineUrl()!);
const t = await startTestApp(
  {
    LOG_LEVEL: 'info',
    METRICS_PORT: 'off',
    // Every player comes from 127.0.0.1 here.
    STREAM_MAX_PER_ADDRESS: '1000000',
    STREAM_HEARTBEAT_SECONDS: String(HEARTBEAT_SECONDS),
  },
  { logStream: logDestination('/dev/null') },
);
const { ticking, owners } = inProcessService(t);

/** One child process of bench/stream-clients.ts, answering each command once. */
class Child {
  readonly process: ChildProcess;
  constructor() {
    this.process = fork(join(import.meta.dirname, 'stream-clients.ts'), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
  }
  ask<T>(command: StreamClientCommand): Promise<T> {
    return new Promise((resolve, reject) => {
      const answered = (message: { done: string }) => {
        if (message.done !== command.op) return;
        this.process.off('message', answered);
        this.process.off('exit', exited);
        resolve(message as T);
      };
      const exited = () => reject(new Error(`a stream client exited during ${command.op}`));
      this.process.on('message', answered);
      this.process.once('exit', exited);
      this.process.send(command);
    });
  }
  stop() {
    this.process.disconnect();
  }
}

interface Phase {
  seconds: number;
  /** the API process's CPU, ms a second */
  api: number;
  /** the service's PostgreSQL backends' CPU, ms a second */
  postgres: number;
}

/** The API's and its database's CPU over `work`, per second of it. */
async function phase(work: () => Promise<void>): Promise<Phase> {
  const before = processCpu();
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const used = cpuUsedByGroup(before, processCpu(), owners);
  return {
    seconds,
    api: (used.get('API') ?? 0) / seconds,
    postgres: (used.get('PostgreSQL, service') ?? 0) / seconds,
  };
}

function settledMemory() {
  globalThis.gc?.();
  globalThis.gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rss, heap: heapUsed + external + arrayBuffers };
}

const percentile = (sorted: number[], fraction: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? NaN;

interface Step {
  players: number;
  open: number;
  failed: number;
  idle: Phase;
  active: Phase;
  /** bytes of the API's RSS and of its heap (JS, external, array buffers) per connection, against none */
  rssPerConnection: number;
  heapPerConnection: number;
  messagesPerSecond: number;
  p50: number;
  p99: number;
  latencySamples: number;
  closedByServer: number;
  clientCpu: number;
}

const watchers = Array.from({ length: PROCESSES }, () => new Child());
const trader = new Child();
const pollers = new Child();
const steps: Step[] = [];
const polls: Array<{ name: string; players: number; result: PollReport; cpu: Phase }> = [];
let stopped = '';

try {
  process.stdout.write('stream: seeding the demo catalog ...\n');
  await seedDemoCatalog(t.app.services, t.clock);
  await sql`analyze`.execute(t.db);
  const live = (await t.request('GET', '/api/v1/catalog/live')).body.events as Array<{ id: string }>;
  const markets: ChangedMarket[] = [];
  let largest = { path: '', bytes: 0 };
  for (const { id } of live) {
    const response = await t.request('GET', `/api/v1/catalog/events/${id}`);
    const event = response.body.event as {
      markets: Array<{ status: string; selections: Array<{ id: string; odds: string }> }>;
    };
    for (const market of event.markets.filter((m) => m.status === 'open'))
      markets.push({ selections: market.selections.map(({ id: selectionId, odds }) => ({ id: selectionId, odds })) });
    if (response.text.length > largest.bytes)
      largest = { path: `/api/v1/catalog/events/${id}`, bytes: response.text.length };
  }
  const topics = [...live.map(({ id }) => `event:${id}`), 'live'];
  const token = (await loginAsStaff(t, 'trader')).token;
  const moves = { url: t.url, token, markets, moveSeconds: MOVE_SECONDS };
  console.log(
    `stream: ${live.length} live events, ${markets.length} open markets, each moved once every ${MOVE_SECONDS} s ` +
      `(${(markets.length / MOVE_SECONDS).toFixed(0)} price changes a second); players watch one of ${topics.length} topics`,
  );

  const trading = async <T>(work: () => Promise<T>) => {
    await trader.ask({ op: 'start', ...moves });
    const result = await work();
    const { report } = await trader.ask<{ report: ChangeReport }>({ op: 'stop' });
    return { result, report };
  };

  // At rest, then the trader alone: the floor under every step.
  await sleep(1_000);
  const memoryAtRest = settledMemory();
  const rest = await phase(() => sleep(HEARTBEAT_SECONDS * 1000));
  let alone!: ChangeReport;
  const changer = await phase(async () => {
    alone = (await trading(() => sleep(ACTIVE_MS))).report;
  });
  console.log(
    `stream: at rest the API used ${rest.api.toFixed(1)} ms/s; with the trader alone ${changer.api.toFixed(1)} ms/s ` +
      `(${alone.commits.length} changes, PUT p50 ${alone.p50.toFixed(1)} ms, p99 ${alone.p99.toFixed(1)} ms, ${alone.errors} refused)`,
  );

  let opened = 0;
  for (const players of STEPS) {
    process.stdout.write(`stream: ${players} players: connecting ...\n`);
    const more = players - opened;
    const counts = await Promise.all(
      watchers.map((child, i) => {
        const share = Math.floor(more / PROCESSES) + (i < more % PROCESSES ? 1 : 0);
        const from =
          opened +
          watchers
            .slice(0, i)
            .reduce((sum, _, j) => sum + Math.floor(more / PROCESSES) + (j < more % PROCESSES ? 1 : 0), 0);
        return child.ask<{ open: number; failed: number }>({ op: 'open', url: t.url, topics, from, count: share });
      }),
    );
    opened = players;
    const open = counts.reduce((sum, c) => sum + c.open, 0);
    const failed = counts.reduce((sum, c) => sum + c.failed, 0);
    await sleep(2_000);
    const memory = settledMemory();
    process.stdout.write(
      `stream: ${players} players: ${open} open, ${failed} failed; idle ${HEARTBEAT_SECONDS} s ...\n`,
    );
    await Promise.all(watchers.map((child) => child.ask({ op: 'mark' })));
    const idle = await phase(() => sleep(HEARTBEAT_SECONDS * 1000));
    await Promise.all(watchers.map((child) => child.ask({ op: 'mark' })));
    process.stdout.write(`stream: ${players} players: prices moving ${ACTIVE_MS / 1000} s ...\n`);
    let moved!: ChangeReport;
    const active = await phase(async () => {
      moved = (await trading(() => sleep(ACTIVE_MS))).report;
    });
    // Messages still on their way when the trader stopped.
    await sleep(500);
    const reports = (
      await Promise.all(watchers.map((child) => child.ask<{ report: WatchReport }>({ op: 'report' })))
    ).map((answer) => answer.report);
    const committed = new Map(moved.commits);
    const latencies = reports
      .flatMap((report) => report.samples)
      .flatMap(([key, at]) => (committed.has(key) ? [at - committed.get(key)!] : []))
      .sort((a, b) => a - b);
    const messages = reports.reduce((sum, r) => sum + r.messages, 0);
    const step: Step = {
      players,
      open,
      failed,
      idle,
      active,
      rssPerConnection: (memory.rss - memoryAtRest.rss) / open,
      heapPerConnection: (memory.heap - memoryAtRest.heap) / open,
      messagesPerSecond: messages / active.seconds,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      latencySamples: latencies.length,
      closedByServer: reports.reduce((sum, r) => sum + r.closedByServer, 0),
      clientCpu: reports.reduce((sum, r) => sum + r.cpuMs, 0) / active.seconds,
    };
    steps.push(step);
    console.log(
      `stream: ${players} players: API ${idle.api.toFixed(0)} ms/s idle, ${active.api.toFixed(0)} ms/s with prices moving ` +
        `(${step.messagesPerSecond.toFixed(0)} messages/s), p50 ${step.p50.toFixed(1)} ms, p99 ${step.p99.toFixed(1)} ms, ` +
        `RSS ${((memory.rss - memoryAtRest.rss) / 2 ** 20).toFixed(0)} MiB more than at rest`,
    );
    if (failed > 0 || open < players) {
      stopped = `${players - open} of ${players} streams could not be opened`;
      break;
    }
    if (active.api >= 1000) {
      stopped = `the API used ${(active.api / 1000).toFixed(2)} cores at ${players} players`;
      break;
    }
  }
  await Promise.all(watchers.map((child) => child.ask({ op: 'close' })));
  await sleep(2_000);

  // The same players polling instead: an event page every 5 s, while the prices move.
  const live0 = live.map(({ id }) => `/api/v1/catalog/events/${id}`);
  const pollings: Array<[string, number, string, boolean]> = [
    ...POLLERS.slice(0, 1).flatMap((players): Array<[string, number, string, boolean]> => [
      ['in full, plain', players, 'identity', false],
      ['in full, compressed', players, BROWSER, false],
    ]),
    ...POLLERS.map((players): [string, number, string, boolean] => ['revalidated', players, BROWSER, true]),
  ];
  for (const [name, players, acceptEncoding, revalidate] of pollings) {
    process.stdout.write(`stream: ${players} players polling, ${name} ...\n`);
    let result!: PollReport;
    const cpu = await phase(async () => {
      result = (
        await trading(() =>
          pollers.ask<{ report: PollReport }>({
            op: 'poll',
            url: t.url,
            paths: live0,
            players,
            everyMs: POLL_EVERY_MS,
            durationMs: ACTIVE_MS,
            acceptEncoding,
            revalidate,
          }),
        )
      ).result.report;
    });
    polls.push({ name, players, result, cpu });
  }

  report(rest, changer, alone, largest.path);
} finally {
  clearInterval(ticking);
  for (const child of [...watchers, trader, pollers]) child.stop();
  await t.close();
}

function report(rest: Phase, changer: Phase, alone: ChangeReport, polled: string) {
  const tps = baseline?.tps;
  const perTransaction = baseline?.postgresCpuMs ?? undefined;
  const inTpcb = (ms: number) => (perTransaction ? ` (${(ms / perTransaction).toFixed(2)} TPC-B)` : '');
  console.log(`\nstream, database: PostgreSQL, ${PROCESSES} player processes, open files: ${files ?? 'unknown'}`);
  if (tps) {
    console.log(
      `pgbench TPC-B, 8 clients, scale 10 (baseline): ${tps.toFixed(0)}/s` +
        (perTransaction ? `, PostgreSQL's CPU ${perTransaction.toFixed(3)} ms a transaction` : ''),
    );
  }
  const changeCost = changer.api - rest.api;
  const changesPerSecond = alone.commits.length / changer.seconds;
  console.log(
    `the API at rest: ${rest.api.toFixed(1)} ms/s; the trader alone: +${changeCost.toFixed(1)} ms/s for ` +
      `${changesPerSecond.toFixed(1)} price changes/s (${(changeCost / changesPerSecond).toFixed(2)} ms a change` +
      `${inTpcb(changeCost / changesPerSecond)}), PostgreSQL ${changer.postgres.toFixed(1)} ms/s`,
  );
  console.log(
    '\n| players | open | API idle ms/s | API active ms/s | PostgreSQL ms/s | messages/s | idle µs/conn/s | ' +
      'API ms/message | p50 ms | p99 ms | samples | RSS KiB/conn | heap KiB/conn | players ms/s |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const step of steps) {
    const idlePerConnection = ((step.idle.api - rest.api) / step.open) * 1000;
    const perMessage = (step.active.api - step.idle.api - changeCost) / step.messagesPerSecond;
    console.log(
      `| ${step.players} | ${step.open} | ${step.idle.api.toFixed(0)} | ${step.active.api.toFixed(0)} | ` +
        `${step.active.postgres.toFixed(0)} | ${step.messagesPerSecond.toFixed(0)} | ${idlePerConnection.toFixed(2)} | ` +
        `${perMessage.toFixed(4)}${inTpcb(perMessage)} | ${step.p50.toFixed(1)} | ${step.p99.toFixed(1)} | ` +
        `${step.latencySamples} | ${(step.rssPerConnection / 1024).toFixed(1)} | ${(step.heapPerConnection / 1024).toFixed(1)} | ` +
        `${step.clientCpu.toFixed(0)} |`,
    );
  }
  if (stopped) console.log(`stopped stepping up: ${stopped}`);
  const last = steps.at(-1);
  if (last) {
    const idlePerConnection = (last.idle.api - rest.api) / last.open;
    const perMessage = (last.active.api - last.idle.api - changeCost) / last.messagesPerSecond;
    const messagesPerPlayer = last.messagesPerSecond / last.open;
    const perPlayer = idlePerConnection + messagesPerPlayer * perMessage;
    const perCore = (1000 - rest.api - changeCost) / perPlayer;
    const held = steps.filter((s) => s.active.api < 1000 && s.p99 <= GOALS.p99Ms && s.failed === 0).at(-1);
    console.log(
      `\nplayers one API core carries at this workload (${messagesPerPlayer.toFixed(2)} messages a player a second): ` +
        `${perCore.toFixed(0)} (goal ${GOALS.playersPerCore}); the most held under one core with p99 <= ${GOALS.p99Ms} ms: ` +
        `${held?.players ?? 0} (goal ${GOALS.players}); RSS per idle connection ${(last.rssPerConnection / 1024).toFixed(1)} KiB ` +
        `(goal ${GOALS.bytesPerConnection / 1024} KiB)`,
    );
  }
  console.log(`\npolling ${polled} and the other live events' pages every ${POLL_EVERY_MS / 1000} s, prices moving:`);
  console.log(
    '| players | reads | reads/s | 304 | bytes/read | p50 ms | p99 ms | API ms/s | API ms/read | PostgreSQL ms/read |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const { name, players, result, cpu } of polls) {
    const perSecond = result.reads / cpu.seconds;
    const apiPerRead = (cpu.api - changer.api) / perSecond;
    const postgresPerRead = (cpu.postgres - changer.postgres) / perSecond;
    console.log(
      `| ${players}, ${name} | ${result.reads} | ${perSecond.toFixed(0)} | ${((result.notModified / result.reads) * 100).toFixed(0)} % | ` +
        `${(result.bytes / result.reads).toFixed(0)} | ${result.p50.toFixed(1)} | ${result.p99.toFixed(1)} | ` +
        `${cpu.api.toFixed(0)} | ${apiPerRead.toFixed(3)}${inTpcb(apiPerRead)} | ${postgresPerRead.toFixed(3)} |` +
        (result.errors ? ` ${result.errors} errors` : ''),
    );
  }
  console.log(`(latencies sampled from one player in ${SAMPLE_EVERY}; the API's CPU of the trader alone taken off)`);
}
