import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { getMetricsFromIterator, type PromMetrics } from 'prom2javascript';
import { loadConfig } from '../../src/platform/config.ts';
import { DATA_DIR_LOCK } from '../../src/platform/db/instance-lock.ts';
import { startServer, StartupError, type RunningServer } from '../../src/server.ts';
import { LogCapture, request, startTestApp, type HttpResponse } from '../helpers/app.ts';
import { drainDeliveries } from '../helpers/delivery.ts';
import { deploymentEnv } from '../helpers/process.ts';
import {
  freshSportsbookPerTest,
  newRequestId,
  playerWithBalance,
  resultsOf,
  settleMarket,
  setUpSportsbook,
} from '../helpers/sportsbook.ts';
import { startTestWallet } from '../helpers/wallet.ts';

type Labels = Record<string, string>;

const PROMETHEUS_TEXT = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The families of a scrape by name, as a Prometheus text-format parser reads them. prom2javascript reads labelled
 * histograms (parse-prometheus-text-format merges their series into one) but no NaN sample, which the format allows
 * and prom-client writes (`Nan`) for the event loop lag's mean and deviation when no delay was sampled since the
 * last scrape: those lines are left out of what it reads. promtool, Prometheus's own parser, reads the text whole.
 */
function parse(text: string): Promise<PromMetrics> {
  const readable = text.split('\n').filter((line) => !line.endsWith(' Nan'));
  return getMetricsFromIterator(readable.values());
}

async function scrapeText(url: string): Promise<string> {
  const response = await fetch(url);
  assert.equal(response.status, 200);
  assert.equal(response.headers.get('content-type'), PROMETHEUS_TEXT);
  return response.text();
}

/** GET /metrics over HTTP, parsed. */
const scrape = async (url: string): Promise<PromMetrics> => parse(await scrapeText(url));

/** Prometheus's own parser and linter, where it is installed (Debian's `prometheus` package). */
const PROMTOOL = spawnSync('promtool', ['--version']).status === 0;

/** What `promtool check metrics` says of a scrape: nothing it cannot parse (exit 1), and its lint problems. */
function promtoolProblems(text: string): string[] {
  const run = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 3, `promtool could not read the scrape: ${run.stdout}${run.stderr}`);
  return [...new Set(`${run.stdout}${run.stderr}`.split('\n').filter(Boolean))];
}

/** The series with exactly these labels: a counter's or gauge's value, a histogram's count; undefined if absent. */
function valueOf(families: PromMetrics, name: string, labels: Labels = {}): number | undefined {
  const family = families[name];
  assert.ok(family, `${name} is scraped`);
  const series = (family.data as Array<{ labels: Labels; value?: number; count?: number }>).find((one) =>
    sameLabels(one.labels, labels),
  );
  return series === undefined ? undefined : (series.value ?? series.count);
}

function sameLabels(a: Labels, b: Labels): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => a[key] === b[key]);
}

