/**
 * Recovery codes for a lost second factor (NIST SP 800-63B section 5.1.2 "look-up secrets"): ten codes
 * shown once at TOTP enrolment, each single-use.
 *
 * Each code carries 50 bits from the CSPRNG (ten base32 characters; SP 800-63B 5.1.2.1 asks at least 20
 * bits for a look-up secret), written as two groups of five from an alphabet without 0/O and 1/I/L. At
 * rest only SHA-256 of the normalised code is kept: with 50 bits of entropy an unsalted fast hash cannot
 * be reversed from a database dump (unlike six-digit OTPs, which need the sealed digest).
 */
import { randomBytes } from 'node:crypto';
import { constantTimeEqual, sha256Hex } from '../../kernel/crypto.ts';

export const RECOVERY_CODE_COUNT = 10;
/** RFC 4648 base32 without the characters people confuse (0 O 1 I L). */
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 10;

function randomCode(): string {
  let out = '';
  // Rejection sampling keeps every character uniform (256 is not a multiple of the alphabet's 31).
  while (out.length < CODE_LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && out.length < CODE_LENGTH) out += ALPHABET[byte % ALPHABET.length];
    }
  }
  return `${out.slice(0, 5)}-${out.slice(5)}`;
}

/** What a person types, as stored: case, spaces and dashes do not matter. */
export function normaliseRecoveryCode(code: string): string {
  return typeof code === 'string' ? code.toUpperCase().replace(/[\s-]+/g, '') : '';
}

/** Whether the input has the shape of a recovery code rather than a six-digit TOTP code. */
export function looksLikeRecoveryCode(code: string): boolean {
  const normal = normaliseRecoveryCode(code);
  return normal.length === CODE_LENGTH && [...normal].every((c) => ALPHABET.includes(c));
}

export function recoveryCodeDigest(code: string): string {
  return sha256Hex(`recovery:${normaliseRecoveryCode(code)}`);
}

/** Ten new codes to show once, with the digests to store. */
export function newRecoveryCodes(count = RECOVERY_CODE_COUNT): { codes: string[]; digests: string[] } {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(randomCode());
  const list = [...codes];
  return { codes: list, digests: list.map(recoveryCodeDigest) };
}

/** The index of the stored digest a code matches, or -1; every digest is compared, in constant time each. */
export function matchRecoveryCode(code: string, digests: readonly string[]): number {
  if (!looksLikeRecoveryCode(code)) return -1;
  const digest = recoveryCodeDigest(code);
  let found = -1;
  digests.forEach((stored, index) => {
    if (constantTimeEqual(stored, digest) && found < 0) found = index;
  });
  return found;
}
