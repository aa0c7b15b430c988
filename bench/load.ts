// npm run bench (first part): what the one API instance carries, side by side with pgbench TPC-B on the same
// PostgreSQL in the same run (the baseline for database-bound work; ratios travel between machines, absolute figures
// do not). Over real HTTP on loopback, from a load client in a process of its own (bench/client.ts), against the
// reference wallet in its own process (its ledger in a database of its own on the PostgreSQL run), each workload
// for BENCH_SECONDS (8) with concurrent clients:
//   - bet placement, 1 player back to back, and 16 players over 8 events and 24 selections;
//   - the same 16 players against an app over the same database that records no metrics (what recording costs;
//     the measured app records them as production does, and is scraped every 5 s);
//   - the same 16 players at half the rate they reached, for the latency at a steady load, and 64 players;
//   - the HTTP floor (GET /healthz: the same client and server, no database), 8 clients;
//   - session creation (POST /api/v1/integration/sessions) and launch exchange, 8 clients;
//   - balance reads (one signed wallet call each), 16 players;
// then the API process's memory over BENCH_MEMORY_PLACEMENTS (100,000) placements, and the statements and commits
// a placement, a session opening and a launch exchange cost, counted at the PostgreSQL client.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { dirname, join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { logDestination } from '../src/platform/http/logging.ts';
import { buildApp } from '../src/app.ts';
import { Metrics } from '../src/platform/metrics/metrics.ts';
import { OutcomeMetrics } from '../src/platform/metrics/outcomes.ts';
import { loginAsStaff, startTestApp, testConfig } from '../test/helpers/app.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../test/helpers/database.ts';
import { createTenant, exchange, openSession, type TestTenant } from '../test/helpers/tenant.ts';
import {
  baselineUrl,
  databaseName,
  CPU_GROUPS,
  cpuUsedByGroup,
  pgbench,
  processCpu,
  runClient,
  startWallet,
  WALLET_KIND,
  type LoadJob,
  type LoadResult,
} from './support.ts';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 8) * 1000;
const MEMORY_PLACEMENTS = Number(process.env.BENCH_MEMORY_PLACEMENTS ?? 100_000);
/** Only the workloads whose names match (a regular expression), to profile one of them. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : undefined;
/** A folder for a V8 CPU profile of the API process over each timed run (node bench/profile-summary.ts reads one). */
const PROFILE_DIR = process.env.BENCH_PROFILE;
/** An idle backend reports its statistics within ten seconds (PostgreSQL's PGSTAT_IDLE_INTERVAL). */
const STATISTICS_IDLE_FLUSH_MS = 11_000;
const EVENTS = 8;
const PLAYERS = 16;
/** More players than the goal's 16: whether more placements at once raise the rate (latency-bound) or not (saturated). */
const MANY_PLAYERS = 64;
const baseline = baselineUrl() ? await pgbench(baselineUrl()!) : null;
const tps = baseline?.tps ?? null;
const walletDatabase =
  process.env.DATABASE_URL && WALLET_KIND === 'reference'
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : undefined;
const wallet = await startWallet(walletDatabase);
// No delivery loop: nothing here is owed after the stake, and its polls would count as statements below. Logging at
// the production level (BENCH_LOG_LEVEL to compare another), written as production writes it, to nowhere.
const LOG_LEVEL = process.env.BENCH_LOG_LEVEL ?? 'info';
// Metrics recorded as production records them, and scraped every 5 s (three times Prometheus's usual rate); the
// same placements are measured once more on an app over the same database that records none.
const t = await startTestApp({ LOG_LEVEL, METRICS_PORT: '0' }, { logStream: logDestination('/dev/null') });
const scraping = setInterval(() => void fetch(`${t.metricsUrl}/metrics`).then((answer) => answer.text()), 5_000);
const unmetered = await buildApp({
  config: testConfig({ LOG_LEVEL, METRICS_PORT: 'off' }),
  db: t.db,
  clock: t.clock,
  logStream: logDestination('/dev/null'),
});
const unmeteredUrl = await unmetered.http.listen({ port: 0, host: '127.0.0.1' });
// The service's clock follows real time (the reference wallet checks signatures against its own clock).
const ticking = setInterval(() => t.clock.set(new Date()), 50);
const rows: Array<[string, LoadResult]> = [];
/** Where each workload's CPU went, per operation, by process (Linux only; empty elsewhere). */
const cpuRows: Array<[string, Map<string, number>]> = [];

