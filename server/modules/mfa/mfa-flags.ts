/**
 * Which second factors this instance offers (specification part 9: on by default, `--disable-mfa` turns
 * every one off, `--disable-totp-login` the authenticator app). meta reports the same functions, so a
 * client is never told of a factor the server would not check.
 */
import type { Config } from '../../config/flags.ts';

export function totpEnabled(config: Pick<Config, 'disableMfa' | 'disableTotpLogin'>): boolean {
  return !config.disableMfa && !config.disableTotpLogin;
}

/**
 * Passkeys (WebAuthn). Part 9 ties WebAuthn to the MFA flags only, so either flag turns every WebAuthn
 * ceremony off, the passwordless sign-in included: an operator who turned off "WebAuthn as a second factor"
 * does not expect a passkey to be a way in on its own, and one switch is simpler to reason about.
 */
export function webauthnEnabled(config: Pick<Config, 'disableMfa' | 'disableWebauthnMfa'>): boolean {
  return !config.disableMfa && !config.disableWebauthnMfa;
}
