// npm run bench (first part): what the one API instance carries, side by side with pgbench TPC-B on the same
// PostgreSQL in the same run (the baseline for database-bound work; ratios travel between machines, absolute figures
// do not). Over real HTTP on loopback, against the reference wallet in its own process (its ledger in a database of
// its own on the PostgreSQL run), each workload for BENCH_SECONDS (8) with concurrent clients:
//   - bet placement, 1 player back to back, and 16 players over 8 events and 24 selections;
//   - session creation (POST /api/v1/integration/sessions) and launch exchange, 8 clients;
//   - balance reads (one signed wallet call each), 16 players;
// then the statements and commits one placement costs, counted at the PostgreSQL client and server.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { loginAsStaff, request, startTestApp } from '../test/helpers/app.ts';
import { createPostgresDatabase, dropPostgresDatabase } from '../test/helpers/database.ts';
import { createTenant, exchange, openSession, type TestTenant } from '../test/helpers/tenant.ts';
import { databaseName, drive, pgbenchTps, startWallet, type LoadResult } from './support.ts';

const DURATION_MS = Number(process.env.BENCH_SECONDS ?? 8) * 1000;
const EVENTS = 8;

const tps = process.env.DATABASE_URL ? await pgbenchTps(process.env.DATABASE_URL) : null;
const walletDatabase = process.env.DATABASE_URL ? await createPostgresDatabase(process.env.DATABASE_URL) : undefined;
const wallet = await startWallet(walletDatabase);
// No delivery loop: nothing here is owed after the stake, and its polls would count as statements below.
const t = await startTestApp({ LOG_LEVEL: 'silent' });
// The service's clock follows real time (the reference wallet checks signatures against its own clock).
const ticking = setInterval(() => t.clock.set(new Date()), 50);
const rows: Array<[string, LoadResult]> = [];
const rssBefore = process.memoryUsage().rss;

