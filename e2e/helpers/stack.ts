import { applyFeedUpdate } from '../../src/catalog/feed.ts';
import { demoCatalog } from '../../src/seed/demo-catalog.ts';
import { startTestApp, type HttpResponse, type TestApp } from '../../test/helpers/app.ts';
import { setUpSportsbook, settleMarket, resultsOf, type Sportsbook } from '../../test/helpers/sportsbook.ts';
import { openSession } from '../../test/helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../../test/helpers/wallet.ts';

/**
 * A real stack for browser tests: the service on a loopback port (serving the sportsbook app at `/`), the
 * reference wallet, a tenant (BRL, pt-BR) whose wallet it is, and a catalog: the three soccer events of
 * setUpSportsbook (1X2 each, starting tomorrow) plus, unless `demo: false`, the demo catalog (three sports, live
 * events, all market types). The service clock is set to the real time so that the browser and the service agree on
 * what is today; it does not move on its own.
 */
export interface Stack {
  t: TestApp;
  wallet: TestWallet;
  book: Sportsbook;
  /** the service's base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  tenantId: string;
  /** A fresh single-use launch token for a player (created in the wallet with `balance` minor units if given). */
  launchToken(externalPlayerId: string, options?: { balance?: number; displayName?: string }): Promise<string>;
  /** The iframe URL of the sportsbook for this tenant, with any other query parameters. */
  appUrl(params?: Record<string, string | undefined>): string;
  /** Trading: a new price for a selection. */
  setOdds(selectionId: string, odds: string): Promise<HttpResponse>;
  /** Trading: open, suspend or close a market. */
  setMarketStatus(marketId: string, status: 'open' | 'suspended' | 'closed'): Promise<HttpResponse>;
  /** Trading: settles the 1X2 market of one of the book's events. */
  settle(event: Sportsbook['events'][number], winner: 'home' | 'draw' | 'away' | 'void'): Promise<HttpResponse>;
  close(): Promise<void>;
}

export async function startStack(options: { demo?: boolean; embedOrigins?: string[] } = {}): Promise<Stack> {
  const t = await startTestApp({}, { deliveryLoop: true });
  t.clock.set(new Date(Math.floor(Date.now() / 1000) * 1000));
  const wallet = await startTestWallet(t.clock);
  const book = await setUpSportsbook(t, wallet);
  if (options.embedOrigins) {
    const response = await t.request('PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      token: book.admin,
      body: { embedOrigins: options.embedOrigins },
    });
    if (response.status >= 300) throw new Error(`embedOrigins: ${response.text}`);
  }
  if (options.demo !== false) {
    for (const update of demoCatalog(t.clock.now())) {
      // setUpSportsbook made the soccer sport already
      if (update.type === 'sport' && update.id === 'soccer') continue;
      await applyFeedUpdate(t.app.services.catalog, update);
    }
  }
  const trade = (method: string, path: string, body: unknown) =>
    t.request(method, `/api/v1/admin/trading${path}`, { token: book.trader, body });

  return {
    t,
    wallet,
    book,
    url: t.url,
    tenantId: book.tenant.tenantId,
    async launchToken(externalPlayerId, { balance, displayName } = {}) {
      if (balance !== undefined) await wallet.addPlayer(externalPlayerId, balance, 'BRL');
      const response = await openSession(t, book.tenant, {
        externalPlayerId,
        ...(displayName ? { displayName } : {}),
      });
      if (response.status !== 200) throw new Error(`session: ${response.text}`);
      return response.body.launchToken as string;
    },
    appUrl(params = {}) {
      const query = new URLSearchParams({ tenant: book.tenant.tenantId });
      for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
      return `${t.url}/?${query}`;
    },
    setOdds: (selectionId, odds) => trade('PUT', `/selections/${selectionId}/odds`, { odds }),
    setMarketStatus: (marketId, status) => trade('PATCH', `/markets/${marketId}`, { status }),
    settle: (event, winner) => settleMarket(t, book, event.marketId, resultsOf(event, winner)),
    async close() {
      await t.close();
      await wallet.close();
    },
  };
}
