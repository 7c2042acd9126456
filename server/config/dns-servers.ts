/**
 * The --dns-servers flag: the resolvers domain verification asks (comma-separated `ip[:port]`, IPv6 as
 * `[ip]:port` or a bare address; empty: the system resolver). Only IP addresses are accepted: naming a
 * resolver by host name would need a resolver to find it. Checked at start (validate.ts) so that a
 * typo is a startup refusal, not a failed verification hours later.
 */
import { isIP, isIPv4, isIPv6 } from 'node:net';

/** The entry in the form node:dns Resolver.setServers takes, or undefined when it is not `ip[:port]`. */
export function dnsServerAddress(entry: string): string | undefined {
  const text = entry.trim();
  if (isIP(text)) return text;
  const bracketed = /^\[([^\]]+)\]:(\d{1,5})$/.exec(text);
  if (bracketed) return isIPv6(bracketed[1]!) && validPort(bracketed[2]!) ? text : undefined;
  const withPort = /^([^:]+):(\d{1,5})$/.exec(text);
  if (withPort) return isIPv4(withPort[1]!) && validPort(withPort[2]!) ? text : undefined;
  return undefined;
}

function validPort(text: string): boolean {
  const port = Number(text);
  return port >= 1 && port <= 65535;
}

/** The startup refusal for a bad --dns-servers list; undefined when every entry is an address. */
export function checkDnsServers(entries: readonly string[]): string | undefined {
  for (const entry of entries) {
    if (!dnsServerAddress(entry)) return `--dns-servers: "${entry}" is not an IP address with an optional port (1.1.1.1, 1.1.1.1:53, [2606:4700::1111]:53)`;
  }
  return undefined;
}
