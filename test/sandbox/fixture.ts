import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { createClientBody, newIdempotencyKey, setUpAggregator, type AggregatorFixture } from '../helpers/aggregator.ts';
import { loginAsStaff, startTestApp, type HttpResponse, type TestApp } from '../helpers/app.ts';
import { newRequestId } from '../helpers/sportsbook.ts';
import { exchange, openSession, type TestTenant } from '../helpers/tenant.ts';
import { startWalletPair, type TestWallet, type WalletPair } from '../helpers/wallet.ts';

/** One environment of the client: its tenant id and integration key (and its wallet secret, for TestTenant). */
type Environment = TestTenant;

/**
 * What each sandbox test starts from: a client provisioned and activated through the aggregator API (its production
 * and sandbox environments, each with its own wallet and integration key), a catalog made by a trader (three 1X2
 * markets, a quarter-line and a whole-line totals market on the first event), and a sandbox player with 100.00 in the
 * sandbox wallet, signed in through the launch exchange.
 */
export interface SandboxFixture {
  t: TestApp;
  wallets: WalletPair;
  agg: AggregatorFixture;
  client: { id: string };
  sandbox: Environment;
  production: Environment;
  trader: string;
  events: Array<{ id: string; marketId: string; home: string; draw: string; away: string }>;
  /** Totals 2.25 (a quarter line: half results allowed) and 2.5 (a whole line: not) on the first event. */
  quarter: { marketId: string; over: string; under: string };
  whole: { marketId: string; over: string; under: string };
  /** The sandbox player's external id and session token. */
  player: string;
  token: string;
}

const PLAYER = 'sandbox-player';
export const START_BALANCE = 100_00;

export function sandboxPerTest(appDeps: Parameters<typeof startTestApp>[1] = {}): SandboxFixture {
  const f = {} as SandboxFixture;
  before(async () => {
    f.t = await startTestApp({}, appDeps);
    f.wallets = await startWalletPair(f.t.clock);
  });
  after(async () => {
    await f.t.close();
    await f.wallets.close();
  });
  beforeEach(async () => {
    const { t, wallets } = f;
    await t.reset();
    for (const wallet of [wallets.production, wallets.sandbox]) {
      wallet.wallet.faults.length = 0;
      wallet.wallet.received.length = 0;
    }
    f.agg = await setUpAggregator(t, wallets);
    const activated = await activateClient(f);
    f.sandbox = activated.sandbox;
    f.production = activated.production;
    f.client = { id: activated.id };
    f.trader = (await loginAsStaff(t, 'trader')).token;
    await makeCatalog(f);
    f.player = PLAYER;
    f.token = await signIn(f, f.sandbox, wallets.sandbox, PLAYER, START_BALANCE);
  });
  return f;
}

/** A client created and activated, its wallet secrets installed in the two reference wallets. */
export async function activateClient(f: Pick<SandboxFixture, 'agg' | 'wallets'>) {
  const { agg, wallets } = f;
  const client = (await agg.call('POST', '/clients', createClientBody(wallets))).body;
  wallets.production.setSecret(client.production.walletSecret);
  wallets.sandbox.setSecret(client.sandbox.walletSecret);
  await wallets.production.addPlayer('validation-prod', 0);
  await wallets.sandbox.addPlayer('validation-sandbox', 0);
  const activated = await agg.call('POST', `/clients/${client.id}/activate`, {
    productionPlayerId: 'validation-prod',
    sandboxPlayerId: 'validation-sandbox',
    reason: 'sandbox tests',
  });
  assert.equal(activated.status, 200, activated.text);
  const environment = (name: 'production' | 'sandbox'): Environment => ({
    tenantId: activated.body[name].tenantId,
    apiKey: activated.body[name].integrationApiKey,
    walletSecret: client[name].walletSecret,
  });
  return { id: client.id as string, production: environment('production'), sandbox: environment('sandbox') };
}

