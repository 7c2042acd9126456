/** Typed calls of the public mutations (documents.ts); each throws ApiError with the server's message. */
import { graphql } from '../../../ui-shared/graphql-client.ts';
import {
  FORGOT_PASSWORD, LOGIN, LOGOUT, MAGIC_LINK_LOGIN, RESEND_OTP, RESEND_VERIFY_EMAIL, RESET_PASSWORD, SIGNUP, VERIFY_OTP,
} from './documents.ts';
import type { AuthAnswer, Identifier, MessageAnswer } from './types.ts';

/** The code factors verify_otp and resend_otp can name (`mfa_method`). */
export type CodeMethod = 'email_otp' | 'sms_otp';

export async function login(params: Identifier & { password: string; state?: string }): Promise<AuthAnswer> {
  return (await graphql<{ login: AuthAnswer }>(LOGIN, { params })).login;
}

export async function signup(
  params: Identifier & { password: string; confirm_password: string; redirect_uri?: string; state?: string },
): Promise<AuthAnswer> {
  return (await graphql<{ signup: AuthAnswer }>(SIGNUP, { params })).signup;
}

export async function logout(): Promise<MessageAnswer> {
  return (await graphql<{ logout: MessageAnswer }>(LOGOUT)).logout;
}

export async function magicLinkLogin(params: { email: string; redirect_uri?: string; state?: string }): Promise<MessageAnswer> {
  return (await graphql<{ magic_link_login: MessageAnswer }>(MAGIC_LINK_LOGIN, { params })).magic_link_login;
}

export async function forgotPassword(
  params: Identifier & { redirect_uri?: string; state?: string },
): Promise<MessageAnswer & { should_show_mobile_otp_screen?: boolean | null }> {
  return (await graphql<{ forgot_password: MessageAnswer & { should_show_mobile_otp_screen?: boolean | null } }>(FORGOT_PASSWORD, { params }))
    .forgot_password;
}

/** With the emailed token, or with the texted code and the phone number. */
export async function resetPassword(
  params: ({ token: string } | { otp: string; phone_number: string }) & { password: string; confirm_password: string },
): Promise<MessageAnswer> {
  return (await graphql<{ reset_password: MessageAnswer }>(RESET_PASSWORD, { params })).reset_password;
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
  return (await graphql<{ verify_otp: AuthAnswer }>(VERIFY_OTP, { params })).verify_otp;
}

/** A new texted code, or (with the mfa cookie) a new code of an email or SMS challenge. */
export async function resendOtp(params: { phone_number?: string; email?: string; state?: string; mfa_method?: CodeMethod }): Promise<MessageAnswer> {
  return (await graphql<{ resend_otp: MessageAnswer }>(RESEND_OTP, { params })).resend_otp;
}

/** A fresh signup verification link (identifier basic_auth_signup). */
export async function resendVerifyEmail(params: { email: string; state?: string }): Promise<MessageAnswer> {
  const variables = { params: { ...params, identifier: 'basic_auth_signup' } };
  return (await graphql<{ resend_verify_email: MessageAnswer }>(RESEND_VERIFY_EMAIL, variables)).resend_verify_email;
}
