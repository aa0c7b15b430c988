/**
 * Bookmaker SDK: mounts the sportsbook iframe in a host page and speaks browser message protocol v1 with it.
 * Zero dependencies; served as `/embed/v1.js` (global object `Bookmaker`) and published as `@bookmaker/sdk`.
 *
 * Security: a message is accepted only when it comes from this SDK's iframe window, from the sportsbook origin (the
 * origin of `url`) and is a protocol v1 envelope; commands are posted only to the sportsbook origin, never `*`.
 */
import {
  command,
  HEIGHT_MODES,
  isLocale,
  isSportsbookMessage,
  THEME_KEYS,
  type HeightMode,
  type HostCommands,
  type HostCommandType,
  type HostMessage,
  type Locale,
  type OddsFormat,
  type SportsbookEvents,
  type SportsbookEventType,
  type Theme,
} from './protocol.ts';

export type * from './protocol.ts';

/** A callback for one event, called with its payload. A returned promise that rejects is reported like a throw. */
export type EventCallback<T extends SportsbookEventType> = (payload: SportsbookEvents[T]) => unknown;

/** The arguments `onEvent` is called with: narrow `payload` by testing `type`. */
export type AnyEvent = { [T in SportsbookEventType]: [type: T, payload: SportsbookEvents[T]] }[SportsbookEventType];

export interface MountOptions {
  /** Sportsbook base URL (e.g. `https://sportsbook.example.com`); the SDK talks only to its origin. Required. */
  url: string;
  /** Tenant id. Required. */
  tenant: string;
  /** Single-use launch token from `POST /api/v1/integration/sessions`; omit for anonymous browsing. */
  launchToken?: string;
  /** First route, a deep-link path such as `/live` or `/event/{eventId}`. */
  path?: string;
  /** Default: the tenant's locale. */
  locale?: Locale;
  /** `fill` (default) fills the container, which needs a height; `auto` grows the iframe to its content. */
  height?: HeightMode;
  /** `auto` mode: the iframe height (px) until the first `resize` event. Default 600. */
  minHeight?: number;
  /**
   * `auto` mode: on every navigation (`route` event) whose iframe top is above the viewport (or under a sticky header
   * this many px tall), the page scrolls back to the iframe top minus this offset. Default 0; `false` disables.
   */
  scrollOffset?: number | false;
  /** The iframe's accessible name. Default `Sportsbook`. */
  title?: string;
  /**
   * Colours, radius, font and light or dark mode (docs/embedding.md, "Theming"). The sportsbook checks each value and
   * reports one it refuses with an `error` event (`invalid_theme`), keeping its own for that token.
   */
  theme?: Theme;
  /**
   * `false` hides the sportsbook's header (its name, the balance, Deposit) when your page shows the balance itself;
   * the navigation and, for an anonymous visitor, a Log in control stay. Default `true`.
   */
  header?: boolean;
  /** Odds as `decimal`, `fractional` or `american`; default: the locale's. A value it refuses is an `error` event. */
  oddsFormat?: OddsFormat;
  onReady?: EventCallback<'ready'>;
  onResize?: EventCallback<'resize'>;
  onRouteChange?: EventCallback<'route'>;
  onLoginRequired?: EventCallback<'login_required'>;
  onBalanceChanged?: EventCallback<'balance_changed'>;
  onBetPlaced?: EventCallback<'bet_placed'>;
  onBetSettled?: EventCallback<'bet_settled'>;
  onDepositRequested?: EventCallback<'deposit_requested'>;
  onError?: EventCallback<'error'>;
  /**
   * The session ended. Return a fresh launch token (or a promise of one) and the SDK sends it as `set_launch_token`;
   * return null (or nothing) to leave the player logged out. One call at a time: a `session_expired` arriving while a
   * returned promise is pending does not call this again.
   */
  onSessionExpired?: (
    payload: SportsbookEvents['session_expired'],
  ) => string | null | undefined | void | PromiseLike<string | null | undefined | void>;
  /** Every event, after its specific callback and the `on()` handlers. */
  onEvent?: (...event: AnyEvent) => unknown;
}

