import { writeDemoCatalog } from '../../src/seed/demo-catalog.ts';
import { loginAsStaff, startTestApp, type HttpResponse, type TestApp } from '../../test/helpers/app.ts';
import { addPricedEvent, setUpSportsbook, resultsOf, type Sportsbook } from '../../test/helpers/sportsbook.ts';
import { openSession } from '../../test/helpers/tenant.ts';
import { startTestWallet, type TestWallet } from '../../test/helpers/wallet.ts';

/** One of the book's events, or one made by `newEvent`: its ids and its 1X2 market's selection ids. */
export type BookEvent = Sportsbook['events'][number];

export interface StackOptions {
  /** false: the book's three events only, no demo catalog */
  demo?: boolean;
}

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
  /** Trading: settles the 1X2 market of one of the book's events (or of one `newEvent` made). */
  settle(event: BookEvent, winner: 'home' | 'draw' | 'away' | 'void'): Promise<HttpResponse>;
  /**
   * Trading: a soccer event of the book's own, in its competition, starting tomorrow, with a 1X2 market at 2.10,
   * 3.25 and 3.60 like the book's three. For a test that settles it, suspends it or moves its prices: no other test
   * sees what it did, and it does not depend on what another test did to the book's events.
   */
  newEvent(home: string, away: string): Promise<BookEvent>;
  /** The tenant's embed origins: the pages on these origins may frame the sportsbook. */
  setEmbedOrigins(origins: string[]): Promise<void>;
  close(): Promise<void>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const t = await startTestApp({}, { deliveryLoop: true });
  t.clock.set(new Date(Math.floor(Date.now() / 1000) * 1000));
  const wallet = await startTestWallet(t.clock);
  const book = await setUpSportsbook(t, wallet);
  /**
   * A request as the book's trader or administrator. A test that moves the clock on (a player's idle timeout) ends
   * their sessions too: then they sign in again, and the book keeps the new token.
   */
  const asStaff = async (role: 'trader' | 'admin', method: string, path: string, body?: unknown) => {
    const response = await t.request(method, path, { token: book[role], body });
    if (response.status !== 401 || response.body.error?.code !== 'session_expired') return response;
    book[role] = (await loginAsStaff(t, role === 'admin' ? 'platform_admin' : 'trader')).token;
    return t.request(method, path, { token: book[role], body });
  };
  const setEmbedOrigins = async (origins: string[]) => {
    const response = await asStaff('admin', 'PUT', `/api/v1/admin/tenant?tenantId=${book.tenant.tenantId}`, {
      embedOrigins: origins,
    });
    if (response.status >= 300) throw new Error(`embedOrigins: ${response.text}`);
  };
  if (options.demo !== false) {
    // beside the soccer sport setUpSportsbook made
    await writeDemoCatalog(t.app.services, t.clock.now());
  }
  const trade = (method: string, path: string, body: unknown) =>
    asStaff('trader', method, `/api/v1/admin/trading${path}`, body);
  const traded = async (method: string, path: string, body: unknown) => {
    const response = await trade(method, path, body);
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.text}`);
    return response.body;
  };
  let competitionId: string | undefined;

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
    settle: (event, winner) =>
      trade('POST', `/markets/${event.marketId}/settle`, { results: resultsOf(event, winner) }),
    async newEvent(home, away) {
      competitionId ??= (await t.request('GET', `/api/v1/catalog/events/${book.events[0]!.id}`)).body.event.competition
        .id as string;
      return addPricedEvent(traded, competitionId, home, away, t.clock.now());
    },
    setEmbedOrigins,
    async close() {
      await t.close();
      await wallet.close();
    },
  };
}