try {
  process.stdout.write(`load: setting up a tenant, ${EVENTS} events and the players ...\n`);
  const admin = (await loginAsStaff(t, 'platform_admin')).token;
  const trader = (await loginAsStaff(t, 'trader')).token;
  const tenant = await createTenant(t, admin, { walletUrl: wallet.url });
  await wallet.control('PUT', '/secret', { secret: tenant.walletSecret });
  await t.request('PUT', `/api/v1/admin/tenant?tenantId=${tenant.tenantId}`, {
    token: admin,
    body: { limits: { maxStake: 1_000_000, maxSelectionLiability: 1e12, maxEventLiability: 1e12 } },
  });
  const selections = await seedEvents(trader);
  const players = await Promise.all(
    Array.from({ length: 16 }, (_, i) => playerSession(tenant, `load-player-${i}`, 1_000_000_000)),
  );

  // Odds: the selection's current price is accepted as placed (the bench reads it once).
  const priced = await prices(selections);
  const placeAt = (token: string, round: number, client: number) => {
    const selectionId = selections[(round + client) % selections.length]!;
    return fetch(`${t.url}/api/v1/bets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        requestId: `load-${randomBytes(8).toString('hex')}`,
        stake: 100,
        legs: [{ selectionId, odds: priced.get(selectionId) }],
      }),
    }).then(async (response) => {
      if (response.status !== 201) throw new Error(`placement: ${response.status} ${await response.text()}`);
    });
  };

  await measure('placement, 1 player back to back', 1, (client, round) => placeAt(players[0]!, round, client));
  await measure('placement, 16 players', 16, (client, round) => placeAt(players[client]!, round, client));
  await measure('session creation, 8 clients', 8, async (client, round) => {
    const response = await openSession(t, tenant, { externalPlayerId: `load-session-${client}-${round % 100}` });
    if (response.status !== 200) throw new Error(`session: ${response.text}`);
  });
  const launchTokens = await launchTokenPool(tenant, 8);
  await measure('launch exchange, 8 clients', 8, async (client) => {
    const launchToken = launchTokens[client]!.pop();
    if (!launchToken) return;
    const response = await exchange(t, tenant.tenantId, launchToken);
    if (response.status !== 200) throw new Error(`launch: ${response.text}`);
  });
  await measure('balance, 16 players', 16, async (client) => {
    const response = await request(t.url, 'GET', '/api/v1/wallet/balance', { token: players[client]! });
    if (response.status !== 200) throw new Error(`balance: ${response.text}`);
  });

  console.log(`\nload, ${DURATION_MS / 1000} s per workload, database: ${databaseName()}`);
  if (tps) console.log(`${'pgbench TPC-B, 8 clients, scale 10 (baseline)'.padEnd(44)} ${tps.toFixed(0).padStart(7)}/s`);
  for (const [name, result] of rows) {
    console.log(
      `${name.padEnd(44)} ${result.perSecond.toFixed(0).padStart(7)}/s   p50 ${result.p50.toFixed(1).padStart(6)} ms` +
        `   p99 ${result.p99.toFixed(1).padStart(6)} ms${tps ? `   x${(result.perSecond / tps).toFixed(3)} TPC-B` : ''}`,
    );
  }
  console.log(
    `API process memory: ${(rssBefore / 2 ** 20).toFixed(0)} MiB before, ${(process.memoryUsage().rss / 2 ** 20).toFixed(0)} MiB after (the bench's own client included)`,
  );
  if (process.env.DATABASE_URL) await countPlacementCost(players[0]!, placeAt);
} finally {
  clearInterval(ticking);
  await t.close();
  await wallet.stop();
  if (walletDatabase) await dropPostgresDatabase(walletDatabase);
}

async function measure(name: string, clients: number, work: (client: number, round: number) => Promise<void>) {
  process.stdout.write(`load: ${name} ...\n`);
  await drive(clients, 1_000, work); // warm-up
  rows.push([name, await drive(clients, DURATION_MS, work)]);
}

/** EVENTS events of one competition, each with a 1X2 market: 3 selections each, starting tomorrow. */
async function seedEvents(trader: string): Promise<string[]> {
  const trade = async (method: string, path: string, body: unknown) => {
    const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: trader, body });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.text}`);
    return response.body;
  };
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  const { competition } = await trade('POST', '/competitions', { sportId: 'soccer', name: 'Load', country: 'BR' });
  const ids: string[] = [];
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
    ids.push(...market.selections.map((selection: { id: string }) => selection.id));
  }
  return ids;
}

async function prices(ids: string[]): Promise<Map<string, string>> {
  const rows = await t.db.selectFrom('selections').select(['id', 'odds_milli']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, (Number(row.odds_milli) / 1000).toFixed(2)]));
}

async function playerSession(tenant: TestTenant, externalId: string, balance: number): Promise<string> {
  await wallet.control('PUT', `/players/${externalId}`, { balance, currency: 'BRL' });
  const session = await openSession(t, tenant, { externalPlayerId: externalId });
  return (await exchange(t, tenant.tenantId, session.body.launchToken)).body.token;
}

/** Enough launch tokens for the launch workload, one pool per client (made before it is timed). */
async function launchTokenPool(tenant: TestTenant, clients: number): Promise<string[][]> {
  process.stdout.write('load: opening sessions for the launch workload ...\n');
  const perClient = Math.ceil((DURATION_MS / 1000 + 1) * 150);
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

/** Statements (counted at the pg client) and commits (PostgreSQL's own counter) of 100 placements, one by one. */
async function countPlacementCost(
  token: string,
  placeAt: (token: string, round: number, client: number) => Promise<void>,
) {
  const PLACEMENTS = 100;
  let statements = 0;
  let traced: string[] = [];
  const client = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = client.query;
  const counting = function (this: unknown, ...args: unknown[]) {
    statements += 1;
    const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
    traced.push(String(text).replace(/\s+/g, ' ').slice(0, 160));
    return original.apply(this, args);
  };
  const xactCommit = async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const reader = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await reader.connect();
    const database = new URL(t.database.databaseUrl!).pathname.slice(1);
    const { rows: found } = await reader.query<{ xact_commit: string }>(
      'select xact_commit from pg_stat_database where datname = $1',
      [database],
    );
    await reader.end();
    return Number(found[0]?.xact_commit ?? 0);
  };
  const before = await xactCommit();
  client.query = counting;
  try {
    for (let i = 0; i < PLACEMENTS; i++) {
      traced = [];
      await placeAt(token, i, 0);
    }
  } finally {
    client.query = original;
  }
  const after = await xactCommit();
  console.log(
    `one placement: ${(statements / PLACEMENTS).toFixed(1)} statements, ` +
      `${((after - before) / PLACEMENTS).toFixed(1)} commits (PostgreSQL, ${PLACEMENTS} placements one by one)`,
  );
  if (process.env.BENCH_TRACE) console.log(`the last placement's statements:\n  ${traced.join('\n  ')}`);
}
