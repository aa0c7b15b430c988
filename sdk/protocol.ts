/**
 * Bookmaker browser message protocol, version 1: the one source of truth for the messages the sportsbook iframe and
 * its host page exchange with postMessage. The SDK (`/embed/v1.js`) and the iframe app both import this file, and it
 * ships with the SDK's ES module package, so a host written in TypeScript gets the same types.
 *
 * Compatible additions (a new optional payload field, a new event type) stay in version 1; a breaking change is a
 * new version with a new SDK URL. A receiver ignores any message whose `v` is not 1.
 */

export const PROTOCOL_VERSION = 1;
/** `source` of every message the sportsbook iframe posts. */
export const SPORTSBOOK_SOURCE = 'bookmaker-sportsbook';
/** `source` of every command the host page posts. */
export const HOST_SOURCE = 'bookmaker-host';

export const LOCALES = ['en', 'pt-BR', 'es'] as const;
export type Locale = (typeof LOCALES)[number];
export const HEIGHT_MODES = ['fill', 'auto'] as const;
export type HeightMode = (typeof HEIGHT_MODES)[number];
/** How odds are written: decimal (2.15), fractional (23/20) or American (+115). */
export const ODDS_FORMATS = ['decimal', 'fractional', 'american'] as const;
export type OddsFormat = (typeof ODDS_FORMATS)[number];

export const THEME_MODES = ['light', 'dark'] as const;
export type ThemeMode = (typeof THEME_MODES)[number];
/**
 * The font stacks a host may choose: fonts installed on the player's device (the sportsbook loads no web font), each
 * with fallbacks down to the generic family. The stacks themselves are the app's (web/src/theme/theme.ts).
 */
export const THEME_FONTS = ['system', 'humanist', 'geometric', 'grotesque', 'rounded', 'serif'] as const;
export type ThemeFont = (typeof THEME_FONTS)[number];
/** The largest `radius` (px). */
export const THEME_RADIUS_MAX = 24;

/**
 * A host's theme: design tokens the sportsbook derives the rest of its palette from (text on the primary colour,
 * hover shades, the header, and in dark mode the surfaces and borders), keeping WCAG AA contrast. A colour is
 * `#rgb`, `#rrggbb` or `rgb(r, g, b)` (0-255 each, no alpha). A value the sportsbook refuses is not used: it keeps its
 * own for that token and reports an `error` event (`invalid_theme`) naming the field.
 */
export interface Theme {
  /** Primary actions, selected odds, links and payouts; the header and navigation are a deep shade of it. */
  primary?: string;
  /** The highlights: Deposit, the brand mark, counts, the current section. */
  accent?: string;
  /** The page behind the cards. In dark mode the cards, lines and tracks are derived from it. */
  background?: string;
  /** Corner radius of cards and buttons in px, 0-24; the smaller and larger radii scale with it. */
  radius?: number;
  fontFamily?: ThemeFont;
  /** Default `light`. */
  mode?: ThemeMode;
}
export const THEME_KEYS = [
  'primary',
  'accent',
  'background',
  'radius',
  'fontFamily',
  'mode',
] as const satisfies ReadonlyArray<keyof Theme>;

/** Why the sportsbook asks the host to log the player in. */
export const LOGIN_REASONS = [
  /** the player pressed the log-in control in the sportsbook header */
  'login_button',
  /** the player tried to place a bet */
  'place_bet',
  /** the player opened My Bets (a deep link or the navigation) */
  'my_bets',
] as const;
export type LoginReason = (typeof LOGIN_REASONS)[number];

