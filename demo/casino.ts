/**
 * The demo casino: a small casino site on its own origin that embeds the sportsbook the way a real one would.
 *
 * - It logs its players in on its own server (a name, a cookie session): accounts, KYC and cashier are the casino's.
 * - It asks the Bookmaker integration API for a player session server-side (X-Tenant-ID + X-API-Key of the
 *   production environment): the integration key never reaches the browser, only single-use launch tokens do.
 * - Its page loads `{sportsbook}/embed/v1.js` and mounts the sportsbook (public/casino.js).
 * - Its cashier credits the player in the casino's wallet (the reference wallet's control API).
 * - A development-only "trader shortcut" settles markets with a trader staff token the demo created.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { HttpError, callJson } from './http.ts';
import { casinoPage, startingPage, type PageConfig } from './page.ts';
import type { DemoWallet } from './wallet.ts';

const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** What the casino needs once the client is provisioned and active. */
interface CasinoSetup {
  /** The sportsbook as the browser reaches it (another origin than the casino's). */
  sportsbookUrl: string;
  /** The same service as this server reaches it, server to server. */
  apiUrl: string;
  tenantId: string;
  /** The production environment's integration key: it stays on this server. */
  integrationKey: string;
  currency: string;
  locale: Locale;
  brand: string;
  wallet: DemoWallet;
  /** Staff tokens for the development-only trader shortcut: settle (trader) and the players' bets (operator). */
  traderToken: string;
  operatorToken: string;
  /** What a new player finds in the wallet (minor units). */
  welcomeBalance: number;
}

export interface Casino {
  url: string;
  configure(setup: CasinoSetup): void;
  close(): Promise<void>;
}

interface Account {
  name: string;
  /** The casino's own stable, opaque player id: the `externalPlayerId` of the integration API. */
  externalId: string;
  /** The sportsbook's player id (pl_…), known after the first session. */
  playerId?: string;
}

interface Visitor {
  externalId: string | null;
  locale: Locale | null;
  /** The server's token of the session last opened for this visitor (never sent to the browser). */
  sessionToken: string | null;
}

const COOKIE = 'casino_session';
const DEPOSIT_MAX = 10_000_000;
const TRADER_MARKETS = 8;
const PUBLIC = join(import.meta.dirname, 'public');
const ASSETS: Record<string, { type: string; file: string }> = {
  '/casino.js': { type: 'text/javascript; charset=utf-8', file: 'casino.js' },
  '/casino.css': { type: 'text/css; charset=utf-8', file: 'casino.css' },
  '/favicon.svg': { type: 'image/svg+xml', file: 'favicon.svg' },
};