try {
  process.stdout.write(`load: setting up a tenant, ${EVENTS} events and ${MANY_PLAYERS} players ...\n`);
  const admin = (await loginAsStaff(t, 'platform_admin')).token;
  const trader = (await loginAsStaff(t, 'trader')).token;
  const tenant = await createTenant(t, admin, { walletUrl: wallet.url });
  await wallet.control('PUT', '/secret', { secret: tenant.walletSecret });
  await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
    token: admin,
    body: { limits: { maxStake: 1_000_000, maxSelectionLiability: 1e15, maxEventLiability: 1e15 } },
  });
  const selections = await seedEvents(trader);
  const players = await Promise.all(
    Array.from({ length: MANY_PLAYERS }, (_, i) => playerSession(tenant, `load-player-${i}`, 1_000_000_000_000)),
  );
  const placing = { kind: 'place' as const, selections };

  await measure('placement, 1 player back to back', { ...placing, clients: 1, tokens: [players[0]!] });
  const singleWalletTime = await walletTime();
  const full = await measure('placement, 16 players', {
    ...placing,
    clients: PLAYERS,
    tokens: players.slice(0, PLAYERS),
  });
  await measure(
    'placement, 16 players, no metrics',
    { ...placing, clients: PLAYERS, tokens: players.slice(0, PLAYERS) },
    undefined,
    unmeteredUrl,
  );
  const half = Math.round(full.perSecond / 2);
  await measure(`placement, 16 players at ${half}/s (half)`, {
    ...placing,
    clients: PLAYERS,
    tokens: players.slice(0, PLAYERS),
    perSecond: half,
  });
  await measure('placement, 64 players', { ...placing, clients: MANY_PLAYERS, tokens: players });
  // The floor of any call: the same client and HTTP server, no database.
  await measure('HTTP floor: GET /healthz, 8 clients', { kind: 'alive', clients: 8 });
  const integration = { tenantId: tenant.tenantId };
  await measure('session creation, 8 clients', { kind: 'session', clients: 8, ...integration, apiKey: tenant.apiKey });
  const launch = async (seconds: number) => ({
    kind: 'launch' as const,
    clients: 8,
    ...integration,
    launchTokens: await launchTokenPool(tenant, 8, seconds),
  });
  const launchName = 'launch exchange, 8 clients';
  if (!ONLY || ONLY.test(launchName)) await measure(launchName, await launch(DURATION_MS / 1000), await launch(1));
  await measure('balance, 16 players', { kind: 'balance', clients: PLAYERS, tokens: players.slice(0, PLAYERS) });

  const memory =
    MEMORY_PLACEMENTS > 0 ? await memoryOver({ ...placing, clients: PLAYERS, tokens: players.slice(0, PLAYERS) }) : '';

  console.log(`\nload, ${DURATION_MS / 1000} s per workload, database: ${databaseName()}, wallet: ${WALLET_KIND}`);
  if (tps) {
    const cpu = baseline?.postgresCpuMs
      ? `   PostgreSQL's CPU ${baseline.postgresCpuMs.toFixed(3)} ms a transaction`
      : '';
    console.log(`${'pgbench TPC-B, 8 clients, scale 10 (baseline)'.padEnd(46)} ${tps.toFixed(0).padStart(7)}/s${cpu}`);
  }
  for (const [name, result] of rows.filter(([, row]) => row.operations > 0)) {
    console.log(
      `${name.padEnd(46)} ${result.perSecond.toFixed(0).padStart(7)}/s   p50 ${result.p50.toFixed(1).padStart(6)} ms` +
        `   p99 ${result.p99.toFixed(1).padStart(6)} ms${tps ? `   x${(result.perSecond / tps).toFixed(3)} TPC-B` : ''}`,
    );
  }
  printCpu();
  printServiceCpu();
  console.log(singleWalletTime);
  if (memory) console.log(memory);
  console.log(await metricsCostPerPlacement());
  if (process.env.DATABASE_URL) await countCosts(tenant, players[0]!);
} finally {
  clearInterval(ticking);
  clearInterval(scraping);
  await unmetered.http.close();
  await t.close();
  await wallet.stop();
  if (walletDatabase) await dropPostgresDatabase(walletDatabase);
}