export interface SportsbookHandle {
  /** The iframe the SDK created. */
  readonly iframe: HTMLIFrameElement;
  /** The sportsbook origin: the only origin messages are accepted from and commands are posted to. */
  readonly origin: string;
  /** The `ready` payload; rejected if `destroy()` comes first. */
  readonly ready: Promise<SportsbookEvents['ready']>;
  setLaunchToken(launchToken: string): void;
  navigate(path: string): void;
  setLocale(locale: Locale): void;
  /** Answered with a `balance_changed` event. */
  refreshBalance(): void;
  logout(): void;
  /** Calls `handler` for every event of `type`, after the specific callback; returns the unsubscribe function. */
  on<T extends SportsbookEventType>(type: T, handler: EventCallback<T>): () => void;
  /** Removes the iframe and every listener; later calls of any member do nothing. */
  destroy(): void;
}

const CALLBACKS = {
  ready: 'onReady',
  resize: 'onResize',
  route: 'onRouteChange',
  login_required: 'onLoginRequired',
  session_expired: 'onSessionExpired',
  balance_changed: 'onBalanceChanged',
  bet_placed: 'onBetPlaced',
  bet_settled: 'onBetSettled',
  deposit_requested: 'onDepositRequested',
  error: 'onError',
} as const satisfies Record<SportsbookEventType, keyof MountOptions>;

type Callable = (...args: never[]) => unknown;

function check(ok: unknown, name: string, rule: string): void {
  if (!ok) throw new Error(`Bookmaker: ${name} ${rule}`);
}

const isString = (value: unknown): value is string => typeof value === 'string';
/** An optional option left out: undefined, or null. */
const isNil = (value: unknown): value is null | undefined => value === undefined || value === null;

