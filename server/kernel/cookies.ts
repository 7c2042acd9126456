/**
 * The session cookie pair and the MFA cookie
 * (docs/api-overview.md#authentication; docs/tokens.md#lifetimes): `cookie_session` is host-scoped,
 * `cookie_session_domain` carries a Domain attribute for the
 * registrable domain of --url so sibling applications see it. Both HttpOnly, SameSite=None by default, Secure per
 * --app-cookie-secure. The admin cookie lives in modules/admin.
 */
import { isIP } from 'node:net';
import { getDomain } from 'tldts';
import type { Config } from '../config/flags.ts';
import type { CookieSpec } from './effects.ts';

export const SESSION_COOKIE = 'cookie_session';
export const SESSION_DOMAIN_COOKIE = 'cookie_session_domain';
export const MFA_COOKIE = 'mfa';
/** docs/tokens.md#lifetimes: session and its cookies 24 h. */
export const SESSION_COOKIE_SECONDS = 24 * 3600;
/** Short-lived MFA challenge session. */
export const MFA_COOKIE_SECONDS = 5 * 60;

/**
 * Domain attribute of the domain-scoped cookie: the registrable domain of the --url host ("eTLD+1" per the
 * Public Suffix List), as RFC 6265 section 5.3 step 5 has browsers refuse a Domain that is a public suffix.
 * The last two labels were wrong for `auth.example.co.uk` (they gave the suffix `co.uk`). None when the host
 * is an IP address, a single label such as localhost, or itself a public suffix: the cookie is then
 * host-only. Private suffixes count (allowPrivateDomains): on `alice.github.io` the cookie is scoped to
 * `alice.github.io`, not offered to every `*.github.io` tenant with Domain=github.io, a Domain that
 * browsers, which apply the private section of the list too, would refuse anyway.
 */
export function cookieDomainOf(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  const host = new URL(baseUrl).hostname;
  if (isIP(host.replace(/^\[|\]$/g, '')) !== 0) return undefined;
  if (!host.includes('.')) return undefined;
  return getDomain(host, { allowPrivateDomains: true }) ?? undefined;
}

function appCookie(config: Config, name: string, value: string, maxAge: number, domain?: string): CookieSpec {
  const secure = config.appCookieSecure;
  // Browsers drop SameSite=None cookies that are not Secure, so an insecure deployment falls back to Lax.
  return { name, value, maxAge, httpOnly: true, secure, sameSite: secure ? 'None' : 'Lax', path: '/', domain };
}

export function sessionCookies(config: Config, value: string, maxAge = SESSION_COOKIE_SECONDS): CookieSpec[] {
  return [
    appCookie(config, SESSION_COOKIE, value, maxAge),
    appCookie(config, SESSION_DOMAIN_COOKIE, value, maxAge, cookieDomainOf(config.url)),
  ];
}

export function clearedSessionCookies(config: Config): CookieSpec[] {
  return sessionCookies(config, '', 0);
}

export function mfaCookie(config: Config, value: string, maxAge = MFA_COOKIE_SECONDS): CookieSpec {
  return appCookie(config, MFA_COOKIE, value, maxAge);
}

/** The session token a request presents, host cookie first. */
export function presentedSession(cookies: Record<string, string>): string | undefined {
  return cookies[SESSION_COOKIE] || cookies[SESSION_DOMAIN_COOKIE] || undefined;
}
