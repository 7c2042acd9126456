/**
 * The second-factor operations (docs/operations.md): enrolment of an
 * authenticator app or of email / SMS codes, skipping or locking a first-time offer, and the profile switch.
 * Each works for a signed-in person (session cookie) and, during a pending sign-in, with the HttpOnly mfa
 * cookie the browser sends along; the page never sees either.
 */
import { call } from '../../../ui-shared/contract/public-call.ts';
import type { AuthAnswer, MessageAnswer, SessionUser, TotpEnrolmentFields } from './types.ts';

/** A new authenticator-app enrolment: the QR code as a PNG data URL, the secret, and ten recovery codes. */
export type TotpEnrolment = Pick<AuthAnswer, 'message'> & { [K in keyof TotpEnrolmentFields]-?: NonNullable<TotpEnrolmentFields[K]> };

/** `email?`/`phone_number?` of the setup requests: the identifier of a pending sign-in, or nothing when signed in. */
type Who = { email?: string; phone_number?: string };

function whoParams(who?: Who): Record<string, string> {
  const params: Record<string, string> = {};
  if (who?.email) params.email = who.email;
  if (who?.phone_number) params.phone_number = who.phone_number;
  return params;
}

/** totp_mfa_setup always answers the three enrolment fields (they are optional in AuthResponse only). */
export async function totpMfaSetup(who?: Who): Promise<TotpEnrolment> {
  return (await call('totp_mfa_setup', whoParams(who))) as TotpEnrolment;
}

/** Sends a code to the person's own email (docs/api-overview.md#states-and-transitions: an unverified enrolment until verify_otp accepts it). */
export async function emailOtpMfaSetup(who?: Who): Promise<MessageAnswer> {
  return call('email_otp_mfa_setup', whoParams(who));
}

export async function smsOtpMfaSetup(who?: Who): Promise<MessageAnswer> {
  return call('sms_otp_mfa_setup', whoParams(who));
}

/** Declines the first-time offer and signs in (refused when the instance enforces MFA). */
export async function skipMfaSetup(who?: Who): Promise<AuthAnswer> {
  return call('skip_mfa_setup', whoParams(who));
}

/**
 * "I lost my authenticator", in two calls (the pending sign-in proves the password only, so the lock is
 * confirmed through the account's proven email or phone): without `otp` the server sends a code there;
 * with that code it records the loss. Nothing is signed in and an administrator must reset MFA.
 */
export async function lockMfa(who?: Who, otp?: string): Promise<MessageAnswer> {
  return call('lock_mfa', { ...whoParams(who), ...(otp ? { otp } : {}) });
}

export async function setMfaRequired(on: boolean): Promise<MessageAnswer> {
  return call('update_profile', { is_multi_factor_auth_enabled: on });
}

/** The signed-in person as stored now (enrolled methods change under the Security page). */
export async function profile(): Promise<SessionUser> {
  return call('profile', {});
}