/** How much a counter or a histogram's count grew between two scrapes (a series not there yet counts from 0). */
function grew(before: PromMetrics, after: PromMetrics, name: string, labels: Labels = {}): number {
  return (valueOf(after, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
}

const errorOf = (response: HttpResponse) => [response.status, response.body?.error?.code];

/** The families of the metrics contract and the process metrics it names, with their types. */
const FAMILIES: Array<[string, string]> = [
  ['bookmaker_http_requests_total', 'counter'],
  ['bookmaker_http_request_duration_seconds', 'histogram'],
  ['bookmaker_bet_placements_total', 'counter'],
  ['bookmaker_bet_placement_duration_seconds', 'histogram'],
  ['bookmaker_cashouts_total', 'counter'],
  ['bookmaker_cashout_duration_seconds', 'histogram'],
  ['bookmaker_wallet_calls_total', 'counter'],
  ['bookmaker_wallet_call_duration_seconds', 'histogram'],
  ['bookmaker_ledger_obligations', 'gauge'],
  ['bookmaker_ledger_oldest_pending_seconds', 'gauge'],
  ['bookmaker_ledger_held_for_review', 'gauge'],
  ['bookmaker_ledger_deliveries_total', 'counter'],
  ['bookmaker_db_pool_connections', 'gauge'],
  ['bookmaker_db_pool_waiting', 'gauge'],
  ['bookmaker_instance_lock_held', 'gauge'],
  ['bookmaker_ready', 'gauge'],
  ['bookmaker_stream_connections', 'gauge'],
  ['bookmaker_stream_topics', 'gauge'],
  ['process_cpu_seconds_total', 'counter'],
  ['process_resident_memory_bytes', 'gauge'],
  ['nodejs_heap_size_used_bytes', 'gauge'],
  ['nodejs_eventloop_lag_seconds', 'gauge'],
  ['nodejs_eventloop_lag_p99_seconds', 'gauge'],
  ['nodejs_gc_duration_seconds', 'histogram'],
];

describe('the metrics listener of a started server', () => {
  let dispose: () => Promise<void>;
  let server: RunningServer;
  const said: string[] = [];
  before(async () => {
    const deployment = await deploymentEnv({ migrated: true });
    dispose = deployment.dispose;
    server = await startServer(loadConfig({ ...deployment.env, METRICS_PORT: '0' }), {
      logStream: new LogCapture(),
      say: (line) => said.push(line),
    });
  });
  after(async () => {
    await server.stop();
    await dispose();
  });

  it('listens on a port of its own, on 127.0.0.1 by default, and says where', async () => {
    const metrics = new URL(server.metricsUrl!);
    assert.deepEqual([metrics.protocol, metrics.hostname, metrics.pathname], ['http:', '127.0.0.1', '/metrics']);
    assert.notEqual(metrics.port, new URL(server.url).port);
    assert.ok(said.includes(`metrics: ${server.metricsUrl}`), said.join('\n'));
    await scrape(server.metricsUrl!);
    // Bound to 127.0.0.1 itself, not to every address: another loopback address of this machine is refused.
    const elsewhere = new URL(server.metricsUrl!);
    elsewhere.hostname = '127.0.0.2';
    await assert.rejects(fetch(elsewhere), (error: Error & { cause?: { code?: string } }) => {
      assert.equal(error.cause?.code, 'ECONNREFUSED');
      return true;
    });
  });

  it('answers 404 for anything but GET /metrics, and the API has no /metrics', async () => {
    const base = server.metricsUrl!.replace(/\/metrics$/, '');
    for (const [method, path] of [
      ['GET', '/'],
      ['GET', '/metrics/x'],
      ['POST', '/metrics'],
    ] as const) {
      const response = await request(base, method, path);
      assert.deepEqual(
        [response.status, response.body],
        [404, { error: { code: 'not_found', message: 'The metrics are served at GET /metrics.' } }],
      );
    }
    assert.deepEqual(errorOf(await request(server.url, 'GET', '/metrics')), [404, 'not_found']);
  });

  it('has every family of the contract with its type, and the process metrics', async () => {
    assert.equal((await request(server.url, 'GET', '/healthz')).status, 200);
    const families = await scrape(server.metricsUrl!);
    assert.deepEqual(
      FAMILIES.map(([name]) => [name, families[name]?.type]),
      FAMILIES,
    );
  });

  it(
    'is read whole by Prometheus, whose linter finds fault only with prom-client defaults',
    {
      skip: !PROMTOOL && 'promtool is not installed',
    },
    async () => {
      assert.deepEqual(promtoolProblems(await scrapeText(server.metricsUrl!)), [
        'nodejs_active_handles_total non-counter metrics should not have "_total" suffix',
        'nodejs_active_requests_total non-counter metrics should not have "_total" suffix',
        'nodejs_active_resources_total non-counter metrics should not have "_total" suffix',
      ]);
    },
  );

  it('reports the instance lock held, the service ready, and the connections of the database', async () => {
    const families = await scrape(server.metricsUrl!);
    assert.equal(valueOf(families, 'bookmaker_instance_lock_held'), 1);
    assert.equal(valueOf(families, 'bookmaker_ready'), 1);
    const inUse = valueOf(families, 'bookmaker_db_pool_connections', { state: 'in_use' })!;
    const idle = valueOf(families, 'bookmaker_db_pool_connections', { state: 'idle' })!;
    const waiting = valueOf(families, 'bookmaker_db_pool_waiting')!;
    for (const count of [inUse, idle, waiting]) assert.ok(Number.isInteger(count) && count >= 0, String(count));
    if (process.env.DATABASE_URL) assert.ok(inUse + idle >= 1 && inUse + idle <= 10, `${inUse} + ${idle}`);
    else assert.equal(inUse + idle, 1, 'embedded PGlite has one connection');
  });
});

describe('the instance lock, once lost', () => {
  it('is reported as not held', async () => {
    const { env, dispose } = await deploymentEnv({ migrated: true });
    let fatal: (error: Error) => void = () => {};
    const lostLock = new Promise<Error>((resolve) => (fatal = resolve));
    const server = await startServer(loadConfig(env), { logStream: new LogCapture(), onFatal: (e) => fatal(e) });
    try {
      assert.equal(valueOf(await scrape(server.metricsUrl!), 'bookmaker_instance_lock_held'), 1);
      if (env.DATABASE_URL) {
        const admin = new pg.Client({ connectionString: env.DATABASE_URL });
        await admin.connect();
        await admin.query(
          `select pg_terminate_backend(pid) from pg_locks where locktype = 'advisory'
           and database = (select oid from pg_database where datname = current_database())`,
        );
        await admin.end();
      } else {
        rmSync(join(env.DATA_DIR!, DATA_DIR_LOCK), { recursive: true, force: true });
      }
      await lostLock;
      assert.equal(valueOf(await scrape(server.metricsUrl!), 'bookmaker_instance_lock_held'), 0);
    } finally {
      // Everything else is closed; the embedded lock's file, removed above, has nothing left to release.
      await server.stop().catch((error: Error) => {
        if (!/Lock is already released/.test(error.message)) throw error;
      });
      await dispose();
    }
  });
});

describe('a METRICS_PORT already in use', () => {
  it('stops the start with one line saying to set METRICS_PORT', async () => {
    const { env, dispose } = await deploymentEnv({ migrated: true });
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen({ port: 0, host: '127.0.0.1' }, resolve));
    const { port } = holder.address() as { port: number };
    try {
      await assert.rejects(startServer(loadConfig({ ...env, METRICS_PORT: String(port) })), (error: Error) => {
        assert.ok(error instanceof StartupError);
        assert.equal(
          error.message,
          `METRICS_PORT ${port} is already in use on 127.0.0.1: stop the program using it, or set METRICS_PORT to a ` +
            'free port (or to off, to serve no metrics).',
        );
        return true;
      });
    } finally {
      await new Promise((resolve) => holder.close(resolve));
      await dispose();
    }
  });
});

describe('what the metrics count', () => {
  const fresh = freshSportsbookPerTest('metrics-player', 100_00, {}, { config: { METRICS_PORT: '0' } });

  const metrics = () => scrape(fresh.t.metricsUrl!);
  const place = (options: { stake?: number; odds?: string; event?: number } = {}) =>
    fresh.t.request('POST', '/api/v1/bets', {
      token: fresh.token,
      body: {
        requestId: newRequestId(),
        stake: options.stake ?? 10_00,
        legs: [{ selectionId: fresh.book.events[options.event ?? 0]!.home, odds: options.odds ?? '2.10' }],
      },
    });
  async function single(event = 0): Promise<string> {
    const response = await place({ event });
    assert.equal(response.status, 201, response.text);
    return response.body.bet.id;
  }
  const settleHome = (event = 0) =>
    settleMarket(fresh.t, fresh.book, fresh.book.events[event]!.marketId, resultsOf(fresh.book.events[event]!, 'home'));

  it('counts placements by outcome, accepted or the refusal code, and times them by result', async () => {
    const before = await metrics();
    assert.equal((await place()).status, 201);
    assert.deepEqual(errorOf(await place({ stake: 500_00 })), [402, 'insufficient_funds']);
    assert.deepEqual(errorOf(await place({ odds: '2.50' })), [409, 'odds_changed']);
    const after = await metrics();
    assert.deepEqual(
      ['accepted', 'insufficient_funds', 'odds_changed'].map((outcome) =>
        grew(before, after, 'bookmaker_bet_placements_total', { outcome }),
      ),
      [1, 1, 1],
    );
    assert.deepEqual(
      ['accepted', 'refused'].map((result) =>
        grew(before, after, 'bookmaker_bet_placement_duration_seconds', { result }),
      ),
      [1, 2],
    );
  });

  it("counts calls to the tenant's wallet by endpoint, result and code, and times them", async () => {
    const before = await metrics();
    assert.equal((await place()).status, 201);
    assert.deepEqual(errorOf(await place({ stake: 500_00 })), [402, 'insufficient_funds']);
    fresh.wallet.fault({ mode: 'status_500', endpoint: 'debit' });
    assert.deepEqual(errorOf(await place()), [503, 'wallet_unavailable']);
    fresh.wallet.fault({ mode: 'reset', endpoint: 'debit' });
    assert.deepEqual(errorOf(await place()), [503, 'wallet_unavailable']);
    await drainDeliveries(fresh.t);
    assert.equal((await fresh.t.request('GET', '/api/v1/wallet/balance', { token: fresh.token })).status, 200);
    const after = await metrics();
    const calls = (endpoint: string, result: string, code = '') =>
      grew(before, after, 'bookmaker_wallet_calls_total', {
        tenant: fresh.book.tenant.tenantId,
        endpoint,
        result,
        code,
      });
    assert.deepEqual(
      [
        calls('debit', 'applied'),
        calls('debit', 'refused', 'insufficient_funds'),
        calls('debit', 'unknown'),
        calls('debit', 'transport_error'),
        calls('rollback', 'applied'),
        calls('balance', 'applied'),
      ],
      [1, 1, 1, 1, 2, 1],
    );
    assert.deepEqual(
      ['debit', 'rollback', 'balance'].map((endpoint) =>
        grew(before, after, 'bookmaker_wallet_call_duration_seconds', { tenant: fresh.book.tenant.tenantId, endpoint }),
      ),
      [4, 2, 1],
    );
    assert.equal(grew(before, after, 'bookmaker_ledger_deliveries_total', { result: 'applied' }), 2);
  });

  it('counts cash-outs by outcome and times them by result', async () => {
    const betId = await single();
    const offer = await fresh.t.request('GET', `/api/v1/bets/${betId}/cashout`, { token: fresh.token });
    const cashOut = (amount: number) =>
      fresh.t.request('POST', `/api/v1/bets/${betId}/cashout`, {
        token: fresh.token,
        body: { requestId: newRequestId(), amount },
      });
    const before = await metrics();
    assert.deepEqual(errorOf(await cashOut(offer.body.offer.amount + 1)), [409, 'cashout_offer_changed']);
    assert.equal((await cashOut(offer.body.offer.amount)).status, 200);
    const after = await metrics();
    assert.deepEqual(
      ['accepted', 'cashout_offer_changed'].map((outcome) =>
        grew(before, after, 'bookmaker_cashouts_total', { outcome }),
      ),
      [1, 1],
    );
    assert.deepEqual(
      ['accepted', 'refused'].map((result) => grew(before, after, 'bookmaker_cashout_duration_seconds', { result })),
      [1, 1],
    );
  });

  it('reads the ledger when scraped: obligations waiting by state, the oldest owed per tenant, held for review', async () => {
    await single(0);
    await single(1);
    const before = await metrics();
    assert.equal(
      valueOf(before, 'bookmaker_ledger_oldest_pending_seconds', { tenant: fresh.book.tenant.tenantId }),
      undefined,
      'none owed',
    );
    // The first payout is refused by the wallet: held for review.
    fresh.wallet.fault({ mode: 'refuse', endpoint: 'credit' });
    assert.equal((await settleHome(0)).status, 200);
    await drainDeliveries(fresh.t);
    // The second one's first attempt proves nothing: owed, and waiting for its next attempt.
    fresh.wallet.fault({ mode: 'status_500', endpoint: 'credit' });
    assert.equal((await settleHome(1)).status, 200);
    assert.equal(await fresh.t.app.services.delivery.runOnce(), 1);
    fresh.t.clock.advance(90_000);
    const after = await metrics();
    // Only the states that wait are gauged (each read through its partial index); final ones are counted as deliveries.
    assert.deepEqual(
      ['pending', 'held', 'applied'].map((state) => valueOf(after, 'bookmaker_ledger_obligations', { state })),
      [1, 1, undefined],
    );
    assert.equal(valueOf(after, 'bookmaker_ledger_oldest_pending_seconds', { tenant: fresh.book.tenant.tenantId }), 90);
    assert.equal(valueOf(after, 'bookmaker_ledger_held_for_review'), 1);
    assert.deepEqual(
      ['refused', 'unknown'].map((result) => grew(before, after, 'bookmaker_ledger_deliveries_total', { result })),
      [1, 1],
    );
    // A wallet's own code outside the contract's list is counted as `other`: one casino cannot add series.
    assert.equal(
      grew(before, after, 'bookmaker_wallet_calls_total', {
        tenant: fresh.book.tenant.tenantId,
        endpoint: 'credit',
        result: 'refused',
        code: 'other',
      }),
      1,
    );
  });

  it('counts answers by method, route template and status class; a path no route has is unmatched', async () => {
    const before = await metrics();
    const betId = await single();
    assert.equal((await fresh.t.request('GET', `/api/v1/bets/${betId}/cashout`, { token: fresh.token })).status, 200);
    assert.deepEqual(
      errorOf(await fresh.t.request('GET', '/api/v1/bets/bt_0000000000000000', { token: fresh.token })),
      [404, 'not_found'],
    );
    assert.deepEqual(errorOf(await request(fresh.t.url, 'GET', `/no/such/path/${betId}`)), [404, 'not_found']);
    const after = await metrics();
    const answered = (method: string, route: string, status_class: string) => [
      grew(before, after, 'bookmaker_http_requests_total', { method, route, status_class }),
      grew(before, after, 'bookmaker_http_request_duration_seconds', { method, route, status_class }),
    ];
    assert.deepEqual(
      [
        answered('POST', '/api/v1/bets', '2xx'),
        answered('GET', '/api/v1/bets/{id}/cashout', '2xx'),
        answered('GET', '/api/v1/bets/{id}', '4xx'),
        answered('GET', 'unmatched', '4xx'),
      ],
      [
        [1, 1],
        [1, 1],
        [1, 1],
        [1, 1],
      ],
    );
  });
});

describe('the per-tenant label', () => {
  it('is `all` for every tenant with METRICS_TENANT_LABELS=false', async () => {
    const t = await startTestApp({ METRICS_PORT: '0', METRICS_TENANT_LABELS: 'false' });
    const wallet = await startTestWallet(t.clock);
    try {
      const book = await setUpSportsbook(t, wallet);
      const token = await playerWithBalance(t, book, wallet, 'metrics-all-tenants', 100_00);
      const placed = await t.request('POST', '/api/v1/bets', {
        token,
        body: { requestId: newRequestId(), stake: 10_00, legs: [{ selectionId: book.events[0]!.home, odds: '2.10' }] },
      });
      assert.equal(placed.status, 201, placed.text);
      const families = await scrape(t.metricsUrl!);
      const labelled = (name: string) =>
        (families[name]!.data as Array<{ labels: Labels }>).map((series) => series.labels.tenant);
      assert.deepEqual(labelled('bookmaker_wallet_calls_total'), ['all']);
      assert.deepEqual(labelled('bookmaker_wallet_call_duration_seconds'), ['all']);
      assert.equal(
        valueOf(families, 'bookmaker_wallet_calls_total', {
          tenant: 'all',
          endpoint: 'debit',
          result: 'applied',
          code: '',
        }),
        1,
      );
    } finally {
      await t.close();
      await wallet.close();
    }
  });
});

describe('an app built with METRICS_PORT=off', () => {
  it('records nothing: every instrument is a no-op', async () => {
    const t = await startTestApp();
    try {
      assert.equal(t.config.metricsPort, 'off');
      assert.equal((await t.request('GET', '/healthz')).status, 200);
      assert.equal(t.metricsUrl, null);
      assert.deepEqual(await parse(await t.app.metrics.registry.metrics()), {});
    } finally {
      await t.close();
    }
  });
});
