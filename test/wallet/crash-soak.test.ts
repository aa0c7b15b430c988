import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { systemClock } from '../../src/platform/clock.ts';
import { totpCode } from '../../src/staff/totp.ts';
import { request, type HttpResponse } from '../helpers/app.ts';
import { deploymentEnv, restartServe, runCli, startServe, until, type ServeProcess } from '../helpers/process.ts';
import { startTestWallet, type TestWallet } from '../helpers/wallet.ts';

/**
 * The service process is killed with SIGKILL at random points while it settles markets and delivers what they owe,
 * again and again, and started again each time. The wallet (this process) lives on. When the queue has drained,
 * the ledger and the wallet must agree to the unit: every balance is its opening balance plus the movements the
 * ledger says were applied, every bet has one stake debit and exactly one initial credit, and the wallet applied
 * nothing the ledger does not know.
 */
const SEED = 20_261_122;
const PLAYERS = 6;
const BETS = 120;
const OPENING = 1_000_00;
const PASSWORD = 'a long enough password';

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const next = random(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;

let env: Record<string, string>;
let dispose: () => Promise<void>;
let wallet: TestWallet;
let server: ServeProcess;
let admin: { email: string; totpSecret: string };
let staffToken: string;
let tenantId: string;

before(async () => {
  ({ env, dispose } = await deploymentEnv({ migrated: true }));
  wallet = await startTestWallet(systemClock);
});
after(async () => {
  server?.child.kill('SIGKILL');
  await server?.exited;
  await wallet.close();
  await dispose();
});

async function call(method: string, path: string, options: Parameters<typeof request>[3] = {}): Promise<HttpResponse> {
  return request(server.url, method, path, { token: staffToken, ...options });
}

async function login(): Promise<void> {
  const response = await request(server.url, 'POST', '/api/v1/admin/auth/login', {
    body: { email: admin.email, password: PASSWORD, totp: totpCode(admin.totpSecret, new Date()) },
  });
  assert.equal(response.status, 200, response.text);
  staffToken = response.body.token;
}

async function crashAndRestart(): Promise<void> {
  server.child.kill('SIGKILL');
  await server.exited;
  server = await restartServe(env);
}

/** Settles (or resettles) a market while the process may be killed under it; asks again until it is done. */
async function settleThroughCrashes(marketId: string, results: unknown, action: 'settle' | 'resettle') {
  const sent = call('POST', `/api/v1/admin/trading/markets/${marketId}/${action}`, { body: { results } }).catch(
    () => undefined,
  );
  await new Promise((resolve) => setTimeout(resolve, Math.floor(next() * 40)));
  await crashAndRestart();
  await sent;
  const again = await call('POST', `/api/v1/admin/trading/markets/${marketId}/${action}`, { body: { results } });
  const settled = again.status === 200 || (action === 'settle' && again.body?.error?.code === 'market_settled');
  assert.ok(settled, again.text);
}

/** Lets delivery run for a random while, kills it, starts it again; `times` times. */
async function crashDuringDelivery(times: number): Promise<void> {
  for (let crash = 0; crash < times; crash += 1) {
    await new Promise((resolve) => setTimeout(resolve, 100 + Math.floor(next() * 600)));
    await crashAndRestart();
  }
}

async function allObligations() {
  const rows: Array<Record<string, any>> = [];
  let cursor = '';
  do {
    const page = await call(
      'GET',
      `/api/v1/admin/obligations?tenantId=${tenantId}&limit=100${cursor ? `&cursor=${cursor}` : ''}`,
    );
    assert.equal(page.status, 200, page.text);
    rows.push(...page.body.obligations);
    cursor = page.body.nextCursor;
  } while (cursor);
  return rows;
}

async function drained(): Promise<void> {
  await until(
    'every owed movement to be delivered',
    async () => {
      const rows = await allObligations();
      return rows.every((row) => ['applied', 'refused', 'unknown'].includes(row.status)) ? true : undefined;
    },
    90_000,
  );
}

describe('SIGKILL at random points during settlement delivery, again and again', () => {
  // Killing and starting the service again and again is slow on a loaded machine: past the suite's 2 minutes a test.
  it('leaves the ledger and the wallet in exact agreement once the queue drains', { timeout: 360_000 }, async () => {
    admin = JSON.parse(
      (
        await runCli(env, [
          'staff',
          'create',
          '--email',
          'admin@soak.test',
          '--password',
          PASSWORD,
          '--role',
          'platform_admin',
          '--enrol-now',
        ])
      ).stdout,
    );
    server = await startServe(env);
    await login();
    const tenant = await call('POST', '/api/v1/admin/tenants', {
      body: { name: 'Soak Casino', currency: 'BRL', locale: 'pt-BR', jurisdiction: 'BR', walletUrl: wallet.url },
    });
    assert.equal(tenant.status, 201, tenant.text);
    tenantId = tenant.body.tenant.id;
    wallet.setSecret(tenant.body.walletSecret);

    const trade = async (path: string, body: unknown) => {
      const response = await call('POST', `/api/v1/admin/trading${path}`, { body });
      assert.equal(response.status, 201, response.text);
      return response.body;
    };
    await trade('/sports', { id: 'soccer', name: 'Soccer' });
    const { competition } = await trade('/competitions', { sportId: 'soccer', name: 'Soak League', country: 'BR' });
    const markets: Array<{ id: string; selections: Array<{ id: string; odds: string; outcome: string }> }> = [];
    for (const [home, away] of [
      ['Alpha', 'Beta'],
      ['Gamma', 'Delta'],
    ]) {
      const { event } = await trade('/events', {
        competitionId: competition.id,
        home,
        away,
        startsAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      const { market } = await trade(`/events/${event.id}/markets`, {
        type: 'match_result',
        selections: [
          { name: home, outcome: 'home', odds: '2.10' },
          { name: 'Draw', outcome: 'draw', odds: '3.25' },
          { name: away, outcome: 'away', odds: '3.60' },
        ],
      });
      markets.push(market);
    }

    const players: string[] = [];
    for (let i = 0; i < PLAYERS; i += 1) {
      const id = `soak-player-${i}`;
      await wallet.addPlayer(id, OPENING);
      const session = await request(server.url, 'POST', '/api/v1/integration/sessions', {
        body: { externalPlayerId: id },
        headers: { 'x-tenant-id': tenantId, 'x-api-key': tenant.body.integrationApiKey },
      });
      players.push(session.body.token);
    }
    for (let i = 0; i < BETS; i += 1) {
      const [one, other] = markets.map((market) => pick(market.selections));
      const legs = i % 5 === 0 ? [one!, other!] : [one!];
      const placed = await request(server.url, 'POST', '/api/v1/bets', {
        token: players[i % PLAYERS],
        body: {
          requestId: `soak-${i}-slip`,
          stake: 1_00 + Math.floor(next() * 19_00),
          legs: legs.map((leg) => ({ selectionId: leg.id, odds: leg.odds })),
        },
      });
      assert.equal(placed.status, 201, placed.text);
    }

    // A slow wallet that sometimes applies a credit and answers 503: deliveries are in flight when the kills come.
    wallet.setLatency(20);
    wallet.fault({ mode: 'status_503', endpoint: 'credit', apply: true, times: 15 });
    const resultsFor = (market: (typeof markets)[number], winner: string) =>
      market.selections.map((selection) => ({
        selectionId: selection.id,
        result: selection.outcome === winner ? 'won' : 'lost',
      }));
    const [first, second] = markets as [(typeof markets)[number], (typeof markets)[number]];
    await settleThroughCrashes(first.id, resultsFor(first, 'home'), 'settle');
    await crashDuringDelivery(3);
    await settleThroughCrashes(second.id, resultsFor(second, 'away'), 'settle');
    await crashDuringDelivery(2);
    await drained();
    // Corrections after everything was paid: credits and debits, killed again while they go out.
    await settleThroughCrashes(first.id, resultsFor(first, 'draw'), 'resettle');
    await crashDuringDelivery(2);
    await drained();

    const ledger = await allObligations();
    const walletLog = (await wallet.wallet.store.transactions()).filter((tx) => tx.status === 200);
    const applied = ledger.filter((row) => row.status === 'applied');

    // The wallet applied exactly what the ledger says was applied: the same txIds, endpoints and amounts.
    const key = (txId: unknown, endpoint: unknown, amount: unknown) => JSON.stringify([txId, endpoint, amount]);
    assert.deepEqual(
      walletLog.map((tx) => key(tx.tx_id, tx.endpoint, tx.amount)).sort(),
      applied.map((row) => key(row.txId, row.endpoint, row.amount)).sort(),
    );
    assert.equal(new Set(applied.map((row) => row.txId)).size, applied.length, 'no txId applied twice');

    // Every balance is its opening balance plus the movements applied.
    assert.equal(applied.filter((row) => row.kind === 'rollback').length, 0, 'no stake was in doubt in this run');
    for (let i = 0; i < PLAYERS; i += 1) {
      const id = `soak-player-${i}`;
      const moved = applied
        .filter((row) => row.externalPlayerId === id)
        .reduce((sum, row) => sum + (row.endpoint === 'debit' ? -row.amount : row.amount), 0);
      assert.equal(await wallet.balanceOf(id), OPENING + moved, id);
    }

    // Per bet: one stake debit, exactly one initial credit, corrections only after it.
    const byBet = new Map<string, Array<Record<string, any>>>();
    for (const row of ledger) byBet.set(row.betId, [...(byBet.get(row.betId) ?? []), row]);

    assert.equal(byBet.size, BETS);
    for (const [betId, rows] of byBet) {
      assert.equal(rows.filter((row) => row.kind === 'bet').length, 1, `${betId}: one stake debit`);
      const initial = rows.filter((row) => row.txId === `payout:${betId}:1`);
      assert.equal(initial.length, 1, `${betId}: exactly one initial credit`);
      assert.ok(
        rows.every((row) => row.status === 'applied'),
        `${betId}: everything owed was delivered`,
      );
    }
    assert.ok(
      ledger.some((row) => row.kind === 'resettle' && row.endpoint === 'debit'),
      'the corrections included debits',
    );
    const sends = new Map<string, number>();
    for (const received of wallet.wallet.received) sends.set(received.txId!, (sends.get(received.txId!) ?? 0) + 1);
    assert.ok(
      [...sends.values()].some((count) => count > 1),
      'some movements had to be sent again',
    );
  });
});
