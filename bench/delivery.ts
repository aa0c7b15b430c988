// npm run bench (second part): how fast money owed reaches the wallet.
//
// Baseline: pgbench TPC-B (8 clients, 2 threads, scale 10, 10 s) on the same PostgreSQL, in the same run.
// Measured, against the reference wallet running in its own process on loopback (its ledger on the same PostgreSQL
// server, in a database of its own, on the PostgreSQL run; in its own PGlite otherwise):
//   1. settling a market with BENCH_SETTLED_BETS (10,000) accepted bets on it: one payout credit each;
//   2. delivering those credits with the wallet answering at once (target: all within 5 s on PostgreSQL);
//   3. delivering as many more with the wallet answering each call after 50 ms (target: at least 1,000 credits/s);
// with the CPU each delivery cost per credit, by process (the service, its database, the wallet and its database).
// The bets are written straight into the database (what placement would have left); settling and delivering go
// through the real services, HTTP and signatures included.
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Writable } from 'node:stream';
import { sql } from 'kysely';
import { buildApp } from '../src/app.ts';
import { systemClock } from '../src/platform/clock.ts';
import type { Db } from '../src/platform/db/database.ts';
import type { StaffCall } from '../src/platform/http/principals.ts';
import { WALLET_CONCURRENCY } from '../src/wallet/delivery/engine.ts';
import { movementBody } from '../src/wallet/ledger/movement.ts';
import { testConfig } from '../test/helpers/app.ts';
import { createPostgresDatabase, createTestDatabase, dropPostgresDatabase } from '../test/helpers/database.ts';
import {
  baselineUrl,
  CPU_GROUPS,
  cpuUsedByGroup,
  pgbench,
  processCpu,
  startWallet,
  WALLET_KIND,
  type CpuGroup,
} from './support.ts';

const BETS = Number(process.env.BENCH_SETTLED_BETS ?? 10_000);
const PLAYERS = 200;
const SLOW_WALLET_MS = 50;

const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
const database = await createTestDatabase();
const config = testConfig({ LOG_LEVEL: 'error' });
const app = await buildApp({ config, db: database.db, clock: systemClock, logStream: silent });
// A partner's wallet runs on a database server: on the PostgreSQL run, the reference wallet keeps its ledger in a
// database of its own on the same server; on the embedded run, in its own PGlite.
const walletDatabase =
  process.env.DATABASE_URL && WALLET_KIND === 'reference'
    ? await createPostgresDatabase(process.env.DATABASE_URL)
    : undefined;
const wallet = await startWallet(walletDatabase);
const baseline = baselineUrl() ? await pgbench(baselineUrl()!) : null;
const tps = baseline?.tps ?? null;
const FAST_TARGET_MS = 5_000;
const SLOW_TARGET_PER_SECOND = 1_000;

