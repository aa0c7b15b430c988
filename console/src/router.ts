import { Value } from './store.ts';

/** Every console address starts with this; the service answers every path under it with the console. */
const BASE = '/admin';

export interface Place {
  /** The path under BASE: `/`, `/aggregators/ag_1`. */
  path: string;
  /** The query: filters, the page's cursor, the tenant a platform administrator picked. Shareable as a link. */
  query: URLSearchParams;
}

function here(): Place {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

export const place = new Value<Place>(here());
addEventListener('popstate', () => place.set(here()));

/** The address of a console path with a query (values not set are left out). */
export function href(path: string, query: Record<string, string | undefined> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) params.set(name, value);
  const search = params.toString();
  return `${BASE}${path === '/' ? '' : path}${search ? `?${search}` : ''}`;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  place.set(here());
  if (!options.replace) window.scrollTo(0, 0);
}

/**
 * Changes some query parameters of the current page (a filter, a page), keeping the rest; a filter change drops
 * the cursor, since the pages it counted no longer exist. The address is replaced, not pushed, while typing.
 */
export function setQuery(changes: Record<string, string | undefined>, options: { push?: boolean } = {}): void {
  const current = place.get();
  const query = new URLSearchParams(current.query);
  const paging = Object.keys(changes).every((name) => name === 'cursor');
  if (!paging) query.delete('cursor');
  for (const [name, value] of Object.entries(changes)) {
    if (value) query.set(name, value);
    else query.delete(name);
  }
  const search = query.toString();
  const to = `${BASE}${current.path === '/' ? '' : current.path}${search ? `?${search}` : ''}`;
  navigate(to, { replace: !options.push });
}

/** Matches `/aggregators/:id` against a path: the named parts, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const part = want[i]!;
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(got[i]!);
    else if (part !== got[i]) return null;
  }
  return params;
}

/** A click on a console link changes the page without loading the document again (modified clicks open tabs). */
export function followLink(event: MouseEvent): void {
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey || anchor.target) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE) || anchor.hasAttribute('download')) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
}
