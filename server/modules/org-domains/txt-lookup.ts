/**
 * The one outbound DNS query of domain verification: the TXT records at one name (RFC 1035 section 3.3.14),
 * asked of --dns-servers (or the system resolver) through node:dns's c-ares Resolver. Bounded: one try per
 * server with a per-try timeout, and an overall deadline that cancels whatever is still in flight, so a
 * silent resolver holds a request for about TXT_LOOKUP_TIMEOUT_MS at most. Failures become one small
 * vocabulary the operation turns into failed_precondition; nothing of the resolver's error text is echoed.
 */
import { Resolver } from 'node:dns/promises';

/** The longest a verification waits for DNS, whatever the number of servers. */
export const TXT_LOOKUP_TIMEOUT_MS = 5000;

export type TxtLookup =
  | { readonly found: true; readonly records: readonly string[] }
  /** no_records: the name or its TXT records do not exist; unreachable: timeout, refusal or server failure. */
  | { readonly found: false; readonly reason: 'no_records' | 'unreachable' };

/** c-ares codes (node:dns error codes) that mean the name answers, but without a TXT record. */
const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME']);

export async function lookupTxt(name: string, servers: readonly string[], timeoutMs = TXT_LOOKUP_TIMEOUT_MS): Promise<TxtLookup> {
  const resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
  if (servers.length > 0) resolver.setServers(servers);
  const deadline = setTimeout(() => resolver.cancel(), timeoutMs);
  try {
    // Each record comes back as its character-strings (at most 255 octets each); a record is their join.
    const chunks = await resolver.resolveTxt(name);
    return { found: true, records: chunks.map((parts) => parts.join('')) };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? '';
    return { found: false, reason: NO_RECORD_CODES.has(code) ? 'no_records' : 'unreachable' };
  } finally {
    clearTimeout(deadline);
  }
}