try {
  const staff: StaffCall = {
    staff: {
      id: 'st_bench',
      email: 'bench@bookmaker.test',
      role: 'platform_admin',
      tenantId: null,
      sessionExpiresAt: new Date(Date.now() + 3_600_000),
      idleExpiresAt: new Date(Date.now() + 3_600_000),
    },
    ip: '127.0.0.1',
  };
  const created = await app.services.tenantSettings.createTenant(staff, {
    name: 'Bench Casino',
    currency: 'BRL',
    locale: 'pt-BR',
    jurisdiction: 'BR',
    walletUrl: wallet.url,
  });
  await wallet.control('PUT', '/secret', { secret: created.walletSecret });
  const tenantId = created.tenant.id;
  const players = Array.from({ length: PLAYERS }, (_, i) => ({ id: `pl_bench_${i}`, external: `bench-${i}` }));
  for (const player of players) {
    await wallet.control('PUT', `/players/${player.external}`, { balance: 0, currency: 'BRL' });
  }
  await seedPlayers(database.db, tenantId, players);
  const owners = {
    apiPid: process.pid,
    walletPid: wallet.pid,
    serviceDatabaseUrl: database.databaseUrl,
    walletDatabaseUrl: walletDatabase,
  };

  const settleAndDeliver = async (label: string, latencyMs: number) => {
    await wallet.control('PUT', '/latency', { latencyMs });
    const market = await seedSettledBets(app, database.db, tenantId, players, label);
    process.stdout.write(`${label}: settling ${BETS} bets ...\n`);
    const settleStarted = performance.now();
    const report = await app.services.settlement.settle({ actor: { type: 'staff', id: staff.staff.id } }, market.id, {
      results: market.selections.map((id, index) => ({ selectionId: id, result: index === 0 ? 'won' : 'lost' })),
    });
    const settleMs = performance.now() - settleStarted;
    process.stdout.write(`${label}: delivering ${report.owed[0]?.movements ?? 0} credits ...\n`);
    const cpuBefore = processCpu();
    const startedAt = new Date();
    const started = performance.now();
    await app.services.delivery.start();
    await app.services.delivery.idle();
    const deliverMs = performance.now() - started;
    const cpu = cpuUsedByGroup(cpuBefore, processCpu(), owners);
    await app.services.delivery.stop();
    const walletMs = await walletTimeSince(startedAt);
    return { settleMs, deliverMs, credits: report.owed[0]?.movements ?? 0, cpu, walletMs };
  };

  const fast = await settleAndDeliver('wallet answering at once', 0);
  const slow = await settleAndDeliver(`wallet answering after ${SLOW_WALLET_MS} ms`, SLOW_WALLET_MS);
  const rate = (run: { credits: number; deliverMs: number }) => run.credits / (run.deliverMs / 1000);

  console.log(
    `\ndelivery, ${BETS} settled bets, database: ${process.env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ` +
      `wallet: ${WALLET_KIND}`,
  );
  if (tps) console.log(`${'pgbench TPC-B (baseline)'.padEnd(44)} ${tps.toFixed(0).padStart(8)} tps`);
  const line = (name: string, value: string, perSecond: number, target: string) =>
    console.log(
      `${name.padEnd(44)} ${value.padStart(8)}   ${perSecond.toFixed(0).padStart(6)}/s` +
        `${tps ? `   x${(perSecond / tps).toFixed(2)} TPC-B` : ''}   ${target}`,
    );
  line('settle the market (bets settled)', `${(fast.settleMs / 1000).toFixed(2)} s`, BETS / (fast.settleMs / 1000), '');
  line(
    'deliver the credits, wallet at once',
    `${(fast.deliverMs / 1000).toFixed(2)} s`,
    rate(fast),
    `target: ${BETS} within ${FAST_TARGET_MS / 1000} s ${fast.deliverMs <= FAST_TARGET_MS ? 'met' : 'MISSED'}`,
  );
  line(
    `deliver the credits, wallet after ${SLOW_WALLET_MS} ms`,
    `${(slow.deliverMs / 1000).toFixed(2)} s`,
    rate(slow),
    `target: ${SLOW_TARGET_PER_SECOND}/s ${rate(slow) >= SLOW_TARGET_PER_SECOND ? 'met' : 'MISSED'}`,
  );
  for (const [name, run] of [
    ['wallet at once', fast],
    [`wallet after ${SLOW_WALLET_MS} ms`, slow],
  ] as const) {
    if (!run.walletMs) continue;
    console.log(
      `the wallet's own time per credit, ${name} (as the service timed it, ${WALLET_CONCURRENCY} calls in flight at ` +
        `most): p50 ${run.walletMs.p50.toFixed(1)} ms, p99 ${run.walletMs.p99.toFixed(1)} ms, so at most ` +
        `${(WALLET_CONCURRENCY / (run.walletMs.p50 / 1000)).toFixed(0)} credits/s`,
    );
  }
  printCpuPerCredit([
    ['wallet at once', fast],
    [`wallet after ${SLOW_WALLET_MS} ms`, slow],
  ]);
  if (!process.env.DATABASE_URL) console.log('(the targets are for PostgreSQL: set DATABASE_URL to measure them)');
} finally {
  await app.services.delivery.stop();
  await wallet.stop();
  await database.close();
  if (walletDatabase) await dropPostgresDatabase(walletDatabase);
}

/** Where each delivery's CPU went, per credit, by process; and the service's share against a TPC-B transaction. */
function printCpuPerCredit(runs: Array<[string, { credits: number; cpu: Map<CpuGroup, number> }]>): void {
  const groups = CPU_GROUPS.filter((group) => group !== 'load client');
  if (runs.every(([, run]) => run.cpu.size === 0)) return;
  const perTransaction = baseline?.postgresCpuMs;
  console.log(
    `\nCPU per credit delivered (ms), by process: ${groups.join(' | ')}` +
      (perTransaction ? ` | service in TPC-B transactions (${perTransaction.toFixed(3)} ms each)` : ''),
  );
  for (const [name, run] of runs) {
    const per = (group: CpuGroup) => (run.cpu.get(group) ?? 0) / Math.max(1, run.credits);
    const service = per('API') + per('PostgreSQL, service');
    console.log(
      `${`deliver the credits, ${name}`.padEnd(44)} ${groups.map((group) => per(group).toFixed(3)).join(' | ')}` +
        (perTransaction ? ` | ${(service / perTransaction).toFixed(2)}` : ''),
    );
  }
}