/** Mounts the sportsbook in `selector` (a CSS selector or an element) and returns its handle. */
export function mount(selector: string | HTMLElement, options: MountOptions): SportsbookHandle {
  check(options && typeof options === 'object', 'options', 'are required');
  const {
    url,
    tenant,
    launchToken,
    path,
    locale,
    height = 'fill',
    minHeight = 600,
    scrollOffset = 0,
    title = 'Sportsbook',
    theme,
    header,
    oddsFormat,
  } = options;
  let base: URL | undefined;
  try {
    base = new URL(url);
  } catch {
    // reported below
  }
  check(base && /^https?:$/.test(base.protocol), 'option url', 'must be an absolute http(s) URL');
  check(isString(tenant) && tenant, 'option tenant', 'must be a non-empty string');
  check(isNil(launchToken) || isString(launchToken), 'option launchToken', 'must be a string');
  check(isNil(path) || isString(path), 'option path', 'must be a string');
  check(isNil(locale) || isLocale(locale), 'option locale', "must be 'en', 'pt-BR' or 'es'");
  check(HEIGHT_MODES.includes(height), 'option height', "must be 'fill' or 'auto'");
  check(typeof minHeight === 'number' && minHeight >= 0, 'option minHeight', 'must be a number of px');
  check(scrollOffset === false || typeof scrollOffset === 'number', 'option scrollOffset', 'must be a number or false');
  check(isString(title), 'option title', 'must be a string');
  check(isNil(theme) || typeof theme === 'object', 'option theme', 'must be an object');
  check(isNil(header) || header === !!header, 'option header', 'must be true or false');
  const container = isString(selector) ? document.querySelector(selector) : selector;
  check(
    container instanceof Element,
    'mount',
    `found no element for ${isString(selector) ? selector : 'a non-element'}`,
  );

  const { origin, pathname } = base!;
  const auto = height === 'auto';
  const query: Record<string, string | number | null | undefined> = {
    tenant,
    launch: launchToken,
    path,
    locale,
    height,
    origin: location.origin,
    header: header === false ? 'false' : null,
    oddsFormat,
  };
  // Each theme value travels as it was given: the sportsbook checks it, so that a hand-made address gets the same rules.
  for (const key in theme) {
    check(THEME_KEYS.includes(key as never), `option theme.${key}`, 'is not a theme token');
    query[`theme.${key}`] = theme[key as keyof Theme];
  }
  const iframe = document.createElement('iframe');
  iframe.title = title;
  iframe.style.cssText = `display:block;border:0;width:100%;height:${auto ? `${minHeight}px` : '100%'}`;
  iframe.src = `${origin}${pathname.replace(/\/*$/, '/')}?${Object.keys(query)
    .filter((key) => !isNil(query[key]))
    .map((key) => `${key}=${encodeURIComponent(query[key]!)}`)
    .join('&')}`;

  let isReady = false;
  let destroyed = false;
  let sessionPending = false;
  let queue: HostMessage[] = [];
  let handlers: Array<[SportsbookEventType, Callable]> = [];
  let resolveReady!: (payload: SportsbookEvents['ready']) => void;
  let rejectReady!: (error: Error) => void;
  const ready = new Promise<SportsbookEvents['ready']>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A host that never awaits `ready` gets no unhandled rejection when it destroys the handle before ready.
  ready.catch(() => undefined);

  const report = (type: string) => (error: unknown) => console.error(`Bookmaker: a ${type} callback failed`, error);
  const call = (type: string, callback: Callable | undefined, ...args: unknown[]): unknown => {
    if (callback && !destroyed) {
      try {
        return (callback as (...args: unknown[]) => unknown)(...args);
      } catch (error) {
        report(type)(error);
      }
    }
  };
  const settle = (type: string, result: unknown): void => {
    Promise.resolve(result).then(undefined, report(type));
  };
  const post = (message: HostMessage): void => iframe.contentWindow?.postMessage(message, origin);
  const send = <T extends HostCommandType>(type: T, payload: HostCommands[T]): void => {
    if (destroyed) return;
    const message = command(type, payload);
    if (isReady) post(message);
    else queue.push(message);
  };

  const onMessage = (event: MessageEvent): void => {
    const data: unknown = event.data;
    if (event.source !== iframe.contentWindow || event.origin !== origin || !isSportsbookMessage(data)) return;
    const { type, payload } = data;
    if (data.type === 'ready') {
      isReady = true;
      queue.forEach(post);
      queue = [];
      resolveReady(data.payload);
    }
    if (data.type === 'resize' && auto && data.payload.height >= 0) iframe.style.height = `${data.payload.height}px`;
    if (data.type === 'route' && auto && scrollOffset !== false) {
      const top = iframe.getBoundingClientRect().top;
      if (top < scrollOffset) scrollTo(scrollX, scrollY + top - scrollOffset);
    }
    const callback = options[CALLBACKS[type]] as Callable | undefined;
    if (type !== 'session_expired') settle(type, call(type, callback, payload));
    else if (callback && !sessionPending) {
      sessionPending = true;
      void Promise.resolve(call(type, callback, payload))
        .then((token) => {
          if (isString(token) && token) handle.setLaunchToken(token);
          else check(isNil(token), 'onSessionExpired', 'must return a launch token, null, or a promise of either');
        })
        .then(undefined, report(type))
        .then(() => (sessionPending = false));
    }
    for (const [handlerType, handler] of handlers.slice()) {
      if (handlerType === type) settle(type, call(type, handler, payload));
    }
    settle(type, call(type, options.onEvent, type, payload));
  };
  addEventListener('message', onMessage);
  container!.appendChild(iframe);

  const handle: SportsbookHandle = {
    iframe,
    origin,
    ready,
    setLaunchToken(launchToken) {
      check(isString(launchToken) && launchToken, 'setLaunchToken', 'needs a non-empty launch token');
      send('set_launch_token', { launchToken });
    },
    navigate(path) {
      check(isString(path), 'navigate', 'needs a path');
      send('navigate', { path });
    },
    setLocale(locale) {
      check(isLocale(locale), 'setLocale', "needs 'en', 'pt-BR' or 'es'");
      send('set_locale', { locale });
    },
    refreshBalance: () => send('refresh_balance', {}),
    logout: () => send('logout', {}),
    on(type, handler) {
      const entry: [SportsbookEventType, Callable] = [type, handler];
      if (!destroyed) handlers.push(entry);
      return () => {
        handlers = handlers.filter((other) => other !== entry);
      };
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      removeEventListener('message', onMessage);
      iframe.remove();
      queue = [];
      handlers = [];
      rejectReady(new Error('Bookmaker: destroyed before ready'));
    },
  };
  return handle;
}
