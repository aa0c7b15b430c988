import type { ApiQuery, ApiRequest, ApiResponse } from '../../ui-shared/api-shapes.ts';

/** An API refusal ({ error: { code, message, details } }), or `network` when no answer came. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown>;
  constructor(status: number, code: string, message: string, details: Record<string, unknown> = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/**
 * A read that callers at the same moment share: one request, however many ask while it is on its way (start-up, the
 * page and the menu each want the sports list as the app opens). The next call after it ends reads again.
 */
export function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= read().finally(() => {
      pending = undefined;
    }));
}

interface AuthHooks {
  token(): string | null;
  /** A player call was answered 401 with this token: the session has ended. */
  unauthorized(token: string): void;
}

let auth: AuthHooks = { token: () => null, unauthorized: () => {} };
export function setAuthHooks(hooks: AuthHooks): void {
  auth = hooks;
}

interface CallOptions {
  body?: unknown;
  /** send the session token; a 401 then ends the session */
  player?: boolean;
  /** use this token instead of the current one (and do not end the session on 401) */
  token?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** made by the app on its own (a poll), not for something the player did: not session activity */
  background?: boolean;
}

declare global {
  interface Window {
    /** Reads web/index.html started before this script loaded, by URL; each is taken once. */
    earlyReads?: Map<string, Promise<Response>>;
  }
}

/** The answer index.html already asked for, for an anonymous GET of the same URL; taken once. */
function earlyRead(method: string, path: string, token: string | null | undefined): Promise<Response> | undefined {
  if (method !== 'GET' || token) return undefined;
  const read = window.earlyReads?.get(path);
  window.earlyReads?.delete(path);
  return read;
}

/**
 * The catalog's reads are revalidated: the browser keeps them and asks with If-None-Match, and the service answers
 * 304 while nothing changed (docs/api-conventions.md). Everything else is the player's and never kept.
 */
function cacheMode(path: string): RequestCache {
  return path.startsWith('/api/v1/catalog/') ? 'no-cache' : 'no-store';
}

async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  if (options.background) headers['x-player-activity'] = 'background';
  const token = options.token ?? (options.player ? auth.token() : null);
  if (options.player && !token) throw new ApiError(401, 'unauthorized', 'Not logged in.');
  if (token) headers.authorization = `Bearer ${token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  let response: Response;
  try {
    response = await (earlyRead(method, path, token) ??
      fetch(path, { method, headers, body, cache: cacheMode(path), signal: options.signal }));
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiError(0, 'network', 'The sportsbook could not be reached.');
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (response.ok) return parsed as T;
  const error = (parsed as { error?: { code?: string; message?: string; details?: Record<string, unknown> } })?.error;
  const failure = new ApiError(
    response.status,
    error?.code ?? `http_${response.status}`,
    error?.message ?? response.statusText,
    error?.details ?? {},
  );
  if (response.status === 401 && options.player && token && options.token === undefined) auth.unauthorized(token);
  throw failure;
}

const enc = encodeURIComponent;

export const api = {
  config: (tenant: string) => call<ApiResponse<'getPublicConfig'>>('GET', `/api/v1/config?tenant=${enc(tenant)}`),
  launch: (tenant: string, launchToken: string) =>
    call<ApiResponse<'exchangeLaunchToken'>>('POST', '/api/v1/integration/launch', {
      body: { launchToken } satisfies ApiRequest<'exchangeLaunchToken'>,
      headers: { 'x-tenant-id': tenant },
    }),
  /** Checks a session token (the deprecated `?token=`, or one kept in sessionStorage). */
  session: (token: string) => call<ApiResponse<'getPlayerSession'>>('GET', '/api/v1/session', { token }),
  logout: (token: string) => call<unknown>('POST', '/api/v1/session/logout', { token, body: {} }),

  sports: (signal?: AbortSignal) => call<ApiResponse<'listSports'>>('GET', '/api/v1/catalog/sports', { signal }),
  live: (sportId?: string, signal?: AbortSignal) =>
    call<ApiResponse<'listLiveEvents'>>('GET', `/api/v1/catalog/live${sportId ? `?sport=${enc(sportId)}` : ''}`, {
      signal,
    }),
  sport: (id: string, signal?: AbortSignal) =>
    call<ApiResponse<'getSport'>>('GET', `/api/v1/catalog/sports/${enc(id)}`, { signal }),
  competition: (id: string, signal?: AbortSignal) =>
    call<ApiResponse<'getCompetition'>>('GET', `/api/v1/catalog/competitions/${enc(id)}`, { signal }),
  event: (id: string, signal?: AbortSignal) =>
    call<ApiResponse<'getEvent'>>('GET', `/api/v1/catalog/events/${enc(id)}`, { signal }),
  search: (query: string, signal?: AbortSignal) =>
    call<ApiResponse<'searchCatalog'>>('GET', `/api/v1/catalog/search?q=${enc(query)}`, { signal }),
  favourites: (signal?: AbortSignal) =>
    call<ApiResponse<'listFavourites'>>('GET', '/api/v1/favourites', { player: true, signal, background: true }),
  addFavourite: (kind: 'events' | 'competitions', id: string) =>
    call<unknown>('PUT', `/api/v1/favourites/${kind}/${enc(id)}`, { player: true }),
  settings: () => call<ApiResponse<'getPlayerSettings'>>('GET', '/api/v1/settings', { player: true, background: true }),
  saveSettings: (body: ApiRequest<'updatePlayerSettings'>) =>
    call<ApiResponse<'updatePlayerSettings'>>('PATCH', '/api/v1/settings', { player: true, body }),
  removeFavourite: (kind: 'events' | 'competitions', id: string) =>
    call<unknown>('DELETE', `/api/v1/favourites/${kind}/${enc(id)}`, { player: true }),

  balance: () => call<ApiResponse<'getBalance'>>('GET', '/api/v1/wallet/balance', { player: true }),
  /** 201 with the balance after the stake, or 200 (the bet of an earlier request with this requestId) without. */
  placeBet: (body: ApiRequest<'placeBet'>) =>
    call<ApiResponse<'placeBet'>>('POST', '/api/v1/bets', { player: true, body }),
  bets: (
    status: NonNullable<ApiQuery<'listMyBets'>['status']>,
    options: { cursor?: string; limit?: number; background?: boolean } = {},
  ) =>
    call<ApiResponse<'listMyBets'>>(
      'GET',
      `/api/v1/bets?status=${status}&limit=${options.limit ?? 20}${options.cursor ? `&cursor=${enc(options.cursor)}` : ''}`,
      { player: true, background: options.background },
    ),
  bet: (id: string, background = false) =>
    call<ApiResponse<'getMyBet'>>('GET', `/api/v1/bets/${enc(id)}`, { player: true, background }),
  cashOutOffer: (id: string, stake?: number, background = false) =>
    call<ApiResponse<'getCashOutOffer'>>('GET', `/api/v1/bets/${enc(id)}/cashout${stake ? `?stake=${stake}` : ''}`, {
      player: true,
      background,
    }),
  cashOut: (id: string, body: ApiRequest<'cashOut'>) =>
    call<ApiResponse<'cashOut'>>('POST', `/api/v1/bets/${enc(id)}/cashout`, { player: true, body }),
};

/** A request id for the API's idempotent POSTs (`[A-Za-z0-9_.:-]{8,64}`); works outside secure contexts too. */
export function newRequestId(prefix: string): string {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return `${prefix}-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
