import { HEIGHT_MODES, isLocale, type HeightMode, type Locale } from '../../sdk/protocol.ts';

/**
 * The iframe address, read once at start-up. Importing this module removes the credentials (`launch`, and the
 * deprecated `token`) from the address with history.replaceState before anything else runs: main.tsx imports it
 * first, and nothing here awaits.
 */
export interface LaunchParams {
  tenant: string | null;
  /** single-use launch token, exchanged for a session token */
  launch: string | null;
  /** deprecated: a session token in the URL, used as it is */
  token: string | null;
  /** the first route, still to be checked with parsePath */
  path: string | null;
  locale: Locale | null;
  height: HeightMode;
  /** the host page's origin as the host claims it (checked against embedOrigins and the referrer) */
  origin: string | null;
}

function readAndScrub(): LaunchParams {
  const params = new URLSearchParams(location.search);
  const launch = params.get('launch');
  const token = params.get('token');
  if (params.has('launch') || params.has('token')) {
    params.delete('launch');
    params.delete('token');
    const query = params.toString();
    history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
  }
  const locale = params.get('locale');
  const height = params.get('height');
  return {
    tenant: params.get('tenant'),
    launch: launch || null,
    token: token || null,
    path: params.get('path'),
    locale: isLocale(locale) ? locale : null,
    height: (HEIGHT_MODES as readonly (string | null)[]).includes(height) ? (height as HeightMode) : 'fill',
    origin: params.get('origin'),
  };
}

export const launchParams: LaunchParams = readAndScrub();

/** Keeps `path` in the address in step with the page (replaceState: no history entries), so a reload stays put. */
export function rememberPath(path: string): void {
  const params = new URLSearchParams(location.search);
  if (path === '/') params.delete('path');
  else params.set('path', path);
  const query = params.toString();
  history.replaceState(history.state, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
}
