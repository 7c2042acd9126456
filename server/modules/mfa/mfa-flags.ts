/**
 * Which second factors this instance offers (docs/api-overview.md#versioning: TOTP, email OTP, SMS OTP and
 * WebAuthn-as-MFA on by default; `--disable-mfa` turns every one off, `--disable-*` one each). A code factor
 * is offered only where its channel can deliver (SMTP for email, the SMS provider's flags for SMS): a
 * factor whose code never arrives would lock its user out. meta reports these same functions, so a client
 * is never told of a factor the server would not check.
 */
import type { Config } from '../../config/flags.ts';
import { emailConfigurationProblem } from '../email/index.ts';
import { missingSmsFlags } from '../sms/index.ts';
import type { MfaMethod } from './enrolled-methods.ts';

type MfaConfig = Pick<Config, 'disableMfa' | 'disableTotpLogin' | 'disableEmailOtp' | 'disableSmsOtp' | 'disableWebauthnMfa'>;

export function totpEnabled(config: Pick<Config, 'disableMfa' | 'disableTotpLogin'>): boolean {
  return !config.disableMfa && !config.disableTotpLogin;
}

export function emailOtpEnabled(config: Config): boolean {
  return !config.disableMfa && !config.disableEmailOtp && emailConfigurationProblem(config) === undefined;
}

export function smsOtpEnabled(config: Config): boolean {
  return !config.disableMfa && !config.disableSmsOtp && missingSmsFlags(config).length === 0;
}

export function webauthnEnabled(config: Pick<Config, 'disableMfa' | 'disableWebauthnMfa'>): boolean {
  return !config.disableMfa && !config.disableWebauthnMfa;
}

/** The methods this instance offers, in the order screens list them. */
export function enabledMfaMethods(config: Config & MfaConfig): MfaMethod[] {
  const methods: MfaMethod[] = [];
  if (totpEnabled(config)) methods.push('totp');
  if (webauthnEnabled(config)) methods.push('webauthn');
  if (emailOtpEnabled(config)) methods.push('email_otp');
  if (smsOtpEnabled(config)) methods.push('sms_otp');
  return methods;
}
