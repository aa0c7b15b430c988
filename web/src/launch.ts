import {
  HEIGHT_MODES,
  isLocale,
  ODDS_FORMATS,
  THEME_KEYS,
  type HeightMode,
  type Locale,
  type OddsFormat,
  type SportsbookEvents,
  type Theme,
} from '../../sdk/protocol.ts';

/** A mount option the address gives that the app cannot use: reported to the host as an `error` event. */
export type Refusal = Required<SportsbookEvents['error']>;

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
  /** `theme.{key}` as written, checked by theme/theme.ts */
  theme: Partial<Record<keyof Theme, string>>;
  /** false when the host shows the balance itself (`header=false`) */
  header: boolean;
  /** null follows the locale */
  oddsFormat: OddsFormat | null;
  /** `header` and `oddsFormat` values that were not understood (the defaults hold) */
  refused: Refusal[];
}

function oneOf<T extends string>(values: readonly T[], value: string | null): value is T {
  return (values as readonly (string | null)[]).includes(value);
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
  const header = params.get('header');
  const oddsFormat = params.get('oddsFormat');
  const refused: Refusal[] = [];
  if (header !== null && header !== 'true' && header !== 'false') {
    refused.push({ code: 'invalid_option', field: 'header', message: `header must be true or false, not "${header}"` });
  }
  if (oddsFormat !== null && !oneOf(ODDS_FORMATS, oddsFormat)) {
    const message = `oddsFormat must be ${ODDS_FORMATS.join(', ')}, not "${oddsFormat}"`;
    refused.push({ code: 'invalid_option', field: 'oddsFormat', message });
  }
  const theme: LaunchParams['theme'] = {};
  for (const key of THEME_KEYS) {
    const value = params.get(`theme.${key}`);
    if (value !== null) theme[key] = value;
  }
  return {
    tenant: params.get('tenant'),
    launch: launch || null,
    token: token || null,
    path: params.get('path'),
    locale: isLocale(locale) ? locale : null,
    height: oneOf(HEIGHT_MODES, height) ? height : 'fill',
    origin: params.get('origin'),
    theme,
    header: header !== 'false',
    oddsFormat: oneOf(ODDS_FORMATS, oddsFormat) ? oddsFormat : null,
    refused,
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
