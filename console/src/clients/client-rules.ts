/**
 * The client registry's input rules, checked in the form before the server sees them (the server applies the
 * same rules in server/modules/clients/clients.schema.ts and stays the authority): bounds of the request
 * schema, RFC 6749 section 3.3 scope tokens, and redirect URIs that are absolute http(s) URLs written as
 * scheme://host, without fragment (RFC 6749 section 3.1.2), credentials or whitespace, kept exactly as typed
 * because /authorize compares them character for character (RFC 9700 section 4.1.3). Post-logout redirect URIs
 * (OpenID Connect RP-Initiated Logout 1.0 section 3.2) follow the same rules and are https unless the host is
 * this machine (RFC 8252 section 8.3).
 */

export const MAX_NAME = 255;
export const MAX_DESCRIPTION = 1024;
export const MAX_SCOPES = 100;
export const MAX_SCOPE_LENGTH = 128;
export const MAX_REDIRECT_URIS = 50;
export const MAX_REDIRECT_URI_LENGTH = 2048;

/** RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

export function isScopeToken(scope: string): boolean {
  return scope.length <= MAX_SCOPE_LENGTH && SCOPE_TOKEN.test(scope);
}

/** A key of the "clients" catalogue's redirectUri group (with its parameters), or undefined when the URI is acceptable. */
export type RedirectUriProblem =
  | { key: 'notHttp' | 'invalid' | 'fragment' | 'credentials' | 'whitespace' | 'httpsRequired' }
  | { key: 'tooLong'; max: number };

export function redirectUriProblem(uri: string): RedirectUriProblem | undefined {
  if (uri.length > MAX_REDIRECT_URI_LENGTH) return { key: 'tooLong', max: MAX_REDIRECT_URI_LENGTH };
  if (/\s/.test(uri)) return { key: 'whitespace' };
  // The URL parser repairs `https:host`, `https:///host` and backslashes into a host other than the one a
  // reader sees; the server refuses those forms, so the form does too.
  if (!/^https?:\/\/[^/\\]/i.test(uri) || uri.includes('\\')) return { key: 'notHttp' };
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return { key: 'invalid' };
  }
  if (uri.includes('#')) return { key: 'fragment' };
  if (url.username || url.password || /^[a-z]+:\/\/[^/?]*@/i.test(uri)) return { key: 'credentials' };
  return undefined;
}

/** Hosts plain http may name in a post-logout redirect URI: localhost, 127.0.0.0/8 and [::1]. */
function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** As redirectUriProblem, and plain http only to a loopback host. */
export function postLogoutRedirectUriProblem(uri: string): RedirectUriProblem | undefined {
  const problem = redirectUriProblem(uri);
  if (problem) return problem;
  const url = new URL(uri);
  return url.protocol === 'http:' && !isLoopbackHost(url.hostname) ? { key: 'httpsRequired' } : undefined;
}

/** The lines of the redirect URI box: trimmed, blank lines dropped, duplicates kept once (as the server does). */
export function redirectUriLines(text: string): string[] {
  return [...new Set(text.split('\n').map((line) => line.trim()).filter(Boolean))];
}
