/**
 * The little of a browser the app's logic modules touch, for node:test: the iframe's address and history, the
 * parent window (postMessage is recorded), message events, document.title/referrer/hidden and sessionStorage.
 * Some modules read these when they are imported (launch.ts reads the address, bridge.ts listens for messages), so a
 * test installs the fake first and then imports them with `await import(...)`. One fake per test file: node --test
 * runs each file in a process of its own.
 */

interface Posted {
  message: unknown;
  targetOrigin: string;
}

export interface FakeBrowser {
  location: {
    href: string;
    origin: string;
    pathname: string;
    search: string;
    hash: string;
    ancestorOrigins: string[] | undefined;
  };
  document: { referrer: string; title: string; hidden: boolean };
  /** what was posted to the parent window, in order */
  posted: Posted[];
  /** every URL given to history.replaceState */
  replaced: string[];
  storage: Map<string, string>;
  /** the parent window, as `event.source` of the messages it sends */
  parent: object;
  /** A message event reaching the iframe's window (from the parent unless `source` says otherwise). */
  message(init: { data: unknown; origin: string; source?: object }): void;
  /** the posted messages, forgotten */
  take(): Posted[];
}

export interface FakeOptions {
  /** the iframe's address */
  url?: string;
  /** inside a frame (window.parent is another window); default true */
  framed?: boolean;
  /** location.ancestorOrigins; undefined where the browser has none (Firefox) */
  ancestorOrigins?: string[];
  referrer?: string;
  storage?: Record<string, string>;
}

function define(name: string, value: unknown): void {
  Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
}

export function installBrowser(options: FakeOptions = {}): FakeBrowser {
  const url = new URL(options.url ?? 'https://sportsbook.example/?tenant=tn_test');
  const location: FakeBrowser['location'] = {
    href: url.href,
    origin: url.origin,
    pathname: url.pathname,
    search: url.search,
    hash: url.hash,
    ancestorOrigins: options.ancestorOrigins,
  };
  const posted: Posted[] = [];
  const replaced: string[] = [];
  const storage = new Map(Object.entries(options.storage ?? {}));
  const listeners = new Set<(event: { data: unknown; origin: string; source: unknown }) => void>();
  const parent = {
    postMessage(message: unknown, targetOrigin: string) {
      posted.push({ message, targetOrigin });
    },
  };
  const window: Record<string, unknown> = {
    addEventListener(type: string, listener: (event: { data: unknown; origin: string; source: unknown }) => void) {
      if (type === 'message') listeners.add(listener);
    },
    removeEventListener(type: string, listener: (event: { data: unknown; origin: string; source: unknown }) => void) {
      if (type === 'message') listeners.delete(listener);
    },
  };
  window.parent = options.framed === false ? window : parent;
  const document = {
    referrer: options.referrer ?? '',
    title: '',
    hidden: false,
    addEventListener() {},
    removeEventListener() {},
  };
  const history = {
    state: null,
    replaceState(_state: unknown, _title: string, next: string) {
      const resolved = new URL(next, location.href);
      replaced.push(`${resolved.pathname}${resolved.search}${resolved.hash}`);
      Object.assign(location, {
        href: resolved.href,
        pathname: resolved.pathname,
        search: resolved.search,
        hash: resolved.hash,
      });
    },
  };
  const sessionStorage = {
    getItem: (key: string) => storage.get(key) ?? null,
    setItem: (key: string, value: string) => void storage.set(key, String(value)),
    removeItem: (key: string) => void storage.delete(key),
  };
  define('window', window);
  define('location', location);
  define('history', history);
  define('document', document);
  define('sessionStorage', sessionStorage);
  return {
    location,
    document,
    posted,
    replaced,
    storage,
    parent,
    message({ data, origin, source = parent }) {
      for (const listener of [...listeners]) listener({ data, origin, source });
    },
    take() {
      return posted.splice(0);
    },
  };
}

/** The envelope of an event the sportsbook posts (sdk/protocol.ts). */
export function event(type: string, payload: unknown) {
  return { source: 'bookmaker-sportsbook', v: 1, type, payload };
}

/** The envelope of a command the host posts (sdk/protocol.ts). */
export function command(type: string, payload: unknown) {
  return { source: 'bookmaker-host', v: 1, type, payload };
}
