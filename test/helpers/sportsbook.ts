import { after, before, beforeEach } from 'node:test';
import { loginAsStaff, startTestApp, type TestApp } from './app.ts';
import { createTenant, exchange, openSession, type TestTenant } from './tenant.ts';
import { startTestWallet, type TestWallet } from './wallet.ts';

export interface Sportsbook {
  admin: string;
  trader: string;
  tenant: TestTenant;
  /** Three soccer events with a 1X2 market each: [event][home|draw|away] selection ids. */
  events: PricedEvent[];
}

/** An event with its 1X2 market: the ids of the event, the market and each selection. */
export interface PricedEvent {
  id: string;
  marketId: string;
  home: string;
  draw: string;
  away: string;
}

/** A trader's call to the trading API (`/api/v1/admin/trading` + path), answering the body or throwing. */
type Trade = (method: string, path: string, body: unknown) => Promise<any>;

/** An event of `competitionId` a day after `now`, with a 1X2 market at the book's usual prices (2.10, 3.25, 3.60). */
export async function addPricedEvent(
  trade: Trade,
  competitionId: string,
  home: string,
  away: string,
  now: Date,
): Promise<PricedEvent> {
  const startsAt = new Date(now.getTime() + 86_400_000).toISOString();
  const { event } = await trade('POST', '/events', { competitionId, home, away, startsAt });
  const { market } = await trade('POST', `/events/${event.id}/markets`, {
    type: 'match_result',
    selections: [
      { name: home, outcome: 'home', odds: '2.10' },
      { name: 'Draw', outcome: 'draw', odds: '3.25' },
      { name: away, outcome: 'away', odds: '3.60' },
    ],
  });
  const [h, d, a] = market.selections;
  return { id: event.id, marketId: market.id, home: h.id, draw: d.id, away: a.id };
}

/** A tenant whose wallet is the reference wallet, and a small catalog made through the trading API. */
export async function setUpSportsbook(
  t: TestApp,
  wallet: TestWallet,
  options: { walletUrl?: string } = {},
): Promise<Sportsbook> {
  const admin = (await loginAsStaff(t, 'platform_admin')).token;
  const trader = (await loginAsStaff(t, 'trader')).token;
  const tenant = await createTenant(t, admin, { walletUrl: options.walletUrl ?? wallet.url });
  wallet.setSecret(tenant.walletSecret);
  const trade = async (method: string, path: string, body: unknown) => {
    const response = await t.request(method, `/api/v1/admin/trading${path}`, { token: trader, body });
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.text}`);
    return response.body;
  };
  await trade('POST', '/sports', { id: 'soccer', name: 'Soccer' });
  const { competition } = await trade('POST', '/competitions', {
    sportId: 'soccer',
    name: 'Brasileirão Série A',
    country: 'Brazil',
  });
  const events = [];
  for (const [home, away] of [
    ['Flamengo', 'Palmeiras'],
    ['Santos', 'Grêmio'],
    ['Bahia', 'Cruzeiro'],
  ] as const) {
    events.push(await addPricedEvent(trade, competition.id, home, away, t.clock.now()));
  }
  return { admin, trader, tenant, events };
}

/** A player with money in the wallet, logged in through the launch exchange as the iframe would be. */
export async function playerWithBalance(
  t: TestApp,
  book: Sportsbook,
  wallet: TestWallet,
  externalId: string,
  balance: number,
): Promise<string> {
  await wallet.addPlayer(externalId, balance, 'BRL');
  const session = await openSession(t, book.tenant, { externalPlayerId: externalId });
  return (await exchange(t, book.tenant.tenantId, session.body.launchToken)).body.token;
}

let requestCounter = 0;
export const newRequestId = () => `slip-${Date.now()}-${(requestCounter += 1)}`;

type Outcome = 'home' | 'draw' | 'away';
type Result = 'won' | 'lost' | 'void' | 'half_won' | 'half_lost';

/** The results of a 1X2 market of the book: the winning outcome won, the others lost (or every one `void`). */
export function resultsOf(event: Sportsbook['events'][number], winner: Outcome | 'void') {
  const result = (outcome: Outcome): Result => (winner === 'void' ? 'void' : winner === outcome ? 'won' : 'lost');
  return [
    { selectionId: event.home, result: result('home') },
    { selectionId: event.draw, result: result('draw') },
    { selectionId: event.away, result: result('away') },
  ];
}

/** POST .../settle or .../resettle as the book's trader. */
export function settleMarket(
  t: TestApp,
  book: Sportsbook,
  marketId: string,
  results: Array<{ selectionId: string; result: string }>,
  action: 'settle' | 'resettle' = 'settle',
) {
  return t.request('POST', `/api/v1/admin/trading/markets/${marketId}/${action}`, {
    token: book.trader,
    body: { results },
  });
}

/** What each test of a money suite starts from. */
export interface FreshSportsbook {
  t: TestApp;
  wallet: TestWallet;
  book: Sportsbook;
  /** the player's external id: `${prefix}-${n}` */
  player: string;
  /** the player's session token */
  token: string;
}

/**
 * One service and one reference wallet per test file; before each test, an empty database, the sportsbook of
 * setUpSportsbook, no fault, latency or recorded request left in the wallet, and a new player with `balance` in the
 * wallet. Every money suite starts from it; `appDeps` are the service's own (a shorter delivery schedule, say).
 * The returned object is filled in by those hooks.
 */
export function freshSportsbookPerTest(
  prefix: string,
  balance = 100_00,
  appDeps: Parameters<typeof startTestApp>[1] = {},
  options: {
    /** The service's settings beyond the tests' own (a metrics port, say). */
    config?: Parameters<typeof startTestApp>[0];
    /** Where the tenant's wallet is, if not at the test wallet's own URL (reached by name, say). */
    walletUrl?: (wallet: TestWallet) => string;
  } = {},
): FreshSportsbook {
  const fresh = {} as FreshSportsbook;
  let n = 0;
  before(async () => {
    fresh.t = await startTestApp(options.config ?? {}, appDeps);
    fresh.wallet = await startTestWallet(fresh.t.clock);
  });
  after(async () => {
    await fresh.t.close();
    await fresh.wallet.close();
  });
  beforeEach(async () => {
    await fresh.t.reset();
    fresh.wallet.wallet.faults.length = 0;
    fresh.wallet.wallet.received.length = 0;
    fresh.wallet.setLatency(0);
    const walletUrl = options.walletUrl?.(fresh.wallet);
    fresh.book = await setUpSportsbook(fresh.t, fresh.wallet, walletUrl ? { walletUrl } : {});
    n += 1;
    fresh.player = `${prefix}-${n}`;
    fresh.token = await playerWithBalance(fresh.t, fresh.book, fresh.wallet, fresh.player, balance);
  });
  return fresh;
}
