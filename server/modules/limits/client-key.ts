/**
 * The key a client IP is counted under in the per-IP bucket. An IPv4 address is its own key; an IPv6
 * client is counted by its /64 prefix, the smallest block a site is normally given (RFC 6177 section 3:
 * end sites get a /48 to /64), since one host can pick any of its 2^64 interface addresses per request
 * and would otherwise get a fresh allowance with each. IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4.
 */
import { isIPv4, isIPv6 } from 'node:net';

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined when it does not parse. */
function ipv6Groups(address: string): number[] | undefined {
  const bare = address.split('%')[0]!;
  const [head = '', tail] = bare.split('::');
  const parse = (part: string): number[] => (part === '' ? [] : part.split(':').map((group) => Number.parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const groups = tail === undefined ? left : [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1]!)) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (!groups) return ip;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}