type Workload = LoadJob extends infer J ? (J extends LoadJob ? Omit<J, 'url' | 'until'> : never) : never;

/** A warm-up second, then the timed run, each from a load client of its own. */
async function measure(
  name: string,
  workload: Workload,
  warmUp: Workload = workload,
  url: string = t.url,
): Promise<LoadResult> {
  if (ONLY && !ONLY.test(name)) return { operations: 0, perSecond: 0, p50: 0, p99: 0, clientCpuMs: 0 };
  process.stdout.write(`load: ${name} ...\n`);
  await runClient({ ...warmUp, url, until: { ms: 1_000 } });
  // Statistics as autovacuum keeps them within a minute: plans kept for prepared statements (and for the foreign
  // key checks) must not be the ones made when the tables were empty, so after the warm-up has written rows
  // (docs/benchmarks.md, "Prepared statements").
  await sql`analyze`.execute(t.db);
  const before = processCpu();
  const profiling = PROFILE_DIR ? await startProfile() : undefined;
  const result = await runClient({ ...workload, url, until: { ms: DURATION_MS } });
  if (profiling) await profiling.stopInto(join(PROFILE_DIR!, `${name.replace(/[^a-z0-9]+/gi, '-')}.cpuprofile`));
  rows.push([name, result]);
  cpuRows.push([name, cpuPerOperation(before, processCpu(), result)]);
  return result;
}

/** The V8 profiler of this process (the API's) from now until stopInto writes what it sampled. */
async function startProfile(): Promise<{ stopInto(file: string): Promise<void> }> {
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) =>
      session.post(method, (error, result) => (error ? reject(error) : resolve(result))),
    );
  await post('Profiler.enable');
  await post('Profiler.start');
  return {
    async stopInto(file) {
      const { profile } = (await post('Profiler.stop')) as { profile: unknown };
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
      process.stdout.write(`load: the API's CPU profile of that run is in ${file}\n`);
    },
  };
}

/** The CPU time of each process group between two readings, per operation of the run (ms). */
function cpuPerOperation(
  before: ReturnType<typeof processCpu>,
  after: ReturnType<typeof processCpu>,
  result: LoadResult,
): Map<string, number> {
  const shares = new Map<string, number>();
  if (after.size === 0 || result.operations === 0) return shares;
  const owners = {
    apiPid: process.pid,
    walletPid: wallet.pid,
    serviceDatabaseUrl: t.database.databaseUrl,
    walletDatabaseUrl: walletDatabase,
  };
  for (const [group, ms] of cpuUsedByGroup(before, after, owners)) shares.set(group, ms / result.operations);
  shares.set('load client', result.clientCpuMs / result.operations);
  return shares;
}

/** The table of where the CPU went, with the cores the run kept busy in all. */
function printCpu(): void {
  const measured = cpuRows.filter(([, shares]) => shares.size > 0);
  if (measured.length === 0) return;
  console.log(`\nCPU per operation (ms), by process: ${CPU_GROUPS.join(' | ')} | all | cores busy`);
  for (const [name, shares] of measured) {
    const perSecond = rows.find(([row]) => row === name)![1].perSecond;
    const all = CPU_GROUPS.reduce((sum, group) => sum + (shares.get(group) ?? 0), 0);
    const figures = CPU_GROUPS.map((group) => (shares.get(group) ?? 0).toFixed(2));
    console.log(
      `${name.padEnd(46)} ${figures.join(' | ')} | ${all.toFixed(2)} | ${((all * perSecond) / 1000).toFixed(2)}`,
    );
  }
}

/**
 * The service's own CPU per operation (the API process and its PostgreSQL backends) against PostgreSQL's CPU per
 * TPC-B transaction in the same run: how many TPC-B transactions of CPU one operation costs, and the inverse ratio.
 */
