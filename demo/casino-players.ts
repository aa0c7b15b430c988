import type { FastifyInstance } from 'fastify';
import { callJson } from './http.ts';
import { browserLocale, CasinoError, COOKIE, LOCALES, type CasinoState, type Locale } from './casino-state.ts';
import { fill, MESSAGES } from './messages.ts';
import { casinoPage, startingPage, type PageConfig } from './page.ts';

/**
 * The casino's page and its players' own log-in: any name, a cookie session, a welcome balance in the wallet for a
 * new name, and a single-use launch token for the sportsbook whenever the page needs one.
 */
export function playerRoutes(app: FastifyInstance, state: CasinoState): void {
  app.get('/', async (request, reply) => {
    reply.header('content-type', 'text/html; charset=utf-8');
    const casino = state.setup;
    if (!casino) {
      const locale = browserLocale(request.headers['accept-language']) ?? 'en';
      return reply.code(503).header('retry-after', '2').send(startingPage(locale));
    }
    const visitor = state.ensureVisitor(request, reply);
    const account = state.accountOf(visitor);
    const locale = state.localeOf(visitor);
    let launchToken: string | null = null;
    let notice: string | null = null;
    if (account) {
      try {
        launchToken = await state.openSession(account, visitor);
      } catch (error) {
        notice = fill(MESSAGES[locale].sessionFailed, { error: (error as Error).message });
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
      messages: MESSAGES,
      launchToken,
      player: account ? { name: account.name } : null,
      balance: account ? await state.balanceOf(account).catch(() => null) : null,
      notice,
    };
    reply.header('content-security-policy', pagePolicy(casino.sportsbookUrl));
    reply.header('referrer-policy', 'strict-origin-when-cross-origin');
    return casinoPage(config);
  });

  /** The casino's own log-in: any name; a new name is a new account with a welcome balance in the wallet. */
  app.post<{ Body: { name?: unknown } }>('/login', async (request, reply) => {
    const casino = state.ready();
    const name = typeof request.body?.name === 'string' ? request.body.name.trim().replace(/\s+/g, ' ') : '';
    if (name.length < 1 || name.length > 32 || hasControlCharacter(name)) {
      throw new CasinoError(400, 'invalid_name', 'Type a name of 1 to 32 characters.');
    }
    const externalId = externalIdOf(name);
    let account = state.accounts.get(externalId);
    if (!account) {
      account = { name, externalId };
      state.accounts.set(externalId, account);
    }
    account.name = name;
    if (!(await casino.wallet.player(externalId))) {
      await casino.wallet.setPlayer(externalId, casino.welcomeBalance, casino.currency);
    }
    const visitor = state.ensureVisitor(request, reply);
    visitor.externalId = externalId;
    const launchToken = await state.openSession(account, visitor);
    return { player: { name: account.name }, balance: await state.balanceOf(account), launchToken };
  });

  app.post('/logout', async (request, reply) => {
    const known = state.visitorOf(request);
    if (known) state.forgetVisitor(known.id);
    // The sportsbook session ends through the SDK (handle.logout()); the server's token is simply forgotten.
    return reply.header('set-cookie', `${COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`).code(204).send();
  });

  /** For onSessionExpired and login_required: a fresh launch token while the casino session lasts, else null. */
  app.post('/launch-token', async (request) => {
    const visitor = state.visitorOf(request)?.visitor;
    const account = state.accountOf(visitor);
    if (!visitor || !account) return { launchToken: null };
    return { launchToken: await state.openSession(account, visitor) };
  });

  /**
   * Development only: ends the visitor's sportsbook session from the casino server (POST /api/v1/session/logout
   * with the server's token), so the page can show the SDK recovering through onSessionExpired.
   */
  app.post('/dev/end-session', async (request, reply) => {
    const casino = state.ready();
    const visitor = state.visitorOf(request)?.visitor;
    if (!visitor?.sessionToken) throw new CasinoError(409, 'no_session', 'No sportsbook session to end: log in first.');
    await callJson(casino.apiUrl, 'POST', '/api/v1/session/logout', { token: visitor.sessionToken });
    visitor.sessionToken = null;
    return reply.code(204).send();
  });

  app.post<{ Body: { locale?: unknown } }>('/locale', async (request, reply) => {
    const locale = request.body?.locale;
    if (!LOCALES.includes(locale as Locale)) throw new CasinoError(400, 'invalid_locale', 'Unknown locale.');
    state.ensureVisitor(request, reply).locale = locale as Locale;
    return reply.code(204).send();
  });
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