async function makeCatalog(f: SandboxFixture): Promise<void> {
  const trade = async (path: string, body: unknown) => {
    const response = await f.t.request('POST', `/api/v1/admin/trading${path}`, { token: f.trader, body });
    assert.ok(response.status < 300, `${path}: ${response.text}`);
    return response.body;
  };
  await trade('/sports', { id: 'soccer', name: 'Soccer' });
  const { competition } = await trade('/competitions', { sportId: 'soccer', name: 'Série A', country: 'Brazil' });
  f.events = [];
  for (const [home, away] of [
    ['Flamengo', 'Palmeiras'],
    ['Santos', 'Grêmio'],
    ['Bahia', 'Cruzeiro'],
  ] as const) {
    const { event } = await trade('/events', {
      competitionId: competition.id,
      home,
      away,
      startsAt: new Date(f.t.clock.now().getTime() + 86_400_000).toISOString(),
    });
    const { market } = await trade(`/events/${event.id}/markets`, {
      type: 'match_result',
      selections: [
        { name: home, outcome: 'home', odds: '2.10' },
        { name: 'Draw', outcome: 'draw', odds: '3.25' },
        { name: away, outcome: 'away', odds: '3.60' },
      ],
    });
    const [h, d, a] = market.selections;
    f.events.push({ id: event.id, marketId: market.id, home: h.id, draw: d.id, away: a.id });
  }
  const totals = async (line: string) => {
    const { market } = await trade(`/events/${f.events[0]!.id}/markets`, {
      type: 'totals',
      line,
      selections: [
        { name: `Over ${line}`, outcome: 'over', odds: '1.90' },
        { name: `Under ${line}`, outcome: 'under', odds: '1.95' },
      ],
    });
    return { marketId: market.id, over: market.selections[0].id, under: market.selections[1].id };
  };
  f.quarter = await totals('2.25');
  f.whole = await totals('2.5');
}

/** A player with `balance` in the environment's wallet, signed in through the launch exchange: its session token. */
export async function signIn(
  f: Pick<SandboxFixture, 't'>,
  environment: Environment,
  wallet: TestWallet,
  externalId: string,
  balance: number,
): Promise<string> {
  await wallet.addPlayer(externalId, balance, 'BRL');
  const session = await openSession(f.t, environment, { externalPlayerId: externalId });
  assert.equal(session.status, 200, session.text);
  return (await exchange(f.t, environment.tenantId, session.body.launchToken)).body.token;
}

/** Places a bet as the player (the iframe's call): its id. */
export async function place(
  f: Pick<SandboxFixture, 't' | 'token'>,
  legs: Array<{ selectionId: string; odds: string }>,
  stake = 10_00,
  token = f.token,
): Promise<string> {
  const response = await f.t.request('POST', '/api/v1/bets', {
    token,
    body: { requestId: newRequestId(), stake, legs },
  });
  assert.equal(response.status, 201, response.text);
  return response.body.bet.id;
}

/** A sandbox control on a bet, with the sandbox key and a fresh Idempotency-Key unless told otherwise. */
export function control(
  f: Pick<SandboxFixture, 't' | 'sandbox'>,
  betId: string,
  action: 'settle' | 'resettle' | 'reopen' | 'cancel',
  body: unknown = {},
  options: { environment?: Environment; key?: string; headers?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const environment = options.environment ?? f.sandbox;
  return f.t.request('POST', `/api/v1/integration/sandbox/bets/${betId}/${action}`, {
    body,
    headers: {
      'x-tenant-id': environment.tenantId,
      'x-api-key': environment.apiKey,
      'idempotency-key': options.key ?? newIdempotencyKey(),
      ...options.headers,
    },
  });
}

/**
 * What the wallet applied for a bet, as it recorded each call: [txId, endpoint, kind, amount, ref], in the order the
 * ledger owed them (the wallet's own clock cannot order calls made within one millisecond).
 */
export async function walletMoves(f: Pick<SandboxFixture, 't' | 'wallets'>, betId: string, wallet?: TestWallet) {
  const rows = await (wallet ?? f.wallets.sandbox).wallet.store.transactions();
  const applied = new Map(
    rows.filter((row) => row.bet_id === betId && Number(row.status) < 300).map((row) => [row.tx_id as string, row]),
  );
  const order = (await postings(f, betId)).map(([txId]) => txId as string);
  assert.deepEqual(
    [...applied.keys()].filter((txId) => !order.includes(txId)),
    [],
    'the wallet applied only what the ledger owed',
  );
  return order
    .filter((txId) => applied.has(txId))
    .map((txId) => {
      const row = applied.get(txId)!;
      return [txId, row.endpoint, row.kind, Number(row.amount), row.ref ?? null];
    });
}

/** The bet's obligations in the ledger, in delivery order: [txId, endpoint, kind, amount, status]. */
export async function postings(f: Pick<SandboxFixture, 't'>, betId: string) {
  const rows = await f.t.db
    .selectFrom('wallet_obligations')
    .select(['tx_id', 'endpoint', 'kind', 'amount', 'status'])
    .where('bet_id', '=', betId)
    .orderBy('sequence')
    .execute();
  return rows.map((row) => [row.tx_id, row.endpoint, row.kind, row.amount, row.status]);
}

export const single = (selectionId: string, odds: string) => [{ selectionId, odds }];
