/**
 * The password rule (docs/passwords.md): 6 to 128 characters, so passphrases fit (NIST SP 800-63B §5.1.1.2:
 * verifiers should permit at least 64; 128 code points stay within the 256 UTF-16 units every input string
 * may have, server/ops/input-limits.ts); with --enable-strong-password at least one upper-case letter, one
 * lower-case letter, one digit and one special character; never a commonly used password
 * (common-passwords.ts); with --password-min-strength at least that zxcvbn score (strength.ts). Every
 * failure is an invalid_argument with a message that says what to change; the password itself is never
 * echoed, nor which entry of the list it matched.
 */
import type { Config } from '../../config/flags.ts';
import { AppError } from '../../kernel/errors.ts';
import { isCommonPassword } from './common-passwords.ts';
import { passwordStrength } from './strength.ts';

export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 128;

export const COMMON_PASSWORD_MESSAGE = 'password is too common: it appears in lists of passwords that attackers try first; choose another';
export const WEAK_PASSWORD_MESSAGE = 'password is too easy to guess: make it longer, add words that do not belong together, or avoid your own name and email address';

export type PasswordPolicyConfig = Pick<Config, 'enableStrongPassword' | 'passwordMinStrength'>;

/** Letter classes are Unicode-aware; "special" is anything that is neither a letter, a digit nor a space. */
const STRONG_RULES: readonly { test: RegExp; message: string }[] = [
  { test: /\p{Lu}/u, message: 'password must contain at least one upper-case letter' },
  { test: /\p{Ll}/u, message: 'password must contain at least one lower-case letter' },
  { test: /\p{Nd}/u, message: 'password must contain at least one digit' },
  { test: /[^\p{L}\p{N}\s]/u, message: 'password must contain at least one special character' },
];

/**
 * Resolves when `password` keeps the rule; rejects with AppError('invalid_argument') when it breaks it, or
 * when `confirm` is given and differs. Length counts characters (code points), not UTF-16 units or bytes.
 * `personal` are the account's own email address and names, which the strength estimate counts as words an
 * attacker would try. The cheap rules run first, so a refused length never loads the list.
 */
export async function checkPasswordPolicy(
  config: PasswordPolicyConfig,
  password: string,
  confirm?: string,
  personal: readonly (string | undefined | null)[] = [],
): Promise<void> {
  if (confirm !== undefined && confirm !== password) {
    throw AppError.invalid('password and confirm password do not match');
  }
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw AppError.invalid(`password must be between ${PASSWORD_MIN_LENGTH} and ${PASSWORD_MAX_LENGTH} characters long`);
  }
  if (config.enableStrongPassword) {
    for (const rule of STRONG_RULES) {
      if (!rule.test.test(password)) throw AppError.invalid(rule.message);
    }
  }
  if (await isCommonPassword(password)) throw AppError.invalid(COMMON_PASSWORD_MESSAGE);
  if (config.passwordMinStrength > 0 && (await passwordStrength(password, personal)) < config.passwordMinStrength) {
    throw AppError.invalid(WEAK_PASSWORD_MESSAGE);
  }
}