/** Why a session ended. */
export const SESSION_END_REASONS = [
  /** the launch token could not be exchanged at start-up (an `error` event with its code came first) */
  'launch_failed',
  /** the API refused the session token: idle timeout, 12 h expiry, ended by the casino or the platform */
  'expired',
  /** the host sent `logout`, or the player logged out */
  'logout',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** What a bet settled as, from the player's side. */
export type SettledStatus = 'won' | 'lost' | 'void' | 'cashed_out';

/** Events: iframe to host. Each key is a `type`, each value its `payload`. */
export interface SportsbookEvents {
  /** The iframe has started and accepts commands; commands sent before it were queued and are now delivered. */
  ready: { locale: Locale; height: HeightMode; path: string; loggedIn: boolean; currency: string };
  /** The content height changed (px); the SDK sizes the iframe with it in `auto` mode. */
  resize: { height: number };
  /** Every navigation, including the first page. */
  route: { path: string; title: string };
  login_required: { reason: LoginReason };
  /** The session ended; the sportsbook is anonymous now and shows no dialog. */
  session_expired: { reason: SessionEndReason };
  /** The wallet balance, in minor units of the tenant currency. */
  balance_changed: { balance: number; currency: string };
  bet_placed: {
    betId: string;
    /** minor units */
    stake: number;
    currency: string;
    /** minor units; what the bet pays if it wins */
    potentialPayout: number;
    legs: number;
  };
  bet_settled: {
    betId: string;
    status: SettledStatus;
    /** minor units credited to the player for this bet so far (0 for a lost bet) */
    payout: number;
    currency: string;
  };
  deposit_requested: { currency: string };
  /**
   * A failure. `code` is an API error code (e.g. `launch_token_used`, `launch_token_expired`) or one of the
   * sportsbook's own: `invalid_path` (a `path` the sportsbook does not know), `invalid_command` (a command it could
   * not read), `invalid_theme` (a theme value it refused: `field` names it, e.g. `theme.primary`), `invalid_option`
   * (another mount option it refused: `field` is `oddsFormat` or `header`).
   */
  error: { code: string; message: string; field?: string };
}
export type SportsbookEventType = keyof SportsbookEvents;
export const EVENT_TYPES = [
  'ready',
  'resize',
  'route',
  'login_required',
  'session_expired',
  'balance_changed',
  'bet_placed',
  'bet_settled',
  'deposit_requested',
  'error',
] as const satisfies readonly SportsbookEventType[];

/** Commands: host to iframe. Each key is a `type`, each value its `payload`. */
export interface HostCommands {
  /** Log the player in (or switch player) with a fresh single-use launch token. */
  set_launch_token: { launchToken: string };
  /** Go to a deep-link path; an unknown path is ignored and answered with an `invalid_path` error. */
  navigate: { path: string };
  set_locale: { locale: Locale };
  /** Read the wallet balance again; answered with `balance_changed`. */
  refresh_balance: Record<string, never>;
  /** End the session in the iframe; answered with `session_expired` (reason `logout`). */
  logout: Record<string, never>;
}
export type HostCommandType = keyof HostCommands;
export const COMMAND_TYPES = [
  'set_launch_token',
  'navigate',
  'set_locale',
  'refresh_balance',
  'logout',
] as const satisfies readonly HostCommandType[];

export interface Envelope<S extends string, T extends string, P> {
  source: S;
  v: typeof PROTOCOL_VERSION;
  type: T;
  payload: P;
}
export type SportsbookMessage = {
  [T in SportsbookEventType]: Envelope<typeof SPORTSBOOK_SOURCE, T, SportsbookEvents[T]>;
}[SportsbookEventType];
export type HostMessage = {
  [T in HostCommandType]: Envelope<typeof HOST_SOURCE, T, HostCommands[T]>;
}[HostCommandType];

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message from the sportsbook iframe, version 1, with a known event type (the payload is the sender's). */
export function isSportsbookMessage(data: unknown): data is SportsbookMessage {
  return (
    isRecord(data) &&
    data.source === SPORTSBOOK_SOURCE &&
    data.v === PROTOCOL_VERSION &&
    (EVENT_TYPES as readonly unknown[]).includes(data.type) &&
    isRecord(data.payload)
  );
}

/** A well-formed host command, version 1: known type, and the payload its type needs. */
export function isHostMessage(data: unknown): data is HostMessage {
  if (!isRecord(data) || data.source !== HOST_SOURCE || data.v !== PROTOCOL_VERSION) return false;
  if (!(COMMAND_TYPES as readonly unknown[]).includes(data.type) || !isRecord(data.payload)) return false;
  const payload = data.payload;
  switch (data.type as HostCommandType) {
    case 'set_launch_token':
      return typeof payload.launchToken === 'string' && payload.launchToken.length > 0;
    case 'navigate':
      return typeof payload.path === 'string';
    case 'set_locale':
      return isLocale(payload.locale);
    default:
      return true;
  }
}

export function isLocale(value: unknown): value is Locale {
  return (LOCALES as readonly unknown[]).includes(value);
}

export function envelope<T extends SportsbookEventType>(type: T, payload: SportsbookEvents[T]): SportsbookMessage {
  return { source: SPORTSBOOK_SOURCE, v: PROTOCOL_VERSION, type, payload } as SportsbookMessage;
}

export function command<T extends HostCommandType>(type: T, payload: HostCommands[T]): HostMessage {
  return { source: HOST_SOURCE, v: PROTOCOL_VERSION, type, payload } as HostMessage;
}

/** The pages a deep link can open. */
export type Route =
  | { page: 'home' }
  | { page: 'live'; sportId?: string }
  | { page: 'sport'; sportId: string }
  | { page: 'competition'; competitionId: string }
  | { page: 'event'; eventId: string }
  | { page: 'my-bets' };

// An id in a path: 1-64 of A-Z a-z 0-9 _ . : - (`\w` is [A-Za-z0-9_]). Regular expression literals, so that a bundle
// that does not use parsePath (the SDK) leaves this table out.
const ROUTES: Array<[RegExp, (id: string) => Route]> = [
  [/^\/$/, () => ({ page: 'home' })],
  [/^\/live$/, () => ({ page: 'live' })],
  [/^\/live\/([\w.:-]{1,64})$/, (sportId) => ({ page: 'live', sportId })],
  [/^\/sport\/([\w.:-]{1,64})$/, (sportId) => ({ page: 'sport', sportId })],
  [/^\/competition\/([\w.:-]{1,64})$/, (competitionId) => ({ page: 'competition', competitionId })],
  [/^\/event\/([\w.:-]{1,64})$/, (eventId) => ({ page: 'event', eventId })],
  [/^\/my-bets$/, () => ({ page: 'my-bets' })],
];

/** The route of a deep-link path (`/`, `/live`, `/live/{sportId}`, `/sport/{id}`, ...), or null if it is not one. */
export function parsePath(path: string): Route | null {
  for (const [pattern, route] of ROUTES) {
    const match = pattern.exec(path);
    if (match) return route(match[1] ?? '');
  }
  return null;
}

/** The deep-link path of a route: the inverse of parsePath. */
export function pathOf(route: Route): string {
  switch (route.page) {
    case 'home':
      return '/';
    case 'live':
      return route.sportId ? `/live/${route.sportId}` : '/live';
    case 'sport':
      return `/sport/${route.sportId}`;
    case 'competition':
      return `/competition/${route.competitionId}`;
    case 'event':
      return `/event/${route.eventId}`;
    case 'my-bets':
      return '/my-bets';
  }
}
