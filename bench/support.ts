// What the benchmarks share: the reference wallet in its own process, the pgbench baseline, and a load driver.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TestApp } from '../test/helpers/app.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../test/helpers/database.ts';

const ROOT = join(import.meta.dirname, '..');

export interface ReferenceWallet {
  url: string;
  pid: number;
  control(method: string, path: string, body?: unknown): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Which wallet the benchmarks call (BENCH_WALLET): `instant` (the default), answering from memory at once, as the
 * CPU goals are stated, so that the partner's wallet does not share the machine's cores with the service; or
 * `reference`, the reference wallet with its ledger in a database (on the PostgreSQL run, a database of its own on
 * the same server), as a partner would run it.
 */
export const WALLET_KIND = process.env.BENCH_WALLET === 'reference' ? 'reference' : 'instant';

/** The benchmarks' wallet in its own process (see WALLET_KIND); the reference wallet keeps its ledger in `databaseUrl`. */
export async function startWallet(databaseUrl: string | undefined): Promise<ReferenceWallet> {
  const controlToken = randomBytes(16).toString('hex');
  const program =
    WALLET_KIND === 'instant' ? join(ROOT, 'bench', 'instant-wallet.ts') : join(ROOT, 'reference-wallet', 'main.ts');
  const child = spawn(process.execPath, [program], {
    env: {
      ...process.env,
      WALLET_PORT: '0',
      WALLET_CONTROL_TOKEN: controlToken,
      ...(databaseUrl ? { WALLET_DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { wallet: string }).wallet));
    child.once('exit', () => reject(new Error('the reference wallet exited')));
  });
  return {
    url,
    pid: child.pid!,
    control: async (method, path, body) => {
      const response = await fetch(`${url}/_control${path}`, {
        method,
        headers: { 'x-control-token': controlToken, 'content-type': 'application/json' },
        body: JSON.stringify(body ?? {}),
      });
      if (!response.ok) throw new Error(`wallet control ${path}: ${response.status}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

/**
 * The PostgreSQL server for the pgbench baseline: the service's own on a PostgreSQL run; on a PGlite run, the one
 * BENCH_BASELINE_URL names (so the embedded figures have the same yardstick), or none.
 */
export const baselineUrl = (): string | undefined => process.env.DATABASE_URL ?? process.env.BENCH_BASELINE_URL;

/** pgbench TPC-B on the same server: its rate, and PostgreSQL's own CPU per transaction (pgbench's client excluded). */
export interface Baseline {
  tps: number;
  /** CPU time of every PostgreSQL process per transaction (ms), backends that exited included; null off Linux */
  postgresCpuMs: number | null;
}

/** TPC-B on the same server: the yardstick for database-bound work. */
export async function pgbench(baseUrl: string): Promise<Baseline | null> {
  const versions = (() => {
    try {
      return readdirSync('/usr/lib/postgresql');
    } catch {
      return [];
    }
  })();
  const binary = versions.map((version) => `/usr/lib/postgresql/${version}/bin/pgbench`).at(-1) ?? 'pgbench';
  const url = await createPostgresDatabase(baseUrl);
  try {
    process.stdout.write('baseline: pgbench TPC-B, scale 10, 8 clients, 10 s ...\n');
    const init = spawnSync(binary, ['-i', '-q', '-s', '10', url], { encoding: 'utf8' });
    if (init.status !== 0) return null;
    const before = postgresCpuMs();
    const run = spawnSync(binary, ['-c', '8', '-j', '2', '-T', '10', '-n', url], { encoding: 'utf8' });
    // pgbench's backends end with it: the postmaster reaps them (their CPU moves to its children's time) at once
    await sleep(200);
    const after = postgresCpuMs();
    const tps = /tps = ([0-9.]+)/.exec(run.stdout);
    const transactions = /number of transactions actually processed: (\d+)/.exec(run.stdout);
    if (!tps || !transactions) return null;
    const perTransaction = before === null || after === null ? null : (after - before) / Number(transactions[1]);
    return { tps: Number(tps[1]), postgresCpuMs: perTransaction };
  } finally {
    await dropPostgresDatabase(url);
  }
}

/** What a workload achieved: operations per second and latency percentiles (ms). */
export interface LoadResult {
  operations: number;
  perSecond: number;
  p50: number;
  p99: number;
  /** The load client's own CPU time over the run (ms). */
  clientCpuMs: number;
}

/** How long a workload runs: for a time, or until it has made so many operations in all. */
export type Until = { ms: number } | { operations: number };

/** One workload for bench/client.ts: what to call, with how many concurrent clients, for how long. */
export type LoadJob = { url: string; clients: number; until: Until; perSecond?: number } & (
  | { kind: 'place'; tokens: string[]; selections: Array<{ id: string; odds: string }> }
  | { kind: 'session'; tenantId: string; apiKey: string }
  | { kind: 'launch'; tenantId: string; launchTokens: string[][] }
  | { kind: 'balance'; tokens: string[] }
  | { kind: 'alive' }
  /**
   * Anonymous GETs of `paths` (round robin), sent with `acceptEncoding`; with `revalidate`, each client sends back the
   * ETag it last got for a path in If-None-Match, as a browser's cache does, and takes 304 as an answer.
   */
  | { kind: 'read'; paths: string[]; acceptEncoding: string; revalidate: boolean }
);

/** Runs a workload from bench/client.ts in a process of its own. */
export async function runClient(job: LoadJob): Promise<LoadResult> {
  const child = spawn(process.execPath, [join(ROOT, 'bench', 'client.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
  child.stdin.end(JSON.stringify(job));
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`the load client (${job.kind}) failed; its error is above`);
  return JSON.parse(output) as LoadResult;
}

/**
 * Runs `work` from `clients` concurrent loops until `until` (each loop finishes its operation in flight), timing
 * every operation. With `perSecond`, operations start at that fixed rate: operation k is due k / rate after the
 * start, and its latency counts from then (a wait for a free client included, so a stall is not hidden).
 */
export async function drive(
  clients: number,
  until: Until,
  work: (client: number, round: number) => Promise<void>,
  perSecond?: number,
): Promise<LoadResult> {
  const latencies: number[] = [];
  const cpu = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  const more = () => ('ms' in until ? performance.now() < started + until.ms : next < until.operations);
  await Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      for (let round = 0; more(); round++) {
        const sequence = next++;
        const due = perSecond ? started + (sequence * 1000) / perSecond : performance.now();
        if (due > performance.now()) await sleep(due - performance.now());
        await work(client, round);
        latencies.push(performance.now() - due);
      }
    }),
  );
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? 0;
  const used = process.cpuUsage(cpu);
  return {
    operations: latencies.length,
    perSecond: latencies.length / (elapsed / 1000),
    p50: at(0.5),
    p99: at(0.99),
    clientCpuMs: (used.user + used.system) / 1000,
  };
}

/** One process's CPU time so far (ms): its own, and that of its children it has reaped. */
export interface ProcessCpu {
  command: string;
  ms: number;
  childrenMs: number;
}

/** CPU time so far of every process on this machine, with its command line: from /proc, so Linux only. */
export function processCpu(): Map<number, ProcessCpu> {
  const found = new Map<number, ProcessCpu>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return found;
  }
  const tick = 1000 / 100; // USER_HZ is 100 on Linux
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // utime, stime, cutime, cstime: fields 14 to 17 of proc(5), counted from after the command's ')'
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      found.set(Number(pid), {
        command,
        ms: (Number(fields[11]) + Number(fields[12])) * tick,
        childrenMs: (Number(fields[13]) + Number(fields[14])) * tick,
      });
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

/** A PostgreSQL server's main process (the postmaster), which reaps every backend that ends. */
export const isPostmaster = (command: string) => /(?:^|\/)postgres -D /.test(command);
/** A PostgreSQL backend or background process ("postgres: 15/main: …"). */
export const isPostgresChild = (command: string) => command.startsWith('postgres:');

/**
 * The CPU time so far of every PostgreSQL process (ms): the server's processes, and the backends that have ended
 * (in the postmaster's reaped children's time). Null off Linux.
 */
export function postgresCpuMs(): number | null {
  const processes = [...processCpu().values()];
  if (processes.length === 0) return null;
  return processes.reduce((sum, { command, ms, childrenMs }) => {
    if (isPostmaster(command)) return sum + ms + childrenMs;
    return isPostgresChild(command) ? sum + ms : sum;
  }, 0);
}

/** Where the CPU goes, by process: the service, its database, the wallet and its database (and the load client). */
export const CPU_GROUPS = [
  'API',
  'PostgreSQL, service',
  'reference wallet',
  'PostgreSQL, wallet',
  'load client',
  'PostgreSQL, other',
] as const;
export type CpuGroup = (typeof CPU_GROUPS)[number];

/** Which processes are whose: the API's pid, the wallet's, and the databases of each on the PostgreSQL server. */
export interface CpuOwners {
  apiPid: number;
  walletPid: number;
  serviceDatabaseUrl: string | undefined;
  walletDatabaseUrl: string | undefined;
}

/**
 * The CPU time (ms) each group of processes used between two readings. Backends that ended in between are counted
 * through the postmaster's reaped children (the API's own reaped children are the load client and the wallet,
 * counted on their own). The load client is not a process here: it reports its own time.
 */
export function cpuUsedByGroup(
  before: Map<number, ProcessCpu>,
  after: Map<number, ProcessCpu>,
  owners: CpuOwners,
): Map<CpuGroup, number> {
  const databaseOf = (url: string | undefined) => (url ? new URL(url).pathname.slice(1) : undefined);
  const service = databaseOf(owners.serviceDatabaseUrl);
  const walletData = databaseOf(owners.walletDatabaseUrl);
  const groupOf = (pid: number, command: string): CpuGroup | undefined => {
    if (pid === owners.apiPid) return 'API';
    if (pid === owners.walletPid) return 'reference wallet';
    if (isPostmaster(command)) return 'PostgreSQL, other';
    if (!command.startsWith('postgres')) return undefined;
    if (service && command.includes(` ${service} `)) return 'PostgreSQL, service';
    if (walletData && command.includes(` ${walletData} `)) return 'PostgreSQL, wallet';
    return 'PostgreSQL, other';
  };
  const used = new Map<CpuGroup, number>();
  for (const [pid, now] of after) {
    const group = groupOf(pid, now.command);
    if (!group) continue;
    const total = (cpu: ProcessCpu | undefined) =>
      (cpu?.ms ?? 0) + (isPostmaster(now.command) ? (cpu?.childrenMs ?? 0) : 0);
    used.set(group, (used.get(group) ?? 0) + total(now) - total(before.get(pid)));
  }
  return used;
}

export const databaseName = () => (process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite');

/**
 * A bench's service in this process, its clock following real time (its live events live now, its sessions never
 * expiring under the bench): the interval to clear at the end, and the processes whose CPU is the service's.
 */
export function inProcessService(t: TestApp): {
  ticking: NodeJS.Timeout;
  owners: Parameters<typeof cpuUsedByGroup>[2];
} {
  t.clock.set(new Date());
  const ticking = setInterval(() => t.clock.set(new Date()), 50);
  const owners = {
    apiPid: process.pid,
    walletPid: -1,
    serviceDatabaseUrl: t.database.databaseUrl,
    walletDatabaseUrl: undefined,
  };
  return { ticking, owners };
}
