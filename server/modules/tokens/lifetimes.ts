/**
 * Token lifetimes (docs/tokens.md#lifetimes): access and ID token 30 min, refresh token 30 days.
 * The session and its cookies live 24 h (kernel/cookies.ts SESSION_COOKIE_SECONDS).
 */
export const ACCESS_TOKEN_SECONDS = 30 * 60;
export const ID_TOKEN_SECONDS = 30 * 60;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

/**
 * Absolute session lifetime (OWASP ASVS 3.3.4 / NIST SP 800-63B 7.2 reauthentication): nothing issued for a
 * login, neither a refreshed session cookie nor a rotated refresh token nor the tokens minted from them,
 * lives past this many seconds after the user authenticated. The refresh token's own lifetime is the
 * natural bound: a login kept alive by refreshes ends when its first refresh token would have.
 */
export const ABSOLUTE_SESSION_SECONDS = REFRESH_TOKEN_SECONDS;

/** The instant after which nothing of a login authenticated at `authTime` may be used. */
export function absoluteEndOf(authTime: Date): Date {
  return new Date(authTime.getTime() + ABSOLUTE_SESSION_SECONDS * 1000);
}

/** `now + seconds`, but never past `notAfter`. */
export function cappedExpiry(now: Date, seconds: number, notAfter: Date): Date {
  return new Date(Math.min(now.getTime() + seconds * 1000, notAfter.getTime()));
}
