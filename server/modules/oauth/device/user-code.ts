/**
 * The user code of the device flow (RFC 8628 section 6.1): 8 characters of the 20 consonants
 * BCDFGHJKLMNPQRSTVWXZ (no vowels, so no words; no digits, so no 0/O or 1/I confusion), shown as XXXX-XXXX.
 * 20^8 = 2.6e10 values, about 34 bits, which RFC 8628 section 5.1 pairs with rate limiting of wrong entries
 * (the device_user_code_guess bucket). What a person types is normalized before comparison: case, spaces and
 * dashes do not matter (section 6.1 "compare ... in a case-insensitive way, ignoring dashes").
 */
import { randomInt } from 'node:crypto';
import { sha256Hex } from '../../../kernel/crypto.ts';

export const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
export const USER_CODE_LENGTH = 8;

/** A new user code, formatted XXXX-XXXX. */
export function newUserCode(): string {
  let code = '';
  for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** The code as typed, upper-cased without separators; undefined when it cannot be a user code of ours. */
export function normalizedUserCode(typed: string): string | undefined {
  const compact = typed.toUpperCase().replace(/[\s-]+/g, '');
  if (compact.length !== USER_CODE_LENGTH) return undefined;
  for (const char of compact) if (!USER_CODE_ALPHABET.includes(char)) return undefined;
  return compact;
}

/** What is stored and looked up: the SHA-256 of the normalized code. */
export function userCodeDigest(normalized: string): string {
  return sha256Hex(normalized);
}