/** Starts listening at once (CreateClient needs the casino's origin); pages answer "starting" until configure(). */
export async function startCasino(port: number, host: string): Promise<Casino> {
  let setup: CasinoSetup | undefined;
  const accounts = new Map<string, Account>();
  const visitors = new Map<string, Visitor>();
  const deposits = new Map<string, Promise<unknown>>();
  const app = Fastify({ logger: false, bodyLimit: 16 * 1024 });

  const visitorOf = (request: FastifyRequest): { id: string; visitor: Visitor } | null => {
    const id = readCookie(request.headers.cookie, COOKIE);
    const visitor = id ? visitors.get(id) : undefined;
    return id && visitor ? { id, visitor } : null;
  };
  /** The visitor of this browser, created with a cookie when it has none. */
  const ensureVisitor = (request: FastifyRequest, reply: FastifyReply): Visitor => {
    const known = visitorOf(request);
    if (known) return known.visitor;
    const id = randomBytes(18).toString('base64url');
    const visitor: Visitor = { externalId: null, locale: null, sessionToken: null };
    visitors.set(id, visitor);
    reply.header('set-cookie', `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`);
    return visitor;
  };
  const ready = (): CasinoSetup => {
    if (!setup) throw new CasinoError(503, 'starting', 'The demo is still starting: try again in a few seconds.');
    return setup;
  };
  const localeOf = (visitor: Visitor) => visitor.locale ?? ready().locale;

  /**
   * POST /api/v1/integration/sessions, server to server: a new session and its single-use launch token for the
   * browser. The session's own token stays here.
   */
  const openSession = async (account: Account, visitor: Visitor): Promise<string> => {
    const casino = ready();
    const locale = visitor.locale ?? casino.locale;
    const answer = await callJson<{ launchToken: string; token: string; player: { id: string } }>(
      casino.apiUrl,
      'POST',
      '/api/v1/integration/sessions',
      {
        headers: { 'x-tenant-id': casino.tenantId, 'x-api-key': casino.integrationKey },
        body: { externalPlayerId: account.externalId, displayName: account.name, locale },
      },
    );
    account.playerId = answer.player.id;
    visitor.sessionToken = answer.token;
    return answer.launchToken;
  };
  const balanceOf = async (account: Account): Promise<number | null> =>
    (await ready().wallet.player(account.externalId))?.balance ?? null;

  // Every answer of the casino is about one visitor: never cached.
  app.addHook('onSend', async (_request, reply) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  });
  app.setErrorHandler((error, _request, reply) => {
    if (error instanceof CasinoError) {
      return reply.code(error.status).send({ error: { code: error.code, message: error.message } });
    }
    if (error instanceof HttpError) {
      return reply.code(502).send({ error: { code: error.code ?? 'upstream', message: error.message } });
    }
    const status = (error as { statusCode?: number }).statusCode ?? 500;
    return reply.code(status).send({ error: { code: 'casino_error', message: (error as Error).message } });
  });

  for (const [path, asset] of Object.entries(ASSETS)) {
    const body = readFileSync(join(PUBLIC, asset.file));
    app.get(path, async (_request, reply) =>
      reply.header('content-type', asset.type).header('cache-control', 'no-cache').send(body),
    );
  }

  app.get('/', async (request, reply) => {
    reply.header('content-type', 'text/html; charset=utf-8');
    if (!setup) return reply.code(503).header('retry-after', '2').send(startingPage());
    const casino = setup;
    const visitor = ensureVisitor(request, reply);
    const account = visitor.externalId ? accounts.get(visitor.externalId) : undefined;
    const locale = localeOf(visitor);
    let launchToken: string | null = null;
    let notice: string | null = null;
    if (account) {
      try {
        launchToken = await openSession(account, visitor);
      } catch (error) {
        notice = `The casino could not open a sportsbook session: ${(error as Error).message}`;
      }
    }
    const config: PageConfig = {
      brand: casino.brand,
      sportsbookUrl: casino.sportsbookUrl,
      apiReferenceUrl: `${casino.sportsbookUrl}/docs`,
      tenant: casino.tenantId,
      currency: casino.currency,
      locale,
      locales: [...LOCALES],
      launchToken,
      player: account ? { name: account.name } : null,
      balance: account ? await balanceOf(account).catch(() => null) : null,
      notice,
    };
    reply.header('content-security-policy', pagePolicy(casino.sportsbookUrl));
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    return casinoPage(config);
  });

  /** The casino's own log-in: any name; a new name is a new account with a welcome balance in the wallet. */
  app.post<{ Body: { name?: unknown } }>('/login', async (request, reply) => {
    const casino = ready();
    const name = typeof request.body?.name === 'string' ? request.body.name.trim().replace(/\s+/g, ' ') : '';
    if (name.length < 1 || name.length > 32 || hasControlCharacter(name)) {
      throw new CasinoError(400, 'invalid_name', 'Type a name of 1 to 32 characters.');
    }
    const externalId = externalIdOf(name);
    let account = accounts.get(externalId);
    if (!account) {
      account = { name, externalId };
      accounts.set(externalId, account);
    }
    account.name = name;
    if (!(await casino.wallet.player(externalId))) {
      await casino.wallet.setPlayer(externalId, casino.welcomeBalance, casino.currency);
    }
    const visitor = ensureVisitor(request, reply);
    visitor.externalId = externalId;
    const launchToken = await openSession(account, visitor);
    return { player: { name: account.name }, balance: await balanceOf(account), launchToken };
  });

  app.post('/logout', async (request, reply) => {
    const known = visitorOf(request);
    if (known) visitors.delete(known.id);
    // The sportsbook session ends through the SDK (handle.logout()); the server's token is simply forgotten.
    return reply.header('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`).code(204).send();
  });

  /** For onSessionExpired and login_required: a fresh launch token while the casino session lasts, else null. */
  app.post('/launch-token', async (request) => {
    const visitor = visitorOf(request)?.visitor;
    const account = visitor?.externalId ? accounts.get(visitor.externalId) : undefined;
    if (!visitor || !account) return { launchToken: null };
    return { launchToken: await openSession(account, visitor) };
  });

  /**
   * Development only: ends the visitor's sportsbook session from the casino server (POST /api/v1/session/logout
   * with the server's token), so the page can show the SDK recovering through onSessionExpired.
   */
  app.post('/dev/end-session', async (request, reply) => {
    const casino = ready();
    const visitor = visitorOf(request)?.visitor;
    if (!visitor?.sessionToken) throw new CasinoError(409, 'no_session', 'No sportsbook session to end: log in first.');
    await callJson(casino.apiUrl, 'POST', '/api/v1/session/logout', { token: visitor.sessionToken });
    visitor.sessionToken = null;
    return reply.code(204).send();
  });

  app.post<{ Body: { locale?: unknown } }>('/locale', async (request, reply) => {
    const locale = request.body?.locale;
    if (!LOCALES.includes(locale as Locale)) throw new CasinoError(400, 'invalid_locale', 'Unknown locale.');
    ensureVisitor(request, reply).locale = locale as Locale;
    return reply.code(204).send();
  });

  /** The fake cashier: the casino credits its own wallet (a real one would take a payment first). */
  app.post<{ Body: { amount?: unknown } }>('/cashier/deposit', async (request) => {
    const casino = ready();
    const visitor = visitorOf(request)?.visitor;
    const account = visitor?.externalId ? accounts.get(visitor.externalId) : undefined;
    if (!account) throw new CasinoError(401, 'login_required', 'Log in to the casino first.');
    const amount = request.body?.amount;
    if (!Number.isSafeInteger(amount) || (amount as number) < 1 || (amount as number) > DEPOSIT_MAX) {
      throw new CasinoError(400, 'invalid_amount', 'The amount must be a positive whole number of minor units.');
    }
    // One deposit at a time per player; a stake debited between the read and the write would be overwritten, which
    // this control-API cashier accepts (it is a demo: a real wallet credits in one transaction).
    const previous = deposits.get(account.externalId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const player = await casino.wallet.player(account.externalId);
      const balance = (player?.balance ?? 0) + (amount as number);
      await casino.wallet.setPlayer(account.externalId, balance, casino.currency);
      return balance;
    });
    deposits.set(
      account.externalId,
      next.catch(() => undefined),
    );
    return { balance: await next, currency: casino.currency };
  });

  /** Development only: the markets of the casino players' open bets, with what a trader needs to settle them. */
  app.get('/trader/markets', async () => {
    const casino = ready();
    return { markets: await openMarkets(casino, [...accounts.values()]) };
  });

  app.post<{ Body: { eventId?: unknown; marketId?: unknown; selectionId?: unknown } }>(
    '/trader/settle',
    async (request) => {
      const casino = ready();
      const { eventId, marketId, selectionId } = request.body ?? {};
      if (typeof eventId !== 'string' || typeof marketId !== 'string' || typeof selectionId !== 'string') {
        throw new CasinoError(400, 'invalid_request', 'eventId, marketId and selectionId are required.');
      }
      const { event } = await callJson<{ event: CatalogEvent }>(
        casino.apiUrl,
        'GET',
        `/api/v1/catalog/events/${encodeURIComponent(eventId)}`,
      );
      const market = event.markets.find((candidate) => candidate.id === marketId);
      if (!market || !market.selections.some((selection) => selection.id === selectionId)) {
        throw new CasinoError(404, 'not_found', 'No such market or selection.');
      }
      const results = market.selections.map((selection) => ({
        selectionId: selection.id,
        result: selection.id === selectionId ? 'won' : 'lost',
      }));
      return callJson<SettlementReport>(
        casino.apiUrl,
        'POST',
        `/api/v1/admin/trading/markets/${encodeURIComponent(marketId)}/settle`,
        { token: casino.traderToken, body: { results } },
      );
    },
  );

  const url = await app.listen({ port, host });
  return {
    url,
    configure: (value) => {
      setup = value;
    },
    close: () => app.close(),
  };
}