function printServiceCpu(): void {
  const perTransaction = baseline?.postgresCpuMs;
  const measured = cpuRows.filter(([, shares]) => shares.size > 0);
  if (!perTransaction || measured.length === 0) return;
  console.log(
    `\nthe service's CPU per operation (ms) against PostgreSQL's per TPC-B transaction (${perTransaction.toFixed(3)} ms):` +
      `\n${''.padEnd(46)}     API | PostgreSQL | service | TPC-B transactions | ratio`,
  );
  for (const [name, shares] of measured) {
    const api = shares.get('API') ?? 0;
    const postgres = shares.get('PostgreSQL, service') ?? 0;
    const service = api + postgres;
    console.log(
      `${name.padEnd(46)} ${api.toFixed(2).padStart(7)} | ${postgres.toFixed(2).padStart(10)} | ` +
        `${service.toFixed(2).padStart(7)} | ${(service / perTransaction).toFixed(2).padStart(18)} | ` +
        `${(perTransaction / service).toFixed(3)}`,
    );
  }
}

/**
 * What recording a placement's metrics costs, measured alone (the two placement rows above differ by no more than
 * the machine's noise): the placement's outcome counter and histogram, the stake debit's wallet call counter and
 * histogram, and the request's counter and histogram, found by their labels as the app finds them.
 */
async function metricsCostPerPlacement(): Promise<string> {
  const metrics = new Metrics({ recording: true, tenantLabels: true });
  const requests = metrics.counter('bench_requests_total', 'requests', ['method', 'route', 'status_class']);
  const requestTimes = metrics.histogram('bench_request_seconds', 'request time', ['method', 'route', 'status_class']);
  const placements = new OutcomeMetrics(metrics, {
    count: { name: 'bench_placements_total', help: 'placements' },
    duration: { name: 'bench_placement_seconds', help: 'placement time' },
  });
  const calls = metrics.counter('bench_wallet_calls_total', 'wallet calls', ['tenant', 'endpoint', 'result', 'code']);
  const callTimes = metrics.histogram('bench_wallet_call_seconds', 'wallet call time', ['tenant', 'endpoint']);
  const request = { method: 'POST', route: '/api/v1/bets', status_class: '2xx' };
  const placement = () =>
    placements.time(async () => {
      const tenant = metrics.tenant('tn_bench');
      calls.of({ tenant, endpoint: 'debit', result: 'applied', code: '' }).inc();
      callTimes.of({ tenant, endpoint: 'debit' }).observe(0.002);
      requests.of(request).inc();
      requestTimes.of(request).observe(0.005);
    });
  for (let i = 0; i < 100_000; i++) await placement();
  const placementsTimed = 500_000;
  const before = process.cpuUsage();
  for (let i = 0; i < placementsTimed; i++) await placement();
  const used = process.cpuUsage(before);
  const micros = (used.user + used.system) / placementsTimed;
  return `the metrics a placement records cost ${micros.toFixed(1)} µs of the API's CPU (measured alone, ${placementsTimed} times)`;
}

/** The API process's memory before and after many placements, each taken after a full garbage collection. */
async function memoryOver(workload: Workload): Promise<string> {
  const settled = () => {
    globalThis.gc?.();
    return process.memoryUsage();
  };
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
  const before = settled();
  process.stdout.write(`load: ${MEMORY_PLACEMENTS} placements for the memory check ...\n`);
  const result = await runClient({ ...workload, url: t.url, until: { operations: MEMORY_PLACEMENTS } });
  const after = settled();
  return (
    `API process memory over ${result.operations} placements (${result.perSecond.toFixed(0)}/s): ` +
    `RSS ${mib(before.rss)} before, ${mib(after.rss)} after; JS heap ${mib(before.heapUsed)} before, ` +
    `${mib(after.heapUsed)} after${globalThis.gc ? '' : ' (run node with --expose-gc for settled figures)'}`
  );
}

/** The wallet's own share of a placement so far: how long its stake debits took, as the service timed them. */
async function walletTime(): Promise<string> {
  const { rows: found } = await sql<{ p50: number; p99: number }>`
    select percentile_cont(0.5) within group (order by duration_ms) as p50,
           percentile_cont(0.99) within group (order by duration_ms) as p99
    from wallet_calls where endpoint = 'debit'`.execute(t.db);
  const { p50, p99 } = found[0]!;
  return `the wallet's own time per stake debit in those runs (as the service timed it): p50 ${Number(p50).toFixed(1)} ms, p99 ${Number(p99).toFixed(1)} ms`;
}

