import { parsePath, pathOf, type Route } from '../../sdk/protocol.ts';
import { slipOpen } from './betslip/slip.ts';
import { post } from './bridge.ts';
import { t } from './i18n/index.ts';
import { rememberPath } from './launch.ts';
import { loggedIn, requireLogin } from './session.ts';
import { createStore } from './store.ts';

/**
 * In-memory routing over the deep-link paths of sdk/protocol.ts. Pages are not pushed to the iframe's history:
 * in an iframe that history is the host page's too, and the host's Back button would walk the sportsbook. The
 * sportsbook has its own Back control; the host hears every page as `route` and can deep-link with `navigate`.
 * The address keeps `path` in step (replaceState), so reloading the iframe stays on the page.
 */
export const routeStore = createStore<Route>({ page: 'home' });
const backStack: Route[] = [];
export const canGoBack = createStore(false);

let siteName = 'Sportsbook';
/** The navigation not yet told to the host: its page waits for its data to know its title, at most 2 s. */
let pending: { path: string; timer: ReturnType<typeof setTimeout> } | null = null;

export function setSiteName(name: string): void {
  siteName = name;
}

function genericTitle(route: Route): string | null {
  switch (route.page) {
    case 'home':
      return t('titleHome');
    case 'live':
      return route.sportId ? null : t('titleLive');
    case 'my-bets':
      return t('titleMyBets');
    default:
      return null;
  }
}

function setTitle(title: string): void {
  document.title = `${title} · ${siteName}`;
}

/** Tells the host the pending navigation, once: every navigation is announced exactly once, in order. */
function announcePending(title: string): void {
  if (!pending) return;
  clearTimeout(pending.timer);
  post('route', { path: pending.path, title });
  pending = null;
}

/**
 * A page tells what it is once its data is in ("Flamengo v Palmeiras"). The first title of a navigation goes to
 * the host in `route`; later ones (locale switch, data refresh) only update document.title.
 */
export function setPageTitle(title: string): void {
  setTitle(title);
  announcePending(title);
}

function show(route: Route): void {
  // a page left before its data came is still announced, with the title it had: the host hears every page
  announcePending(t('appName'));
  slipOpen.set(false);
  routeStore.set(route);
  rememberPath(pathOf(route));
  const known = genericTitle(route);
  setTitle(known ?? t('appName'));
  pending = { path: pathOf(route), timer: setTimeout(() => announcePending(t('appName')), 2000) };
  if (known) announcePending(known);
  if (route.page === 'my-bets' && !loggedIn()) requireLogin('my_bets');
}

/** Opens a page from inside the sportsbook. */
export function go(route: Route): void {
  const current = routeStore.get();
  if (pathOf(current) === pathOf(route)) return;
  backStack.push(current);
  if (backStack.length > 50) backStack.shift();
  canGoBack.set(true);
  show(route);
}

export function back(): void {
  const previous = backStack.pop();
  canGoBack.set(backStack.length > 0);
  show(previous ?? { page: 'home' });
}

/**
 * A deep link from the host (`path` in the address, or `navigate`): an unknown path is ignored and reported with
 * `error` (invalid_path). Returns whether the page changed.
 */
export function openPath(path: string, initial = false): boolean {
  const route = parsePath(path);
  if (!route) {
    post('error', { code: 'invalid_path', message: `The sportsbook has no page at ${path}.` });
    if (initial) show({ page: 'home' });
    return false;
  }
  if (initial) show(route);
  else go(route);
  return true;
}

/** The route and title again (e.g. after `set_locale`): document.title in the new language. */
export function titleChanged(): void {
  const known = genericTitle(routeStore.get());
  if (known) document.title = `${known} · ${siteName}`;
}
