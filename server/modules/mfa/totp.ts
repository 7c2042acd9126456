/**
 * TOTP (RFC 6238) for the authenticator-app factor, on otplib. Defaults are those every authenticator app
 * reads from an otpauth URI: HMAC-SHA1, six digits, 30-second steps.
 *
 * Replay (OWASP ASVS 2.8.4, "a time-based OTP can be used only once within the validity period"): a check
 * answers the time step it matched, the caller stores it, and a later check passes it back as
 * `lastUsedStep`; any code of that step or an earlier one is refused, so an observed code cannot be
 * replayed in the same step or the one of skew after it.
 *
 * Skew: one step either side (RFC 6238 section 5.2 recommends at most one step of network delay), so a
 * code is accepted for about 90 seconds around its step and never longer.
 */
import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** One step of skew either way, in seconds (otplib counts tolerance in seconds). */
const SKEW_SECONDS = TOTP_PERIOD_SECONDS;
const CODE_SHAPE = new RegExp(`^\\d{${TOTP_DIGITS}}$`);

/** A new shared secret: 20 random bytes (RFC 4226 section 4 R6: 160 bits recommended), base32. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The otpauth:// URI an authenticator app scans (Key Uri Format): issuer and account label. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return generateURI({ issuer, label: account, secret, period: TOTP_PERIOD_SECONDS, digits: TOTP_DIGITS });
}

/** The code of a moment; tests and the reference vectors use it. */
export function totpCode(secret: string | Uint8Array, at: Date, options: { digits?: 6 | 7 | 8; algorithm?: 'sha1' | 'sha256' | 'sha512' } = {}): string {
  return generateSync({
    secret,
    epoch: Math.floor(at.getTime() / 1000),
    period: TOTP_PERIOD_SECONDS,
    digits: options.digits ?? TOTP_DIGITS,
    algorithm: options.algorithm ?? 'sha1',
  });
}

/**
 * Checks a code at `at`. Answers the matched time step (to be stored as the next `lastUsedStep`), or
 * null for a wrong, malformed, stale or replayed code. Never throws on input a caller could send.
 */
export function checkTotp(secret: string, code: string, at: Date, lastUsedStep?: number | null): number | null {
  const token = typeof code === 'string' ? code.replace(/\s+/g, '') : '';
  if (!CODE_SHAPE.test(token)) return null;
  try {
    const result = verifySync({
      secret,
      token,
      epoch: Math.floor(at.getTime() / 1000),
      period: TOTP_PERIOD_SECONDS,
      digits: TOTP_DIGITS,
      epochTolerance: SKEW_SECONDS,
      ...(lastUsedStep != null ? { afterTimeStep: lastUsedStep } : {}),
    });
    // The functional API types HOTP and TOTP results as one union; only the TOTP result has timeStep.
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}