/** EVENTS events of one competition, each with a 1X2 market: 3 selections each, starting tomorrow. */
async function seedEvents(trader: string): Promise<Array<{ id: string; odds: string }>> {
  const trade = async (method: string, path: string, body: unknown) => {
    const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: trader, body });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.text}`);
    return response.body;
  };
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  const { competition } = await trade('POST', '/competitions', { sportId: 'soccer', name: 'Load', country: 'BR' });
  const selections: Array<{ id: string; odds: string }> = [];
  for (let i = 0; i < EVENTS; i++) {
    const { event } = await trade('POST', '/events', {
      competitionId: competition.id,
      home: `Home ${i}`,
      away: `Away ${i}`,
      startsAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const { market } = await trade('POST', `/events/${event.id}/markets`, {
      type: 'match_result',
      selections: [
        { name: `Home ${i}`, outcome: 'home', odds: '2.10' },
        { name: 'Draw', outcome: 'draw', odds: '3.25' },
        { name: `Away ${i}`, outcome: 'away', odds: '3.60' },
      ],
    });
    // Placed at the current price, as the market shows it.
    selections.push(...market.selections.map((selection: { id: string; odds: string }) => selection));
  }
  return selections.map(({ id, odds }) => ({ id, odds }));
}

async function playerSession(tenant: TestTenant, externalId: string, balance: number): Promise<string> {
  await wallet.control('PUT', `/players/${externalId}`, { balance, currency: 'BRL' });
  const session = await openSession(t, tenant, { externalPlayerId: externalId });
  return (await exchange(t, tenant.tenantId, session.body.launchToken)).body.token;
}

/** Launch tokens for `seconds` of the launch workload, one pool per client, made before it is timed. */
async function launchTokenPool(tenant: TestTenant, clients: number, seconds: number): Promise<string[][]> {
  // Room for 6,000 exchanges a second: 3,000 ran out on 2026-11-28, once statements were compiled once, on a fast day.
  const perClient = Math.ceil((seconds * 6_000) / clients);
  process.stdout.write(`load: opening ${perClient * clients} sessions for the launch workload ...\n`);
  return Promise.all(
    Array.from({ length: clients }, async (_, client) => {
      const tokens: string[] = [];
      for (let i = 0; i < perClient; i++) {
        tokens.push(
          (await openSession(t, tenant, { externalPlayerId: `load-launch-${client}-${i}` })).body.launchToken,
        );
      }
      return tokens;
    }),
  );
}

/**
 * The statements of 100 calls one by one, counted at the pg client: in all, the commits of the transactions among
 * them, and those run on their own (outside a transaction, each its own implicit one); the last call's are listed.
 */
async function countStatements(name: string, call: (i: number) => Promise<{ status: number; text: string }>) {
  const CALLS = 100;
  const counts = { statements: 0, commits: 0, alone: 0 };
  let traced: string[] = [];
  const inTransaction = new WeakSet<object>();
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = client.query;
  const counting = function (this: object, ...args: unknown[]) {
    const text = String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text);
    counts.statements += 1;
    if (text === 'begin') inTransaction.add(this);
    else if (text === 'commit' || text === 'rollback') {
      inTransaction.delete(this);
      if (text === 'commit') counts.commits += 1;
    } else if (!inTransaction.has(this)) counts.alone += 1;
    traced.push(text.replace(/\s+/g, ' ').slice(0, 150));
    return original.apply(this, args);
  };
  client.query = counting;
  try {
    for (let i = 0; i < CALLS; i++) {
      traced = [];
      const response = await call(i);
      if (response.status >= 300) throw new Error(`${name}: ${response.text}`);
    }
  } finally {
    client.query = original;
  }
  const per = (count: number) => (count / CALLS).toFixed(1);
  console.log(
    `one ${name} (PostgreSQL, ${CALLS} one by one): ${per(counts.statements)} statements, ` +
      `${per(counts.commits)} transactions committed, ${per(counts.alone)} statements on their own; the last one's:` +
      `\n  ${traced.join('\n  ')}`,
  );
}

