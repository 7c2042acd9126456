/**
 * A sign-in whose first factor is done but which still needs a second one (docs/api-overview.md#states-and-transitions: the access
 * token is withheld while an MFA offer or challenge is pending). The server keeps the step behind the
 * HttpOnly mfa cookie (docs/api-overview.md#authentication); the page only knows the AuthResponse flags it got and who is signing in, and
 * carries them in the router's history state to /mfa (never in the URL, so nothing of it is logged or
 * shared; history state survives a reload of that page). A sign-in begun by a full-page redirect names
 * only the stage and the methods in /mfa's query (stepFromQuery).
 */
import type { CodeMethod } from '../api/operations.ts';
import type { AuthAnswer, Identifier, Meta, MfaFlags } from '../api/types.ts';

export type ChallengeMethod = 'totp' | 'webauthn' | 'email_otp' | 'sms_otp';
export type OfferMethod = 'totp' | 'webauthn' | 'email_otp' | 'sms_otp';

export interface MfaStep {
  /**
   * The step's flags only (no secret). In an offer `should_show_totp_screen` means the authenticator app is
   * on offer (the server carries its enrolment with it); in a challenge it asks for a code from the app.
   */
  flags: MfaFlags;
  /** The email or phone number of the first factor, when the page knows it (sent as `email?`/`phone_number?`). */
  who?: Identifier;
  /** A first-time offer: the stage as the answer or the redirect named it. */
  offer?: boolean;
}

/**
 * The step as a full-page redirect names it (an emailed magic link and a social callback:
 * /app/mfa?step=verify|offer&methods=a,b&redirect_uri&state, server/transports/http/mfa-step-url.ts): the
 * same facts as the flags, none of them secret.
 */
export function stepFromQuery(search: string): MfaStep | null {
  const params = new URLSearchParams(search);
  const stage = params.get('step');
  if (stage !== 'verify' && stage !== 'offer') return null;
  const methods = new Set((params.get('methods') ?? '').split(','));
  const on = (method: string) => methods.has(method) || undefined;
  const flags: MfaFlags =
    stage === 'verify'
      ? { should_show_totp_screen: on('totp'), should_offer_webauthn_mfa_verify: on('webauthn'), should_show_email_otp_screen: on('email_otp'), should_show_mobile_otp_screen: on('sms_otp') }
      : { should_show_totp_screen: on('totp'), should_offer_webauthn_mfa_setup: on('webauthn'), should_offer_email_otp_mfa_setup: on('email_otp'), should_offer_sms_otp_mfa_setup: on('sms_otp') };
  return { flags, offer: stage === 'offer' };
}

const OFFER_FLAGS = ['should_offer_webauthn_mfa_setup', 'should_offer_email_otp_mfa_setup', 'should_offer_sms_otp_mfa_setup'] as const;
const CHALLENGE_FLAGS = ['should_show_totp_screen', 'should_offer_webauthn_mfa_verify', 'should_show_email_otp_screen', 'should_show_mobile_otp_screen'] as const;

/**
 * Whether an answer is a first-time offer (docs/api-overview.md#states-and-transitions, "MFA offer pending, token withheld"): any
 * should_offer_*_setup flag, or an authenticator-app enrolment (should_show_totp_screen WITH
 * authenticator_secret; without a secret that flag is a challenge). There is no TOTP offer flag.
 */
export function isOfferAnswer(answer: AuthAnswer): boolean {
  return OFFER_FLAGS.some((flag) => answer[flag]) || Boolean(answer.authenticator_secret);
}

/**
 * Whether an answer without a session asks for a second factor. An offer is one even beside the new user a
 * signup answers under --enforce-mfa; otherwise a signup's should_show_mobile_otp_screen comes with the new
 * user and means "verify your phone", so an answer that carries a user is not a step.
 */
export function isMfaStep(answer: AuthAnswer): boolean {
  if (isOfferAnswer(answer)) return true;
  if (answer.user) return false;
  return CHALLENGE_FLAGS.some((flag) => answer[flag]);
}

/** The step of an answer isMfaStep accepted: its flags, without the enrolment's secret (offer-enrolment.ts). */
export function stepOf(answer: AuthAnswer, who?: Identifier): MfaStep {
  const flags: MfaFlags = {};
  for (const flag of [...OFFER_FLAGS, ...CHALLENGE_FLAGS]) if (answer[flag]) flags[flag] = true;
  return { flags, who, offer: isOfferAnswer(answer) };
}

export function isOffer(step: MfaStep): boolean {
  return Boolean(step.offer) || OFFER_FLAGS.some((flag) => step.flags[flag]);
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
 * The factors a first-time offer lets the person set up: those the server put in the offer. The
 * authenticator app has no offer flag of its own: an offer's should_show_totp_screen (with the enrolment in
 * the answer, or "totp" in a redirect's methods) is its offer.
 */
export function offersOf(flags: MfaFlags, meta: Meta): OfferMethod[] {
  const methods: OfferMethod[] = [];
  if (flags.should_offer_webauthn_mfa_setup && meta.is_webauthn_enabled) methods.push('webauthn');
  if (flags.should_show_totp_screen && meta.is_totp_mfa_enabled) methods.push('totp');
  if (flags.should_offer_email_otp_mfa_setup) methods.push('email_otp');
  if (flags.should_offer_sms_otp_mfa_setup) methods.push('sms_otp');
  return methods;
}

/** The identifier as the setup and verify requests take it. */
export function whoFields(who?: Identifier): { email?: string; phone_number?: string } {
  if (!who) return {};
  return who.email !== undefined ? { email: who.email } : { phone_number: who.phone_number };
}

/** The `mfa_method` of verify_otp and resend_otp for a code screen's channel. */
export function codeMethodOf(channel: 'email' | 'sms'): CodeMethod {
  return channel === 'email' ? 'email_otp' : 'sms_otp';
}
