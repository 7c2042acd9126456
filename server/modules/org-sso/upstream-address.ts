/**
 * Where an organization's IdP may make this server connect (OWASP SSRF Prevention Cheat Sheet). An
 * org-admin names the issuer, and the issuer's discovery document names the token, userinfo and key
 * endpoints, so every one of those URLs is a request an org-admin steers: each must be https and resolve
 * to public addresses only. --org-sso-allow-private-addresses=true lifts both rules (loopback IdPs in tests,
 * closed networks). The address rules are the server's one outbound policy (kernel/outbound-address.ts:
 * loopback, RFC 1918, link-local with cloud metadata, CGNAT, multicast, IPv6 forms embedding IPv4). A name
 * is resolved once and the socket connects to exactly the addresses checked (guarded-http.ts), so DNS
 * rebinding between check and connect is ruled out.
 */
import { isIP } from 'node:net';
import { lookup } from 'node:dns/promises';
import { AppError } from '../../kernel/errors.ts';
import { isLocalName, isRefusedAddress } from '../../kernel/outbound-address.ts';

export interface PinnedAddress {
  address: string;
  family: 4 | 6;
}

/** An upstream URL refused by the address rules: safe to log and to show an admin. */
export class RefusedUpstreamError extends Error {
  override readonly name = 'RefusedUpstreamError';
}

function bareHost(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * The URL's own shape: absolute, https (http only with the flag), no credentials, no fragment, and a host
 * that is not an internal literal or local name. Returns a reason, or undefined when acceptable.
 */
export function urlProblem(text: string, allowPrivate: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'is not an absolute URL';
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) return 'must use https';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not carry a fragment';
  const host = bareHost(url.hostname);
  if (!allowPrivate && (isLocalName(host) || (isIP(host) && isRefusedAddress(host)))) {
    return 'names a loopback, private, link-local or otherwise internal address';
  }
  return undefined;
}

/**
 * The issuer as stored: checked, without a trailing slash (Discovery section 4.1 appends the well-known
 * path to it), no query. invalid_argument names the rule broken.
 */
export function checkedIssuer(text: string, allowPrivate: boolean): string {
  const trimmed = text.trim();
  const problem = urlProblem(trimmed, allowPrivate);
  if (problem) {
    const hint = allowPrivate ? '' : ' (set --org-sso-allow-private-addresses=true for a test or closed-network IdP)';
    throw AppError.invalid(`issuer ${problem}${hint}`);
  }
  const url = new URL(trimmed);
  if (url.search) throw AppError.invalid('issuer must not carry a query');
  return url.href.replace(/\/+$/, '');
}

/** Resolves the URL's host once; refuses when any answer is internal (a mixed answer is how rebinding starts). */
export async function resolveUpstream(url: URL, allowPrivate: boolean): Promise<PinnedAddress[]> {
  const problem = urlProblem(url.href, allowPrivate);
  if (problem) throw new RefusedUpstreamError(`${url.host}: URL ${problem}`);
  const host = bareHost(url.hostname);
  const family = isIP(host);
  if (family) return [{ address: host, family: family as 4 | 6 }];
  const answers = await lookup(host, { all: true, verbatim: true });
  if (answers.length === 0) throw new RefusedUpstreamError(`${url.host}: no address`);
  if (!allowPrivate && answers.some((a) => isRefusedAddress(a.address))) {
    throw new RefusedUpstreamError(`${url.host}: resolves to an internal address`);
  }
  return answers.map((a) => ({ address: a.address, family: a.family as 4 | 6 }));
}
