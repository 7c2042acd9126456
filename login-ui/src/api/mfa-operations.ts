/**
 * The second-factor operations (docs/operations.md): enrolment of an
 * authenticator app or of email / SMS codes, skipping or locking a first-time offer, and the profile switch.
 * Each works for a signed-in person (session cookie) and, during a pending sign-in, with the HttpOnly mfa
 * cookie the browser sends along; the page never sees either. Arguments are written inline so the documents
 * do not depend on the server's input type names beyond `params`.
 */
import { graphql } from '../../../ui-shared/graphql-client.ts';
import { MFA_FLAG_FIELDS, USER_FIELDS } from './documents.ts';
import type { AuthAnswer, MessageAnswer, SessionUser } from './types.ts';

export interface TotpEnrolment {
  message: string;
  /** The otpauth URI as a PNG data URL (the AuthResponse of docs/api-overview.md#resources-and-fields authenticator_scanner_image). */
  authenticator_scanner_image: string;
  authenticator_secret: string;
  /** Ten single-use codes, shown this once. */
  authenticator_recovery_codes: string[];
}

/** `email?`/`phone_number?` of the setup requests: the identifier of a pending sign-in, or nothing when signed in. */
type Who = { email?: string; phone_number?: string };

function whoParams(who?: Who): Record<string, string> {
  const params: Record<string, string> = {};
  if (who?.email) params.email = who.email;
  if (who?.phone_number) params.phone_number = who.phone_number;
  return params;
}

const TOTP_SETUP = `mutation TotpSetup($email: String, $phone_number: String) {
  totp_mfa_setup(params: {email: $email, phone_number: $phone_number}) {
    message authenticator_scanner_image authenticator_secret authenticator_recovery_codes
  }
}`;

export async function totpMfaSetup(who?: Who): Promise<TotpEnrolment> {
  return (await graphql<{ totp_mfa_setup: TotpEnrolment }>(TOTP_SETUP, whoParams(who))).totp_mfa_setup;
}

const setupDocument = (field: string) => `mutation Setup($email: String, $phone_number: String) {
  ${field}(params: {email: $email, phone_number: $phone_number}) { message }
}`;

/** Sends a code to the person's own email (docs/api-overview.md#states-and-transitions: an unverified enrolment until verify_otp accepts it). */
export async function emailOtpMfaSetup(who?: Who): Promise<MessageAnswer> {
  return (await graphql<{ email_otp_mfa_setup: MessageAnswer }>(setupDocument('email_otp_mfa_setup'), whoParams(who))).email_otp_mfa_setup;
}

export async function smsOtpMfaSetup(who?: Who): Promise<MessageAnswer> {
  return (await graphql<{ sms_otp_mfa_setup: MessageAnswer }>(setupDocument('sms_otp_mfa_setup'), whoParams(who))).sms_otp_mfa_setup;
}

const SKIP = `mutation Skip($email: String, $phone_number: String) {
  skip_mfa_setup(params: {email: $email, phone_number: $phone_number}) { message ${MFA_FLAG_FIELDS} user { ${USER_FIELDS} } }
}`;

/** Declines the first-time offer and signs in (refused when the instance enforces MFA). */
export async function skipMfaSetup(who?: Who): Promise<AuthAnswer> {
  return (await graphql<{ skip_mfa_setup: AuthAnswer }>(SKIP, whoParams(who))).skip_mfa_setup;
}

const LOCK = `mutation LockMfa($email: String, $phone_number: String, $otp: String) {
  lock_mfa(params: {email: $email, phone_number: $phone_number, otp: $otp}) { message }
}`;

/**
 * "I lost my authenticator", in two calls (the pending sign-in proves the password only, so the lock is
 * confirmed through the account's proven email or phone): without `otp` the server sends a code there;
 * with that code it records the loss. Nothing is signed in and an administrator must reset MFA.
 */
export async function lockMfa(who?: Who, otp?: string): Promise<MessageAnswer> {
  const variables: Record<string, string> = whoParams(who);
  if (otp) variables.otp = otp;
  return (await graphql<{ lock_mfa: MessageAnswer }>(LOCK, variables)).lock_mfa;
}

const UPDATE_MFA_SWITCH = `mutation MfaSwitch($on: Boolean!) { update_profile(params: {is_multi_factor_auth_enabled: $on}) { message } }`;

export async function setMfaRequired(on: boolean): Promise<MessageAnswer> {
  return (await graphql<{ update_profile: MessageAnswer }>(UPDATE_MFA_SWITCH, { on })).update_profile;
}

const PROFILE = `query Profile { profile { ${USER_FIELDS} } }`;

/** The signed-in person as stored now (enrolled methods change under the Security page). */
export async function profile(): Promise<SessionUser> {
  return (await graphql<{ profile: SessionUser }>(PROFILE)).profile;
}
