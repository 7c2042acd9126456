/**
 * A sign-in whose first factor is done but which still needs a second one (specification part 3: the access
 * token is withheld while an MFA offer or challenge is pending). The server keeps the step behind the
 * HttpOnly mfa cookie (part 5); the page only knows the AuthResponse flags it got and who is signing in, and
 * carries them in the router's history state to /mfa (never in the URL, so nothing of it is logged or
 * shared; history state survives a reload of that page).
 */
import type { AuthAnswer, Identifier, Meta, MfaFlags } from '../api/types.ts';

export type ChallengeMethod = 'totp' | 'webauthn' | 'email_otp' | 'sms_otp';
export type OfferMethod = 'totp' | 'webauthn' | 'email_otp' | 'sms_otp';

export interface MfaStep {
  flags: MfaFlags;
  /** The email or phone number of the first factor, when the page knows it (sent as `email?`/`phone_number?`). */
  who?: Identifier;
}

const OFFER_FLAGS = ['should_offer_webauthn_mfa_setup', 'should_offer_email_otp_mfa_setup', 'should_offer_sms_otp_mfa_setup'] as const;
const CHALLENGE_FLAGS = ['should_show_totp_screen', 'should_offer_webauthn_mfa_verify', 'should_show_email_otp_screen', 'should_show_mobile_otp_screen'] as const;

/**
 * Whether an answer without a session asks for a second factor. A signup's should_show_mobile_otp_screen
 * comes with the new user and means "verify your phone", so an answer that carries a user is not a step.
 */
export function isMfaStep(answer: AuthAnswer): boolean {
  if (answer.user) return false;
  return [...OFFER_FLAGS, ...CHALLENGE_FLAGS].some((flag) => answer[flag]);
}

export function isOffer(flags: MfaFlags): boolean {
  return OFFER_FLAGS.some((flag) => flags[flag]);
}

/** The challenges the server asked for, in the order the picker lists them (strongest first). */
export function challengesOf(flags: MfaFlags): ChallengeMethod[] {
  const methods: ChallengeMethod[] = [];
  if (flags.should_offer_webauthn_mfa_verify) methods.push('webauthn');
  if (flags.should_show_totp_screen) methods.push('totp');
  if (flags.should_show_email_otp_screen) methods.push('email_otp');
  if (flags.should_show_mobile_otp_screen) methods.push('sms_otp');
  return methods;
}

/**
 * The factors a first-time offer lets the person set up: those the server flagged, and the authenticator
 * app whenever the instance offers it (it has no offer flag of its own; reference.md Meta is_totp_mfa_enabled).
 */
export function offersOf(flags: MfaFlags, meta: Meta): OfferMethod[] {
  const methods: OfferMethod[] = [];
  if (flags.should_offer_webauthn_mfa_setup && meta.is_webauthn_enabled) methods.push('webauthn');
  if (meta.is_totp_mfa_enabled) methods.push('totp');
  if (flags.should_offer_email_otp_mfa_setup) methods.push('email_otp');
  if (flags.should_offer_sms_otp_mfa_setup) methods.push('sms_otp');
  return methods;
}

/** The identifier as the setup and verify requests take it. */
export function whoFields(who?: Identifier): { email?: string; phone_number?: string } {
  if (!who) return {};
  return who.email !== undefined ? { email: who.email } : { phone_number: who.phone_number };
}
