/**
 * Which second factors this instance offers (specification part 9: on by default, `--disable-mfa` turns
 * every one off, `--disable-totp-login` the authenticator app). meta reports the same functions, so a
 * client is never told of a factor the server would not check.
 */
import type { Config } from '../../config/flags.ts';

export function totpEnabled(config: Pick<Config, 'disableMfa' | 'disableTotpLogin'>): boolean {
  return !config.disableMfa && !config.disableTotpLogin;
}
