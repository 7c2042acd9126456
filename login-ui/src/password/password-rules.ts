/**
 * The server's password policy (server/modules/passwords/policy.ts; docs/passwords.md), mirrored so the
 * form can say what is missing before a round trip: 6 to 128 characters, counted as characters like the
 * server does (an emoji is one); with --enable-strong-password at least one upper-case letter, one
 * lower-case letter, one digit and one special character. Two rules only the server can check, and the
 * checklist shows them as checked on submit: not a commonly used password (the list stays on the server:
 * half a megabyte, and the check must be the server's anyway), and with --password-min-strength a minimum
 * zxcvbn score. The server decides; this only helps.
 */
import { errorMessage } from '../../../ui-shared/graphql-client.ts';

export type LocalPasswordRule = 'length' | 'upper' | 'lower' | 'digit' | 'special';
/** Rules the server checks when the form is submitted. */
export type ServerPasswordRule = 'common' | 'strength';
export type PasswordRule = LocalPasswordRule | ServerPasswordRule;

const CHECKS: Record<LocalPasswordRule, (password: string) => boolean> = {
  length: (password) => [...password].length >= 6 && [...password].length <= 128,
  upper: (password) => /\p{Lu}/u.test(password),
  lower: (password) => /\p{Ll}/u.test(password),
  digit: (password) => /\p{Nd}/u.test(password),
  special: (password) => /[^\p{L}\p{Nd}\s]/u.test(password),
};

export function passwordRules(strong: boolean): LocalPasswordRule[] {
  return strong ? ['length', 'upper', 'lower', 'digit', 'special'] : ['length'];
}

/** The server-side rules in force: the common-password list always, the strength rule with a minimum. */
export function serverPasswordRules(minStrength: number): ServerPasswordRule[] {
  return minStrength > 0 ? ['common', 'strength'] : ['common'];
}

export function ruleMet(rule: LocalPasswordRule, password: string): boolean {
  return CHECKS[rule](password);
}

/** Catalogue key of the first unmet rule, or true (react-hook-form's validate contract). */
export function validatePassword(password: string, strong: boolean): true | string {
  if (!CHECKS.length(password)) return 'validation.passwordLength';
  if (strong && !passwordRules(true).every((rule) => CHECKS[rule](password))) return 'validation.passwordStrength';
  return true;
}

/**
 * The server-side rule a refusal broke, read from the refusal's message (docs/passwords.md lists them), or
 * undefined for any other failure.
 */
export function brokenServerRule(error: unknown): ServerPasswordRule | undefined {
  if (!error) return undefined;
  const message = errorMessage(error);
  if (message.startsWith('password is too common')) return 'common';
  if (message.startsWith('password is too easy to guess')) return 'strength';
  return undefined;
}

/** The error a page's banner shows: none when the field itself shows a broken server-side rule. */
export function bannerError(error: unknown): unknown {
  return brokenServerRule(error) ? null : error;
}