class CasinoError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

interface CatalogSelection {
  id: string;
  name: string;
  outcome: string;
  odds: string;
}
interface CatalogMarket {
  id: string;
  type: string;
  name: string;
  status: string;
  selections: CatalogSelection[];
}
interface CatalogEvent {
  id: string;
  home: string;
  away: string;
  status: string;
  score: { home: number; away: number } | null;
  competition: { name: string };
  markets: CatalogMarket[];
}
interface StaffBet {
  status: string;
  stake: number;
  placedAt: string;
  legs: Array<{ marketId: string; eventId: string; result: string | null }>;
}
interface SettlementReport {
  market: { id: string; status: string; settlementVersion: number };
  bets: { settled: number; resettled: number; reopened: number; unchanged: number };
  owed: Array<{ currency: string; credits: number; debits: number; movements: number }>;
}

interface TraderMarket {
  eventId: string;
  eventName: string;
  home: string;
  away: string;
  competition: string;
  eventStatus: string;
  score: { home: number; away: number } | null;
  marketId: string;
  marketName: string;
  marketType: string;
  marketStatus: string;
  bets: number;
  stake: number;
  selections: Array<{ id: string; name: string; outcome: string; odds: string }>;
}

const OPEN_BETS = new Set(['pending', 'accepted', 'partially_cashed_out']);