/** How long the wallet took to answer the credits sent since `since`, as the delivery engine timed each call. */
async function walletTimeSince(since: Date): Promise<{ p50: number; p99: number } | null> {
  const { rows } = await sql<{ p50: number; p99: number }>`
    select percentile_cont(0.5) within group (order by duration_ms) as p50,
           percentile_cont(0.99) within group (order by duration_ms) as p99
    from wallet_calls where endpoint = 'credit' and attempted_at >= ${since}`.execute(database.db);
  return rows[0]?.p50 === undefined || rows[0].p50 === null
    ? null
    : { p50: Number(rows[0].p50), p99: Number(rows[0].p99) };
}

async function seedPlayers(db: Db, tenantId: string, players: Array<{ id: string; external: string }>) {
  const now = new Date();
  await db
    .insertInto('players')
    .values(
      players.map((player) => ({
        id: player.id,
        tenant_id: tenantId,
        external_id: player.external,
        display_name: player.external,
        kyc_status: 'none',
        created_at: now,
        updated_at: now,
      })),
    )
    .execute();
}

/** A market with BETS accepted singles on it, stakes taken: what placement leaves behind. */
async function seedSettledBets(
  bench: typeof app,
  db: Db,
  tenantId: string,
  players: Array<{ id: string; external: string }>,
  label: string,
) {
  const by = { actor: { type: 'staff' as const, id: 'st_bench' } };
  const suffix = randomBytes(3).toString('hex');
  const catalog = bench.services.catalog.trading;
  if (await catalog.isEmpty()) await catalog.createSport(by, { id: 'soccer', name: 'Soccer' });
  const competition = await catalog.createCompetition(by, {
    sportId: 'soccer',
    name: `Bench ${suffix}`,
    country: 'BR',
  });
  const event = await catalog.createEvent(by, {
    competitionId: competition.id,
    home: `Home ${label}`,
    away: 'Away',
    startsAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  const market = await catalog.createMarket(by, event.id, {
    type: 'match_result',
    selections: [
      { name: 'Home', outcome: 'home', odds: '2.10' },
      { name: 'Draw', outcome: 'draw', odds: '3.25' },
      { name: 'Away', outcome: 'away', odds: '3.60' },
    ],
  });
  const now = new Date();
  for (let start = 0; start < BETS; start += 1_000) {
    const batch = Array.from({ length: Math.min(1_000, BETS - start) }, (_, offset) => {
      const index = start + offset;
      const player = players[index % players.length]!;
      const selection = market.selections[index % 3]!;
      return { id: `bt_${suffix}_${index}`, player, selection, odds: [2100, 3250, 3600][index % 3]! };
    });
    await db
      .insertInto('bets')
      .values(
        batch.map((bet) => ({
          id: bet.id,
          tenant_id: tenantId,
          player_id: bet.player.id,
          request_id: `${bet.id}-slip`,
          request_hash: 'bench',
          status: 'accepted' as const,
          refusal: null,
          stake: 1_00,
          currency: 'BRL',
          odds_milli: bet.odds,
          potential_payout: bet.odds / 10,
          placed_at: now,
          decided_at: now,
        })),
      )
      .execute();
    await db
      .insertInto('bet_legs')
      .values(
        batch.map((bet) => ({
          bet_id: bet.id,
          position: 0,
          selection_id: bet.selection.id,
          market_id: market.id,
          event_id: event.id,
          odds_milli: bet.odds,
          odds_version: 1,
        })),
      )
      .execute();
    await db
      .insertInto('wallet_obligations')
      .values(
        batch.map((bet) => ({
          id: `ob_${bet.id}`,
          tenant_id: tenantId,
          bet_id: bet.id,
          player_id: bet.player.id,
          sequence: 1,
          tx_id: `bet:${bet.id}`,
          endpoint: 'debit' as const,
          wallet_url: wallet.url,
          kind: 'bet' as const,
          amount: 1_00,
          body: movementBody({
            txId: `bet:${bet.id}`,
            playerId: bet.player.external,
            amount: 1_00,
            currency: 'BRL',
            kind: 'bet',
            betId: bet.id,
          }),
          status: 'applied' as const,
          attempts: 1,
          next_attempt_at: now,
          created_at: now,
          resolved_at: now,
        })),
      )
      .execute();
  }
  return { id: market.id, selections: market.selections.map((selection) => selection.id) };
}
