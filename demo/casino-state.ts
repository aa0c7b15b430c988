import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { callJson } from './http.ts';
import type { DemoWallet } from './wallet.ts';

export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];

/** What the casino needs once the client is provisioned and active. */
export interface CasinoSetup {
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

export interface Account {
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

/** A refusal of the casino's own API, answered as `{ error: { code, message } }` with its status. */
export class CasinoError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

export const COOKIE = 'casino_session';

/**
 * What the casino server knows, in memory: its setup once the demo configured it, its players' accounts (by
 * external id), its visitors (by cookie), and how it opens a sportsbook session for one of them.
 */
export class CasinoState {
  #setup: CasinoSetup | undefined;
  readonly accounts = new Map<string, Account>();
  readonly #visitors = new Map<string, Visitor>();

  configure(setup: CasinoSetup): void {
    this.#setup = setup;
  }

  /** The setup, or undefined while the demo is still starting (the page then says so). */
  get setup(): CasinoSetup | undefined {
    return this.#setup;
  }

  /** The setup; a call before configure() is answered 503 starting. */
  ready(): CasinoSetup {
    if (!this.#setup) throw new CasinoError(503, 'starting', 'The demo is still starting: try again in a few seconds.');
    return this.#setup;
  }

  visitorOf(request: FastifyRequest): { id: string; visitor: Visitor } | null {
    const id = readCookie(request.headers.cookie, COOKIE);
    const visitor = id ? this.#visitors.get(id) : undefined;
    return id && visitor ? { id, visitor } : null;
  }

  /**
   * The visitor of this browser, created with a cookie when it has none, in the browser's language when the casino
   * speaks it (Accept-Language), as a casino's own site would greet a new visitor.
   */
  ensureVisitor(request: FastifyRequest, reply: FastifyReply): Visitor {
    const known = this.visitorOf(request);
    if (known) return known.visitor;
    const id = randomBytes(18).toString('base64url');
    const visitor: Visitor = {
      externalId: null,
      locale: browserLocale(request.headers['accept-language']),
      sessionToken: null,
    };
    this.#visitors.set(id, visitor);
    reply.header('set-cookie', `${COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax`);
    return visitor;
  }

  forgetVisitor(id: string): void {
    this.#visitors.delete(id);
  }

  /** The account a visitor is logged in to, if any. */
  accountOf(visitor: Visitor | undefined): Account | undefined {
    return visitor?.externalId ? this.accounts.get(visitor.externalId) : undefined;
  }

  localeOf(visitor: Visitor): Locale {
    return visitor.locale ?? this.ready().locale;
  }

  /**
   * POST /api/v1/integration/sessions, server to server: a new session and its single-use launch token for the
   * browser. The session's own token stays here.
   */
  async openSession(account: Account, visitor: Visitor): Promise<string> {
    const casino = this.ready();
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
  }

  async balanceOf(account: Account): Promise<number | null> {
    return (await this.ready().wallet.player(account.externalId))?.balance ?? null;
  }
}

function readCookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return undefined;
}

/**
 * The first of the browser's languages (Accept-Language, by its order and weights) the casino speaks: exactly
 * ("pt-BR") or by its language alone ("pt" and "pt-PT" are pt-BR, "es-AR" is es); null when none is.
 */
export function browserLocale(header: string | undefined): Locale | null {
  const wanted = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/.exec(param)?.[1]).find((value) => value !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q) };
    })
    .filter(({ tag, q }) => tag && tag !== '*' && q > 0)
    .sort((a, b) => b.q - a.q);
  for (const { tag } of wanted) {
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const language = LOCALES.find((locale) => locale.split('-')[0]!.toLowerCase() === tag.split('-')[0]);
    if (language) return language;
  }
  return null;
}
