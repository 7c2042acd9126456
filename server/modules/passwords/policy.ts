/**
 * The password rule: 6 to 128 characters, so passphrases fit (NIST SP 800-63B 5.1.1.2: verifiers should
 * permit at least 64; 128 code points stay within the 256 UTF-16 units every input string may have,
 * server/ops/input-limits.ts); with --enable-strong-password at least one upper-case letter, one lower-case
 * letter, one digit and one special character. Every failure is an invalid_argument with a message that
 * says what to change; the password itself is never echoed.
 */
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

/** Letter classes are Unicode-aware; "special" is anything that is neither a letter, a digit nor a space. */
const STRONG_RULES: readonly { test: RegExp; message: string }[] = [
  { test: /\p{Lu}/u, message: 'password must contain at least one upper-case letter' },
  { test: /\p{Ll}/u, message: 'password must contain at least one lower-case letter' },
  { test: /\p{Nd}/u, message: 'password must contain at least one digit' },
  { test: /[^\p{L}\p{N}\s]/u, message: 'password must contain at least one special character' },
];

/**
 * Throws AppError('invalid_argument') when `password` breaks the rule, or when `confirm` is given and
 * differs. Length counts characters (code points), not UTF-16 units or bytes.
 */
export function checkPasswordPolicy(config: Pick<Config, 'enableStrongPassword'>, password: string, confirm?: string): void {
  if (confirm !== undefined && confirm !== password) {
    throw AppError.invalid('password and confirm password do not match');
  }
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw AppError.invalid(`password must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters long`);
  }
  if (!config.enableStrongPassword) return;
  for (const rule of STRONG_RULES) {
    if (!rule.test.test(password)) throw AppError.invalid(rule.message);
  }
}
