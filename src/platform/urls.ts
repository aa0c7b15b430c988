import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/** Hostname of a URL without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

export function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  return isIP(hostname) !== 0 && ipaddr.parse(hostname).range() === 'loopback';
}

export interface OriginRules {
  /** APP_ENV=development: http:// and https:// to loopback hosts are allowed too. */
  allowLoopback: boolean;
}

/**
 * An exact web origin as the contract wants it: scheme, host and optional port; no wildcard, path, query,
 * fragment or user info. Returns the normalised origin, or the reason it is refused.
 */
export function parseExactOrigin(value: string, rules: OriginRules): { origin: string } | { problem: string } {
  if (value.includes('*')) return { problem: 'wildcards are not allowed' };
  const url = parseAbsolute(value);
  if ('problem' in url) return url;
  if (url.search || value.includes('?')) return { problem: 'a query is not allowed' };
  if (url.hash || value.includes('#')) return { problem: 'a fragment is not allowed' };
  if (url.pathname !== '/') return { problem: 'a path is not allowed' };
  const schemeProblem = checkScheme(url, rules);
  if (schemeProblem) return { problem: schemeProblem };
  if (value !== url.origin) return { problem: `must be written exactly as ${url.origin}` };
  return { origin: url.origin };
}

/** A wallet base URL: an HTTPS origin plus an optional path, nothing else. */
export function parseWalletBaseUrl(value: string, rules: OriginRules): { url: string; origin: string } | { problem: string } {
  const url = parseAbsolute(value);
  if ('problem' in url) return url;
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    return { problem: 'a query or fragment is not allowed' };
  }
  const schemeProblem = checkScheme(url, rules);
  if (schemeProblem) return { problem: schemeProblem };
  return { url: url.origin + url.pathname.replace(/\/+$/, ''), origin: url.origin };
}

function parseAbsolute(value: string): URL | { problem: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: 'not an absolute URL' };
  }
  return url.username || url.password ? { problem: 'user info is not allowed' } : url;
}

function checkScheme(url: URL, rules: OriginRules): string | null {
  const loopback = isLoopbackHost(bareHostname(url));
  if (loopback && !rules.allowLoopback) return 'loopback hosts are allowed only in development';
  if (url.protocol === 'https:') return null;
  if (url.protocol === 'http:' && rules.allowLoopback && loopback) return null;
  return rules.allowLoopback ? 'must be https (http only for loopback hosts in development)' : 'must be https';
}
