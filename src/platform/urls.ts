import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { validationError } from './errors.ts';

/** Hostname of a URL without IPv6 brackets. */
export function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function isLoopbackHost(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  return isIP(hostname) !== 0 && ipaddr.parse(hostname).range() === 'loopback';
}

/**
 * Why an address may not receive a wallet call, or null when it is public unicast. One rule for the transport (every
 * resolved address, at call time) and for saving a wallet URL whose host is an IP literal. Loopback is reported
 * as such so that development can allow it.
 */
export function specialAddressRange(address: string): string | null {
  const parsed = ipaddr.parse(address);
  const range = parsed.range();
  // IPv4-compatible IPv6 (::a.b.c.d, deprecated) embeds an IPv4 address that ipaddr.js still calls unicast.
  if (
    range === 'unicast' &&
    parsed.kind() === 'ipv6' &&
    (parsed as ipaddr.IPv6).parts.slice(0, 6).every((p) => p === 0)
  ) {
    return 'ipv4Compatible';
  }
  return range === 'unicast' ? null : range;
}

export interface OriginRules {
  /** APP_ENV=development: http:// and https:// to loopback hosts are allowed too, on any port. */
  allowLoopback: boolean;
}

/**
 * An exact web origin as the contract wants it: scheme, host and optional port; no wildcard, path, query,
 * fragment or user info. Returns the normalised origin, or the reason it is refused.
 */
function parseExactOrigin(value: string, rules: OriginRules): { origin: string } | { problem: string } {
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
function parseWalletBaseUrl(value: string, rules: OriginRules): { url: string; origin: string } | { problem: string } {
  const url = parseAbsolute(value);
  if ('problem' in url) return url;
  if (url.search || url.hash || value.includes('?') || value.includes('#')) {
    return { problem: 'a query or fragment is not allowed' };
  }
  const schemeProblem = checkScheme(url, rules);
  if (schemeProblem) return { problem: schemeProblem };
  return { url: url.origin + url.pathname.replace(/\/+$/, ''), origin: url.origin };
}

/**
 * The rules the wallet transport applies at call time, applied when a wallet origin or URL is saved: outside
 * development only port 443, and never an IP literal in a special range (private, link-local, metadata,
 * CGNAT, mapped, unspecified, ...). A hostname is checked again at every call, when it resolves.
 */
function walletDestinationProblem(url: URL, rules: OriginRules): { rule: string; problem: string } | null {
  const host = bareHostname(url);
  if (isLoopbackHost(host)) {
    return rules.allowLoopback
      ? null
      : { rule: 'public_address', problem: 'loopback hosts are allowed only in development' };
  }
  const range = isIP(host) === 0 ? null : specialAddressRange(host);
  if (range !== null) {
    return {
      rule: 'public_address',
      problem: `the address ${host} is in a special range (${range}); wallets must be on public addresses`,
    };
  }
  if (!rules.allowLoopback && url.port !== '' && url.port !== '443') {
    return { rule: 'port_443', problem: `port ${url.port} is not allowed; wallets are called on port 443` };
  }
  return null;
}

/** A wallet origin of an authorization, normalised; refusals name the field and the rule. */
export function checkedWalletOrigin(field: string, value: string, rules: OriginRules): string {
  refuseWalletDestination(field, value, rules);
  const parsed = parseExactOrigin(value, rules);
  if ('problem' in parsed) throw validationError(field, `${field} "${value}": ${parsed.problem}.`);
  return parsed.origin;
}

/** A wallet base URL, normalised; refusals name the field and the rule. */
export function checkedWalletUrl(field: string, value: string, rules: OriginRules): string {
  refuseWalletDestination(field, value, rules);
  const parsed = parseWalletBaseUrl(value, rules);
  if ('problem' in parsed) throw validationError(field, `${field} "${value}": ${parsed.problem}.`);
  return parsed.url;
}

/** The exact origins allowed to frame the sportsbook, normalised; a refusal names the entry. */
export function checkedEmbedOrigins(origins: string[], rules: OriginRules): string[] {
  return origins.map((origin, index) => {
    const parsed = parseExactOrigin(origin, rules);
    if ('problem' in parsed) {
      throw validationError(`embedOrigins.${index}`, `embedOrigins entry "${origin}": ${parsed.problem}.`);
    }
    return parsed.origin;
  });
}

/** The transport's own rules first, so a destination it would refuse is always reported with its rule. */
function refuseWalletDestination(field: string, value: string, rules: OriginRules): void {
  const url = parseAbsolute(value);
  if ('problem' in url) return;
  const refused = walletDestinationProblem(url, rules);
  if (refused) throw validationError(field, `${field} "${value}": ${refused.problem}.`, { rule: refused.rule });
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
