/**
 * The server's password policy (server/modules/passwords/policy.ts), mirrored so the form can say what is
 * missing before a round trip: 6 to 128 characters, counted as characters like the server does (an emoji
 * is one); with --enable-strong-password at least one upper-case letter, one lower-case letter, one digit
 * and one special character. The server decides; this only helps.
 */
export type PasswordRule = 'length' | 'upper' | 'lower' | 'digit' | 'special';

const CHECKS: Record<PasswordRule, (password: string) => boolean> = {
  length: (password) => [...password].length >= 6 && [...password].length <= 128,
  upper: (password) => /\p{Lu}/u.test(password),
  lower: (password) => /\p{Ll}/u.test(password),
  digit: (password) => /\p{Nd}/u.test(password),
  special: (password) => /[^\p{L}\p{Nd}\s]/u.test(password),
};

export function passwordRules(strong: boolean): PasswordRule[] {
  return strong ? ['length', 'upper', 'lower', 'digit', 'special'] : ['length'];
}

export function ruleMet(rule: PasswordRule, password: string): boolean {
  return CHECKS[rule](password);
}

/** Catalogue key of the first unmet rule, or true (react-hook-form's validate contract). */
export function validatePassword(password: string, strong: boolean): true | string {
  if (!CHECKS.length(password)) return 'validation.passwordLength';
  if (strong && !passwordRules(true).every((rule) => CHECKS[rule](password))) return 'validation.passwordStrength';
  return true;
}
