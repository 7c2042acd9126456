/**
 * Where this server may connect when someone else names the address (OWASP SSRF Prevention Cheat Sheet):
 * webhooks, an organization's IdP, a trusted issuer's JWKS. One policy for all of them, each behind its own
 * allow flag. Refused: unspecified, loopback, RFC 1918 and RFC 4193 private ranges, link-local (RFC 3927
 * 169.254/16 with the cloud metadata address, RFC 4291 fe80::/10), CGNAT (RFC 6598), multicast, reserved and
 * documentation ranges, and IPv6 forms that embed an IPv4 address (IPv4-mapped, NAT64, 6to4), which could
 * smuggle any of the above; and names that are this machine whatever a resolver says (RFC 6761 section 6.3).
 *
 * A host name is resolved once (resolvePinned) and the caller connects to exactly the addresses checked
 * (pinnedLookup as the socket's `lookup`), so a second, rebinding DNS answer is never consulted.
 */
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { lookup } from 'node:dns/promises';

const REFUSED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network", unspecified (RFC 1122)
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // CGNAT (RFC 6598); also Alibaba's metadata 100.100.100.200
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (RFC 3927), cloud metadata 169.254.169.254
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments (RFC 6890)
  ['192.0.2.0', 24], // TEST-NET-1 (RFC 5737)
  ['192.88.99.0', 24], // 6to4 relay anycast (RFC 7526)
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking (RFC 2544)
  ['198.51.100.0', 24], // TEST-NET-2
  ['203.0.113.0', 24], // TEST-NET-3
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255 broadcast
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  // IPv4-mapped addresses (::ffff:a.b.c.d) are checked against the IPv4 rules by BlockList itself.
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['::', 96], // IPv4-compatible (deprecated, RFC 4291 2.5.5.1)
  ['64:ff9b::', 96], // NAT64 (RFC 6052)
  ['64:ff9b:1::', 48], // local-use NAT64 (RFC 8215)
  ['100::', 64], // discard-only (RFC 6666)
  ['2001:db8::', 32], // documentation (RFC 3849)
  ['2002::', 16], // 6to4 (RFC 3056): embeds an IPv4 address
  ['fc00::', 7], // unique local (RFC 4193), AWS fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated, RFC 3879)
  ['ff00::', 8], // multicast
] as const) {
  REFUSED.addSubnet(net, prefix, 'ipv6');
}

/** The host of a URL as an address, when it is a literal (URL keeps IPv6 in brackets). */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : undefined;
}

/** True when `address` (an IP literal) is one this server must not reach without an allow flag. */
export function isRefusedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return REFUSED.check(address, 'ipv4');
  if (family === 6) {
    // A zone index (fe80::1%eth0) names an interface: only link-local addresses carry one.
    if (address.includes('%')) return true;
    return REFUSED.check(address, 'ipv6');
  }
  return true;
}

/** Names that resolve to this machine whatever the resolver says (RFC 6761 section 6.3). */
export function isLocalName(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

/** A URL host (name or literal, IPv6 in brackets) that is internal without asking DNS. */
export function isInternalHost(hostname: string): boolean {
  const literal = literalAddress(hostname);
  return literal ? isRefusedAddress(literal) : isLocalName(hostname);
}

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/** Answers every address of a name (tests pass one backed by their own DNS server). */
export type HostResolver = (hostname: string) => Promise<PinnedAddress[]>;

export const systemResolver: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({ address: a.address, family: a.family as 4 | 6 }));

/** A host refused by the policy: the message names no address, so it is safe to log and to show an admin. */
export class InternalAddressError extends Error {
  override readonly name = 'InternalAddressError';
  constructor() {
    super('the host is or resolves to a loopback, private, link-local or otherwise internal address');
  }
}

/**
 * Resolves `hostname` (a URL's hostname) once and returns the addresses to connect to. Without
 * `allowPrivate`, an internal literal or local name, or a name with any internal address among its answers,
 * is refused whole (a mixed answer is how rebinding attacks start). An empty answer throws a plain Error.
 */
export async function resolvePinned(hostname: string, allowPrivate: boolean, resolve: HostResolver = systemResolver): Promise<PinnedAddress[]> {
  const literal = literalAddress(hostname);
  if (literal) {
    if (!allowPrivate && isRefusedAddress(literal)) throw new InternalAddressError();
    return [{ address: literal, family: isIP(literal) as 4 | 6 }];
  }
  if (!allowPrivate && isLocalName(hostname)) throw new InternalAddressError();
  const answers = await resolve(hostname);
  if (answers.length === 0) throw new Error('no address');
  if (!allowPrivate && answers.some((a) => isRefusedAddress(a.address))) throw new InternalAddressError();
  return answers;
}

/** A socket lookup that only ever answers the addresses already checked. */
export function pinnedLookup(addresses: readonly PinnedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses.map((a) => ({ address: a.address, family: a.family })));
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}