/** The operator's view of each player's bets (GET /api/v1/admin/bets), grouped by the markets still without result. */
async function openMarkets(casino: CasinoSetup, accounts: Account[]): Promise<TraderMarket[]> {
  const waiting = new Map<string, { eventId: string; bets: number; stake: number; latest: string }>();
  for (const account of accounts) {
    if (!account.playerId) continue;
    const { bets } = await callJson<{ bets: StaffBet[] }>(
      casino.apiUrl,
      'GET',
      `/api/v1/admin/bets?player=${encodeURIComponent(account.playerId)}&limit=100`,
      { token: casino.operatorToken },
    );
    for (const bet of bets) {
      if (!OPEN_BETS.has(bet.status)) continue;
      for (const leg of bet.legs) {
        if (leg.result !== null) continue;
        const entry = waiting.get(leg.marketId) ?? { eventId: leg.eventId, bets: 0, stake: 0, latest: '' };
        entry.bets += 1;
        entry.stake += bet.stake;
        if (bet.placedAt > entry.latest) entry.latest = bet.placedAt;
        waiting.set(leg.marketId, entry);
      }
    }
  }
  const newest = [...waiting.entries()].sort((a, b) => b[1].latest.localeCompare(a[1].latest)).slice(0, TRADER_MARKETS);
  const events = new Map<string, CatalogEvent | null>();
  const markets: TraderMarket[] = [];
  for (const [marketId, entry] of newest) {
    if (!events.has(entry.eventId)) {
      const event = await callJson<{ event: CatalogEvent }>(
        casino.apiUrl,
        'GET',
        `/api/v1/catalog/events/${encodeURIComponent(entry.eventId)}`,
      ).then(
        (answer) => answer.event,
        () => null,
      );
      events.set(entry.eventId, event);
    }
    const event = events.get(entry.eventId);
    const market = event?.markets.find((candidate) => candidate.id === marketId);
    if (!event || !market || market.status === 'settled') continue;
    markets.push({
      eventId: event.id,
      eventName: `${event.home} v ${event.away}`,
      home: event.home,
      away: event.away,
      competition: event.competition.name,
      eventStatus: event.status,
      score: event.score,
      marketId,
      marketName: market.name,
      marketType: market.type,
      marketStatus: market.status,
      bets: entry.bets,
      stake: entry.stake,
      selections: market.selections.map(({ id, name, outcome, odds }) => ({ id, name, outcome, odds })),
    });
  }
  return markets;
}

/** The casino's own player id for a name: stable and opaque (never an e-mail), as the integration API asks. */
function externalIdOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40);
  return `casino-${slug || Buffer.from(name).toString('hex').slice(0, 40)}`;
}

function hasControlCharacter(text: string): boolean {
  return [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/** The casino page loads its own script and style, and the SDK from the sportsbook, which is the only frame. */
function pagePolicy(sportsbookUrl: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${sportsbookUrl}`,
    `frame-src ${sportsbookUrl}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