/** The statements of a placement, a session opening and a launch exchange, and the rows a placement writes. */
async function countCosts(tenant: TestTenant, token: string) {
  const [selection] = await t.db.selectFrom('selections').select(['id', 'odds_milli']).limit(1).execute();
  const writesBefore = await settledTableWrites();
  await countStatements('placement', (i) =>
    t.request('POST', '/api/v1/bets', {
      token,
      body: {
        requestId: `count-${i}-${Date.now()}`,
        stake: 100,
        legs: [{ selectionId: selection!.id, odds: (selection!.odds_milli / 1000).toFixed(2) }],
      },
    }),
  );
  await printPlacementWrites(writesBefore, 100);
  await countStatements('session opening', (i) => openSession(t, tenant, { externalPlayerId: `count-${i}` }));
  const launchTokens = await Promise.all(
    Array.from(
      { length: 100 },
      async (_, i) =>
        (await openSession(t, tenant, { externalPlayerId: `count-launch-${i}` })).body.launchToken as string,
    ),
  );
  await countStatements('launch exchange', (i) => exchange(t, tenant.tenantId, launchTokens[i]!));
}

interface TableWrites {
  inserted: number;
  updated: number;
  hot: number;
  indexes: number;
}

/** Rows written per table, from PostgreSQL's statistics, with the number of indexes each table keeps. */
async function tableWrites(): Promise<Map<string, TableWrites>> {
  await sql`select pg_stat_clear_snapshot()`.execute(t.db);
  const { rows: found } = await sql<{ table: string; inserted: string; updated: string; hot: string; indexes: string }>`
    select relname as table, n_tup_ins as inserted, n_tup_upd as updated, n_tup_hot_upd as hot,
           (select count(*) from pg_index where indrelid = relid) as indexes
    from pg_stat_user_tables`.execute(t.db);
  return new Map(
    found.map((row) => [
      row.table,
      { inserted: +row.inserted, updated: +row.updated, hot: +row.hot, indexes: +row.indexes },
    ]),
  );
}

/** PostgreSQL's statistics once every backend has reported what the workloads before wrote. */
async function settledTableWrites(): Promise<Map<string, TableWrites>> {
  process.stdout.write(
    `load: waiting ${STATISTICS_IDLE_FLUSH_MS / 1000} s for PostgreSQL's statistics to settle ...\n`,
  );
  await new Promise((resolve) => setTimeout(resolve, STATISTICS_IDLE_FLUSH_MS));
  return tableWrites();
}

/**
 * What `placements` one-by-one placements wrote, per placement: rows inserted and updated by table, the updates
 * that were HOT (no index touched), and the index entries that meant at most (a partial index skips some rows).
 * A TPC-B transaction updates three rows and inserts one into a table without an index. PostgreSQL's statistics
 * reach the shared view when a backend goes idle, up to ten seconds later: read until the placements are all in.
 */
async function printPlacementWrites(before: Map<string, TableWrites>, placements: number): Promise<void> {
  const deadline = performance.now() + 15_000;
  let after = await tableWrites();
  while ((after.get('bets')?.inserted ?? 0) - (before.get('bets')?.inserted ?? 0) < placements) {
    if (performance.now() > deadline) return console.log('rows a placement writes: statistics not flushed in 15 s');
    await new Promise((resolve) => setTimeout(resolve, 500));
    after = await tableWrites();
  }
  const lines: string[] = [];
  let entries = 0;
  for (const [table, now] of after) {
    const was = before.get(table) ?? { inserted: 0, updated: 0, hot: 0, indexes: now.indexes };
    const inserted = (now.inserted - was.inserted) / placements;
    const updated = (now.updated - was.updated) / placements;
    const hot = (now.hot - was.hot) / placements;
    if (inserted + updated === 0) continue;
    const tableEntries = (inserted + updated - hot) * now.indexes;
    entries += tableEntries;
    lines.push(
      `${table.padEnd(26)} ${inserted.toFixed(2).padStart(5)} inserted  ${updated.toFixed(2).padStart(5)} updated ` +
        `(${hot.toFixed(2)} HOT)  ${now.indexes} indexes: at most ${tableEntries.toFixed(1)} index entries`,
    );
  }
  console.log(
    `rows a placement writes (PostgreSQL's statistics over ${placements} placements): at most ${entries.toFixed(1)} ` +
      `index entries in all; a TPC-B transaction updates 3 rows and inserts 1, without touching an index on a HOT ` +
      `update\n  ${lines.join('\n  ')}`,
  );
}
