/**
 * Typed calls of the public mutations (ui-shared/contract: the same surface the SDK uses, so whatever this
 * page does an integrator can do too); each throws ApiError with the server's message.
 */
import { call, type Output } from '../../../ui-shared/contract/public-call.ts';
import type { AuthAnswer, Identifier, MessageAnswer } from './types.ts';

/** The code factors verify_otp and resend_otp can name (`mfa_method`). */
export type CodeMethod = 'email_otp' | 'sms_otp';

export async function login(params: Identifier & { password: string; state?: string }): Promise<AuthAnswer> {
  return call('login', params);
}

export async function signup(
  params: Identifier & { password: string; confirm_password: string; redirect_uri?: string; state?: string },
): Promise<AuthAnswer> {
  return call('signup', params);
}

export async function logout(): Promise<MessageAnswer> {
  return call('logout', {});
}

export async function magicLinkLogin(params: { email: string; redirect_uri?: string; state?: string }): Promise<MessageAnswer> {
  return call('magic_link_login', params);
}

export async function forgotPassword(
  params: Identifier & { redirect_uri?: string; state?: string },
): Promise<Output<'forgot_password'>> {
  return call('forgot_password', params);
}

/** With the emailed token, or with the texted code and the phone number. */
export async function resetPassword(
  params: ({ token: string } | { otp: string; phone_number: string }) & { password: string; confirm_password: string },
): Promise<MessageAnswer> {
  return call('reset_password', params);
}

/**
 * A texted code (phone verification), or a second factor: with the mfa cookie an email or SMS code, or with
 * `is_totp` an authenticator-app or recovery code; a signed-in caller with `is_totp` confirms an enrolment.
 */
export async function verifyOtp(params: {
  otp: string;
  phone_number?: string;
  email?: string;
  is_totp?: boolean;
  state?: string;
  /** With the mfa cookie or for an enrolment: the code factor the code is for (the server's e67e107 addition). */
  mfa_method?: CodeMethod;
}): Promise<AuthAnswer> {
  return call('verify_otp', params);
}

/** A new texted code, or (with the mfa cookie) a new code of an email or SMS challenge. */
export async function resendOtp(params: { phone_number?: string; email?: string; state?: string; mfa_method?: CodeMethod }): Promise<MessageAnswer> {
  return call('resend_otp', params);
}

/** A fresh signup verification link (identifier basic_auth_signup). */
export async function resendVerifyEmail(params: { email: string; state?: string }): Promise<MessageAnswer> {
  return call('resend_verify_email', { ...params, identifier: 'basic_auth_signup' });
}
