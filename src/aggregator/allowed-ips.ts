import ipaddr from 'ipaddr.js';
import { validationError } from '../platform/errors.ts';

/** At most this many entries in an authorization's allowedIps. */
export const MAX_ALLOWED_IPS = 50;

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * The authorization's allowedIps as stored: each entry an IPv4 or IPv6 address or CIDR range in one canonical form
 * (IPv4 dotted decimal, IPv6 compressed lower case as RFC 5952; a full-length prefix dropped, an IPv4-mapped IPv6
 * entry written as IPv4), so that two spellings of one entry are a duplicate. Refused with 400 `validation` naming
 * the entry (`allowedIps.N`): anything that is not an address or a range (host names, ports, schemes, zone ids,
 * IPv4 shorthand such as `127.1` or leading zeros), a bad prefix, a range with host bits set, a range of every
 * address (`0.0.0.0/0`, `::/0`: leave the list empty instead) and duplicates.
 */
export function normalisedAllowedIps(entries: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return entries.map((entry, index) => {
    const field = `allowedIps.${index}`;
    const result = normalisedEntry(entry);
    if (typeof result !== 'string') throw validationError(field, `${field} "${entry}": ${result.problem}.`);
    const earlier = seen.get(result);
    if (earlier !== undefined) {
      throw validationError(field, `${field} "${entry}": repeats allowedIps.${earlier} (${result}).`);
    }
    seen.set(result, index);
    return result;
  });
}

function normalisedEntry(entry: string): string | { problem: string } {
  const parts = entry.split('/');
  if (parts.length > 2) return { problem: 'not an IP address or CIDR range' };
  const [text = '', prefixText] = parts;
  const address = parsedAddress(text);
  if (!address) {
    return {
      problem:
        'not an IP address or CIDR range: write an IPv4 or IPv6 address (203.0.113.7, 2001:db8::7) or a range ' +
        '(198.51.100.0/24, 2001:db8::/32), without host names, ports or schemes',
    };
  }
  let prefix = address.kind() === 'ipv4' ? 32 : 128;
  if (prefixText !== undefined) {
    if (!/^(0|[1-9]\d{0,2})$/.test(prefixText) || Number(prefixText) > prefix) {
      return {
        problem: `bad prefix length: it must be 1-${prefix} for an ${address.kind() === 'ipv4' ? 'IPv4' : 'IPv6'} range`,
      };
    }
    prefix = Number(prefixText);
  }
  let range: Address = address;
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    if (prefix < 96) return { problem: 'mixes IPv4-mapped and other IPv6 addresses: write the IPv4 range instead' };
    range = (address as ipaddr.IPv6).toIPv4Address();
    prefix -= 96;
  }
  if (prefix === 0) {
    return { problem: 'would allow every address: leave allowedIps empty to allow any address' };
  }
  const full = range.kind() === 'ipv4' ? 32 : 128;
  const canonical = range.toString();
  if (prefix === full) return canonical;
  const network =
    range.kind() === 'ipv4'
      ? ipaddr.IPv4.networkAddressFromCIDR(`${canonical}/${prefix}`)
      : ipaddr.IPv6.networkAddressFromCIDR(`${canonical}/${prefix}`);
  if (network.toString() !== canonical) {
    return { problem: `host bits are set: the range is ${network.toString()}/${prefix}` };
  }
  return `${canonical}/${prefix}`;
}

/** Four-part decimal IPv4, or IPv6 without a zone id; anything else is no address. */
function parsedAddress(text: string): Address | undefined {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(':') || !ipaddr.IPv6.isValid(text)) return undefined;
  const address = ipaddr.IPv6.parse(text);
  return address.zoneId === undefined ? address : undefined;
}

/**
 * Whether the client address may use the aggregator API: any address when the list is empty; otherwise one of the
 * entries must contain it. An IPv4-mapped IPv6 client (`::ffff:203.0.113.7`) is its IPv4 address.
 */
export function addressAllowed(allowed: readonly string[], clientIp: string): boolean {
  if (allowed.length === 0) return true;
  if (!ipaddr.isValid(clientIp)) return false;
  const client = ipaddr.process(clientIp);
  return allowed.some((entry) => {
    const range = parsedRange(entry);
    return range !== undefined && range[0].kind() === client.kind() && client.match(range);
  });
}

function parsedRange(entry: string): [Address, number] | undefined {
  if (ipaddr.isValidCIDR(entry)) return ipaddr.parseCIDR(entry);
  if (!ipaddr.isValid(entry)) return undefined;
  const address = ipaddr.parse(entry);
  return [address, address.kind() === 'ipv4' ? 32 : 128];
}
